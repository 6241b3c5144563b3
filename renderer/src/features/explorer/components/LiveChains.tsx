/**
 * Every chain's latest block, live from the shared chain store, linking to the chain and
 * block pages.
 * @module
 */
import { Link } from "@tanstack/react-router";
import { formatInteger, shortHash } from "../../../format/number.ts";
import type { ChainHead } from "../../../services/chainHeights.ts";
import { useLiveChain } from "../../../services/services.tsx";
import { DataTable } from "../../../ui/DataTable.tsx";
import { Panel } from "../../../ui/Panel.tsx";

export function LiveChains() {
  const { heights } = useLiveChain();
  return (
    <Panel id="braid" title="Chains now">
      {heights.heads.length === 0 ? (
        <p>Loading the chains…</p>
      ) : (
        <DataTable<ChainHead>
          id="braid-table"
          caption={`The latest block of each of the ${heights.heads.length} chains`}
          rows={heights.heads}
          rowKey={(h) => String(h.chainId)}
          columns={[
            {
              header: "Chain",
              cell: (h) => (
                <Link to="/explorer/chain/$chain" params={{ chain: String(h.chainId) }}>
                  Chain {h.chainId}
                </Link>
              ),
            },
            { header: "Height", numeric: true, cell: (h) => formatInteger(h.height) },
            {
              header: "Latest block",
              cell: (h) => (
                <Link
                  to="/explorer/chain/$chain/block/$hash"
                  params={{ chain: String(h.chainId), hash: h.hash }}
                  aria-label={`Block ${shortHash(h.hash)} on chain ${h.chainId}`}
                >
                  <code>{shortHash(h.hash)}</code>
                </Link>
              ),
            },
          ]}
        />
      )}
    </Panel>
  );
}
