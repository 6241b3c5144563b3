/**
 * The height of every chain in the node's current cut, kept live by the shared chain store.
 * @module
 */
import { Link } from "@tanstack/react-router";
import { formatInteger } from "../../../format/number.ts";
import type { ChainHead } from "../../../services/chainHeights.ts";
import { useLiveChain, useServices } from "../../../services/services.tsx";
import { DataTable } from "../../../ui/DataTable.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { streamText } from "../model.ts";

export function ChainTable() {
  const { chain } = useServices();
  const { heights, stream, error } = useLiveChain();
  return (
    <Panel id="chains" title="Chains">
      <p role="status" className={`stream stream-${stream}`} data-testid="stream-state">
        {streamText[stream]}
      </p>
      {error === null ? null : (
        <ErrorNotice error={error} what="the chain heights" onRetry={chain.reload} />
      )}
      {heights.heads.length === 0 ? (
        heights.loaded || error !== null ? null : (
          <p>Loading the chains…</p>
        )
      ) : (
        <>
          <p>
            Cut height (sum over all chains):{" "}
            <strong data-testid="cut-height">{formatInteger(heights.cutHeight)}</strong>
          </p>
          <DataTable<ChainHead>
            id="chain-table"
            className="chains"
            caption="Height and latest block of each chain"
            rows={heights.heads}
            rowKey={(h) => String(h.chainId)}
            rowData={(h) => String(h.chainId)}
            columns={[
              {
                header: "Chain",
                cell: (h) => (
                  <Link to="/explorer/chain/$chain" params={{ chain: String(h.chainId) }}>
                    {h.chainId}
                  </Link>
                ),
              },
              {
                header: "Height",
                numeric: true,
                cell: (h) => formatInteger(h.height),
                testId: (h) => `height-${h.chainId}`,
              },
              {
                header: "Latest block",
                cell: (h) => <LongValue value={h.hash} what="block hash" short />,
              },
            ]}
          />
        </>
      )}
    </Panel>
  );
}
