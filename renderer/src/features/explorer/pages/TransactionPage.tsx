/**
 * One transaction (`#/explorer/tx/<requestKey>`) from the explorer index: its state in
 * words (confirmed with its confirmations, pending in the mempool, expired, orphaned, or
 * not found), result, events, gas, command with signers and capabilities, and for a
 * cross-chain transfer every step on its chain, with **Finish this transfer** (the
 * wallet's finish page) while its last step is missing. Unconfirmed ones are asked again
 * every few seconds.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { href } from "../../../app/routes.ts";
import { formatInteger } from "../../../format/number.ts";
import { useServices } from "../../../services/services.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { transactionQuery } from "../api.ts";
import { ExplorerFrame } from "../components/ExplorerFrame.tsx";
import { QueryState } from "../components/Loading.tsx";
import { CommandFacts, EventList, ResultLine } from "../components/TxParts.tsx";
import { formatSeconds, requestKeyProblem, transferNeedsFinish } from "../model.ts";
import type { BlockSummary, CrossChain, IndexedTransaction } from "../wire/index.ts";

const route = getRouteApi("/explorer/tx/$requestKey");

function BlockRef({ block }: { readonly block: BlockSummary }) {
  return (
    <Link
      to="/explorer/chain/$chain/block/$hash"
      params={{ chain: String(block.chain), hash: block.hash }}
      data-testid="tx-block"
    >
      Block {formatInteger(block.height)} on chain {block.chain}
    </Link>
  );
}

function StateNotice({ tx, nowS }: { readonly tx: IndexedTransaction; readonly nowS: number }) {
  switch (tx.status) {
    case "confirmed":
      return (
        <p className="good" data-testid="tx-status">
          <strong>Confirmed</strong> in{" "}
          {tx.block === null ? "a block" : <BlockRef block={tx.block} />}
          {tx.confirmations === null
            ? ""
            : `, ${formatInteger(tx.confirmations)} confirmation${tx.confirmations === 1 ? "" : "s"}`}
          .
        </p>
      );
    case "pending":
      return tx.expiresAt <= nowS ? (
        <Notice tone="warning" testId="tx-status">
          <p>
            <strong>Expired</strong> (pending, never mined): its time to live ran out at{" "}
            {formatSeconds(tx.expiresAt)}, so no block will take it. Send it again with a new
            creation time.
          </p>
        </Notice>
      ) : (
        <Notice tone="info" testId="tx-status">
          <p>
            <strong>Pending:</strong> waiting in this node's mempool to be mined on chain {tx.chain}{" "}
            (valid until {formatSeconds(tx.expiresAt)}). This page updates when it lands.
          </p>
        </Notice>
      );
    case "orphaned":
      return (
        <Notice tone="warning" testId="tx-status">
          <p>
            <strong>Orphaned:</strong> it was in{" "}
            {tx.block === null ? "a block" : <BlockRef block={tx.block} />}, which left the best
            chain, and it is in no block of the best chain now, so it is not confirmed.
          </p>
        </Notice>
      );
    default: {
      const never: never = tx.status;
      return never;
    }
  }
}

function CrossChainPanel({ cc }: { readonly cc: CrossChain }) {
  const finish = transferNeedsFinish(cc);
  return (
    <Panel id="tx-xchain" title="Cross-chain transfer">
      <p>
        {cc.amount === null ? (
          "A transfer"
        ) : (
          <>
            Transfer of <strong>{cc.amount}</strong>
          </>
        )}{" "}
        from chain {cc.sourceChain} to{" "}
        {cc.targetChain === null ? "another chain" : `chain ${cc.targetChain}`}
        {cc.receiver === null ? "" : " for "}
        {cc.receiver === null ? null : <code>{cc.receiver}</code>}:{" "}
        {cc.complete ? "complete." : "not complete yet."}
      </p>
      {/* The words number the steps ("Step 1 of 2"): the list draws no numbers of its own. */}
      <ul className="steps steps-plain">
        {cc.steps.map((s) => (
          <li key={s.step} data-testid={`xchain-step-${s.step}`}>
            Step {s.step + 1} of {cc.stepCount}
            {s.chain === null ? "" : ` on chain ${s.chain}`}: {s.status}
            {s.requestKey === null ? null : (
              <>
                {" — "}
                <Link to="/explorer/tx/$requestKey" params={{ requestKey: s.requestKey }}>
                  <code>{s.requestKey}</code>
                </Link>
              </>
            )}
          </li>
        ))}
      </ul>
      {finish ? (
        <p>
          <a
            className="btn btn-primary btn-md"
            href={href("walletFinish", { requestKey: cc.pactId })}
          >
            Finish this transfer
          </a>{" "}
          <span className="hint">
            The last step runs on chain {cc.targetChain ?? "?"} with a proof from chain{" "}
            {cc.sourceChain}; the wallet sends it.
          </span>
        </p>
      ) : null}
    </Panel>
  );
}

function TxView({ tx }: { readonly tx: IndexedTransaction }) {
  const nowS = Math.floor(Date.now() / 1000);
  return (
    <>
      <StateNotice tx={tx} nowS={nowS} />
      <Panel id="tx" title="Result">
        <dl className="facts">
          <dt>Request key</dt>
          <dd>
            <LongValue value={tx.requestKey} what="request key" testId="request-key" />
          </dd>
          <dt>Chain</dt>
          <dd>
            <Link to="/explorer/chain/$chain" params={{ chain: String(tx.chain) }}>
              Chain {tx.chain}
            </Link>
          </dd>
          {tx.firstCall === null ? null : (
            <>
              <dt>Calls</dt>
              <dd>
                <code>{tx.firstCall}</code>
              </dd>
            </>
          )}
        </dl>
        {tx.result === null ? (
          <p className="hint">No result yet.</p>
        ) : (
          <ResultLine result={tx.result} />
        )}
        <h3>Events</h3>
        <EventList events={tx.events} />
      </Panel>
      {tx.crossChain === null ? null : <CrossChainPanel cc={tx.crossChain} />}
      <Panel id="tx-command" title="Command">
        <CommandFacts command={tx.command} />
      </Panel>
      {tx.orphanedIn.length === 0 ? null : (
        <Panel id="tx-orphaned" title="Also in orphaned blocks">
          <ul>
            {tx.orphanedIn.map((b) => (
              <li key={b.hash}>
                <BlockRef block={b} /> (orphaned)
              </li>
            ))}
          </ul>
        </Panel>
      )}
    </>
  );
}

export function TransactionPage() {
  const { requestKey } = route.useParams();
  const problem = requestKeyProblem(requestKey);
  const { client } = useServices();
  const tx = useQuery({ ...transactionQuery(client, requestKey), enabled: problem === null });
  return (
    <ExplorerFrame
      title="Transaction"
      lead="A command sent to a chain, identified by its request key."
    >
      {problem === null ? (
        <QueryState
          query={tx}
          what="the transaction"
          notFound={
            <>
              <p>
                Transaction <code data-testid="request-key">{requestKey}</code> not found: this node
                has it neither in a block nor waiting to be mined.
              </p>
              <p className="hint">
                A transaction just sent to another node appears once its block reaches this one;
                this page keeps looking.
              </p>
            </>
          }
        >
          {(t) => <TxView tx={t} />}
        </QueryState>
      ) : (
        <>
          <ErrorMessage error={problem} />
          <p>
            Request key: <code data-testid="request-key">{requestKey}</code>
          </p>
        </>
      )}
    </ExplorerFrame>
  );
}
