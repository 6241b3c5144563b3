/**
 * One chain (`#/explorer/chain/<c>`): its latest block, live. Its block list arrives later.
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
import { Tabs } from "../../../ui/Tabs.tsx";
import { useChainParam } from "../hooks/useChainParam.ts";

const route = getRouteApi("/explorer/chain/$chain");

export function ChainPage() {
  const { chain } = route.useParams();
  const parsed = useChainParam(chain);
  const { heights } = useLiveChain();
  if (!parsed.ok) {
    return (
      <>
        <PageTitle>No such chain</PageTitle>
        <Notice tone="error">
          <p>{parsed.reason}</p>
        </Notice>
        <p>
          <Link to="/explorer">Back to the explorer</Link>
        </p>
      </>
    );
  }
  const head = heights.heads.find((h) => h.chainId === parsed.value);
  return (
    <>
      <PageTitle>{`Chain ${parsed.value}`}</PageTitle>
      <p className="lead">
        One of the node's parallel chains. Its blocks also reference blocks of its neighbours.
      </p>
      <Panel id="chain-head" title="Latest block">
        {head === undefined ? (
          <p>Loading…</p>
        ) : (
          <dl className="facts">
            <dt>Chain</dt>
            <dd data-testid="chain-id">{parsed.value}</dd>
            <dt>Height</dt>
            <dd data-testid="chain-height">{formatInteger(head.height)}</dd>
            <dt>Hash</dt>
            <dd>
              <Link
                to="/explorer/chain/$chain/block/$hash"
                params={{ chain: String(parsed.value), hash: head.hash }}
              >
                <LongValue value={head.hash} what="block hash" copy={false} short />
              </Link>
            </dd>
          </dl>
        )}
      </Panel>
      <Tabs
        label="Chain contents"
        items={[
          {
            id: "blocks",
            title: "Blocks",
            content: (
              <ComingSoon>The chain's blocks, newest first, will be listed here.</ComingSoon>
            ),
          },
          {
            id: "transactions",
            title: "Transactions",
            content: <ComingSoon>The chain's recent transactions will be listed here.</ComingSoon>,
          },
        ]}
      />
    </>
  );
}
