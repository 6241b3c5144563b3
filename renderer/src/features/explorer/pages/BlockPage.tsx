/**
 * One block (`#/explorer/chain/<c>/block/<hash>`): the chain and hash it was opened with,
 * and whether it is the chain's latest block. Its header and transactions arrive later.
 * @module
 */
import { getRouteApi, Link } from "@tanstack/react-router";
import { formatInteger } from "../../../format/number.ts";
import { useLiveChain } from "../../../services/services.tsx";
import { ComingSoon } from "../../../ui/ComingSoon.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { useChainParam } from "../hooks/useChainParam.ts";
import { blockHashProblem } from "../model.ts";

const route = getRouteApi("/explorer/chain/$chain/block/$hash");

export function BlockPage() {
  const { chain, hash } = route.useParams();
  const parsed = useChainParam(chain);
  const { heights } = useLiveChain();
  const problem = blockHashProblem(hash);
  const head = parsed.ok ? heights.heads.find((h) => h.chainId === parsed.value) : undefined;
  return (
    <>
      <PageTitle>Block</PageTitle>
      <p className="lead">A block of one chain, identified by its hash.</p>
      {parsed.ok ? null : (
        <Notice tone="error">
          <p>{parsed.reason}</p>
        </Notice>
      )}
      {problem === null ? null : (
        <Notice tone="error">
          <p>{problem}</p>
        </Notice>
      )}
      <Panel id="block" title="This block">
        <dl className="facts">
          <dt>Chain</dt>
          <dd data-testid="block-chain">
            {parsed.ok ? (
              <Link to="/explorer/chain/$chain" params={{ chain: String(parsed.value) }}>
                Chain {parsed.value}
              </Link>
            ) : (
              chain
            )}
          </dd>
          <dt>Hash</dt>
          <dd>
            <LongValue value={hash} what="block hash" testId="block-hash" />
          </dd>
          {head !== undefined && head.hash === hash ? (
            <>
              <dt>Height</dt>
              <dd>{formatInteger(head.height)} (the chain's latest block)</dd>
            </>
          ) : null}
        </dl>
      </Panel>
      <ComingSoon>
        The block's header (parent, neighbours, time, target) and its transactions will be shown
        here.
      </ComingSoon>
    </>
  );
}
