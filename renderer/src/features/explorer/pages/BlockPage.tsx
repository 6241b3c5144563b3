/**
 * One block (`#/explorer/chain/<c>/block/<hash>`): its header fields, its parent and
 * adjacent parents as links (and the blocks built on it), the miner and reward, and each
 * transaction with its result and events. Whether it is still on the best chain is asked
 * again with every new block of its chain; a block that left it is marked "orphaned".
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { formatInteger, shortHash } from "../../../format/number.ts";
import { useServices } from "../../../services/services.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { blockPlaceQuery, blockQuery } from "../api.ts";
import { ExplorerFrame } from "../components/ExplorerFrame.tsx";
import { QueryState } from "../components/Loading.tsx";
import { AccountLink, CommandFacts, EventList, ResultLine } from "../components/TxParts.tsx";
import { useChainParam } from "../hooks/useChainParam.ts";
import { blockHashProblem, coinText, formatBlockTime, rewardOf } from "../model.ts";
import type { FullBlock } from "../wire/blocks.ts";

const route = getRouteApi("/explorer/chain/$chain/block/$hash");

/** A link to another block: its hash shortened (whole in the tooltip; its page can copy it). */
function BlockLink({ chain, hash }: { readonly chain: number; readonly hash: string }) {
  return (
    <Link
      to="/explorer/chain/$chain/block/$hash"
      params={{ chain: String(chain), hash }}
      title={hash}
    >
      <code>{shortHash(hash)}</code>
    </Link>
  );
}

function Placement({ block }: { readonly block: FullBlock }) {
  const { client, chain } = useServices();
  const h = block.header;
  const place = useQuery(blockPlaceQuery(client, chain, h.chainId, h.hash, h.height));
  if (place.data === undefined) return null;
  const orphaned = place.data.bestAtHeight !== null && place.data.bestAtHeight !== h.hash;
  return (
    <>
      {orphaned ? (
        <Notice tone="warning" testId="orphaned">
          <p>
            <strong>This block is orphaned:</strong> it is no longer on chain {h.chainId}'s best
            chain, so its transactions do not count there. The best chain's block at this height is{" "}
            {place.data.bestAtHeight === null ? null : (
              <BlockLink chain={h.chainId} hash={place.data.bestAtHeight} />
            )}
            .
          </p>
        </Notice>
      ) : (
        <p className="hint" data-testid="confirmations">
          On the best chain, {formatInteger(place.data.headHeight - h.height + 1)} confirmation
          {place.data.headHeight - h.height === 0 ? "" : "s"} (the chain's head is at height{" "}
          {formatInteger(place.data.headHeight)}).
        </p>
      )}
      {place.data.children.length === 0 ? null : (
        <p data-testid="children">
          {place.data.children.length === 1
            ? "The next block (built on this one): "
            : "The next blocks (each built on this one; all but one will be orphaned): "}
          {place.data.children.map((c, i) => (
            <span key={c}>
              {i > 0 ? ", " : ""}
              <BlockLink chain={h.chainId} hash={c} />
            </span>
          ))}
        </p>
      )}
    </>
  );
}

function BlockView({ block }: { readonly block: FullBlock }) {
  const h = block.header;
  const reward = block.coinbase === null ? null : rewardOf(block.coinbase.events);
  return (
    <>
      <Placement block={block} />
      <Panel id="block" title="Header">
        <dl className="facts">
          <dt>Chain</dt>
          <dd data-testid="block-chain">
            <Link to="/explorer/chain/$chain" params={{ chain: String(h.chainId) }}>
              Chain {h.chainId}
            </Link>
          </dd>
          <dt>Height</dt>
          <dd data-testid="block-height">{formatInteger(h.height)}</dd>
          <dt>Hash</dt>
          <dd>
            <LongValue value={h.hash} what="block hash" testId="block-hash" />
          </dd>
          <dt>Created</dt>
          <dd>{formatBlockTime(h.creationTime)}</dd>
          <dt>Parent</dt>
          <dd>
            {h.height === 0 ? (
              "none (genesis block)"
            ) : (
              <BlockLink chain={h.chainId} hash={h.parent} />
            )}
          </dd>
          <dt>Adjacent parents</dt>
          <dd>
            {h.adjacents.length === 0 ? (
              "none"
            ) : (
              <ul className="adjacents">
                {h.adjacents.map((a) => (
                  <li key={a.chainId}>
                    Chain {a.chainId}:{" "}
                    {h.height === 0 ? (
                      <code>{a.hash}</code>
                    ) : (
                      <BlockLink chain={a.chainId} hash={a.hash} />
                    )}
                  </li>
                ))}
              </ul>
            )}
          </dd>
          <dt>Miner</dt>
          <dd>{block.miner === null ? "none" : <AccountLink name={block.miner.account} />}</dd>
          <dt>Reward</dt>
          <dd>{reward === null ? "none" : coinText(reward)}</dd>
          <dt>Payload hash</dt>
          <dd>
            <LongValue value={h.payloadHash} what="payload hash" />
          </dd>
          <dt>Target</dt>
          <dd>
            <code className="wrap">{h.target}</code>
          </dd>
          <dt>Weight</dt>
          <dd>
            <code className="wrap">{h.weight}</code>
          </dd>
          <dt>Nonce</dt>
          <dd>
            <code>{h.nonce}</code>
          </dd>
          <dt>Epoch start</dt>
          <dd>{formatBlockTime(h.epochStart)}</dd>
          <dt>Feature flags</dt>
          <dd>{h.featureFlags}</dd>
        </dl>
      </Panel>
      <Panel
        id="block-txs"
        title={`${block.transactions.length} transaction${block.transactions.length === 1 ? "" : "s"}`}
      >
        {block.transactions.length === 0 ? (
          <p>This block holds no transactions.</p>
        ) : (
          <ol className="tx-list">
            {block.transactions.map((t) => (
              <li key={t.command.requestKey} className="tx-item">
                <h3>
                  <Link to="/explorer/tx/$requestKey" params={{ requestKey: t.command.requestKey }}>
                    Transaction <code>{t.command.requestKey}</code>
                  </Link>
                </h3>
                <p>
                  Sent by <AccountLink name={t.command.sender} />
                  {t.command.cont === null ? "" : `, step ${t.command.cont.step} of a defpact`}
                </p>
                <ResultLine result={t.result} />
                <EventList events={t.result.events} />
                <details>
                  <summary>Command</summary>
                  <CommandFacts command={t.command} />
                </details>
              </li>
            ))}
          </ol>
        )}
      </Panel>
    </>
  );
}

export function BlockPage() {
  const { chain, hash } = route.useParams();
  const parsed = useChainParam(chain);
  const problem = blockHashProblem(hash);
  const { client } = useServices();
  const ok = parsed.ok && problem === null;
  const block = useQuery({
    ...blockQuery(client, parsed.ok ? parsed.value : 0, hash),
    enabled: ok,
  });
  return (
    <ExplorerFrame
      title="Block"
      lead={
        block.data == null
          ? "A block of one chain: its header, its links to other blocks, and its transactions."
          : `Height ${formatInteger(block.data.header.height)} of chain ${block.data.header.chainId}: its header, its links to other blocks, and its transactions.`
      }
    >
      {parsed.ok ? null : <ErrorMessage error={parsed.error} />}
      {problem === null ? null : <ErrorMessage error={problem} />}
      {ok ? (
        <QueryState
          query={block}
          what="the block"
          notFound={
            <p>
              Chain {chain} has no block <code>{hash}</code> (not found).
            </p>
          }
        >
          {(b) => <BlockView block={b} />}
        </QueryState>
      ) : (
        <Panel id="block" title="This block">
          <dl className="facts">
            <dt>Chain</dt>
            <dd data-testid="block-chain">{chain}</dd>
            <dt>Hash</dt>
            <dd>
              <LongValue value={hash} what="block hash" testId="block-hash" />
            </dd>
          </dl>
        </Panel>
      )}
    </ExplorerFrame>
  );
}
