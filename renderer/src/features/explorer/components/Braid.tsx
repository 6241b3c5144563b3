/**
 * The braid: every chain of the network side by side (columns), its newest blocks stacked
 * by height (rows, newest on top), lines from each block to its parent and to the blocks
 * of adjacent chains it references. It follows the live cut: a new block on a chain
 * refreshes that chain's headers, so blocks appear without a reload. Each block is a link
 * to its page; pointing at or focusing one brings out its links.
 * @module
 */
import { useQueries, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { type CSSProperties, useState } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { formatInteger } from "../../../format/number.ts";
import { useLiveChain, useServices } from "../../../services/services.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { BRAID_ROWS, braidHeadersQuery, graphQuery } from "../api.ts";
import { type BraidLink, braidLayout } from "../braid.ts";

function linkClass(link: BraidLink, active: string | null): string {
  const on = active !== null && (link.from.hash === active || link.to.hash === active);
  const dim = active !== null && !on;
  return `braid-link braid-link-${link.kind}${on ? " on" : ""}${dim ? " dim" : ""}`;
}

export function Braid() {
  const { client, chain } = useServices();
  const live = useLiveChain();
  const graph = useQuery(graphQuery(client));
  const chainIds = live.heights.heads.map((h) => h.chainId);
  const headers = useQueries({
    queries: chainIds.map((c) => braidHeadersQuery(client, chain, c)),
  });
  const [active, setActive] = useState<string | null>(null);

  if (graph.isError) {
    return (
      <ErrorNotice
        error={clientErrorOf(graph.error)}
        what="the chain graph"
        onRetry={() => void graph.refetch()}
      />
    );
  }
  if (!live.heights.loaded || graph.data === undefined) {
    return <p className="state">Loading the braid…</p>;
  }
  const failed = headers.find((q) => q.isError && q.data === undefined);
  const layout = braidLayout(
    graph.data,
    live.heights.heads,
    headers.flatMap((q) => q.data ?? []),
    BRAID_ROWS,
  );
  const cols = layout.columns.length;
  const rows = layout.heights.length;
  const style = { "--braid-cols": cols, "--braid-rows": rows } as CSSProperties;
  const degree = Math.max(0, ...[...graph.data.values()].map((a) => a.length));
  return (
    // A picture of twenty columns cannot fold: on a narrow window its frame alone scrolls
    // sideways (the layout check, test/e2e/support/narrowLayout.ts, allows it by this mark).
    <figure className="braid" aria-labelledby="braid-caption" data-scrolls-sideways>
      <figcaption id="braid-caption" className="braid-caption">
        The newest {rows} heights of all {cols} chains. Each block is joined to its parent below it
        and to the {degree === 0 ? "" : `${degree} `}blocks of adjacent chains it references.{" "}
        <span className={`stream stream-${live.stream}`}>
          {live.stream === "open"
            ? "Live: new blocks appear as they are added."
            : "Reconnecting to the node…"}
        </span>
      </figcaption>
      {failed?.error == null ? null : (
        <ErrorNotice
          error={clientErrorOf(failed.error)}
          what="some chains' blocks"
          onRetry={() => void failed.refetch()}
        />
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable with the keyboard */}
      <section className="braid-scroll" aria-label="Braid of all chains" tabIndex={0}>
        <div className="braid-grid" style={style} data-testid="braid" data-chains={cols}>
          <span className="braid-corner" aria-hidden="true">
            Height
          </span>
          {layout.columns.map((c, i) => (
            <Link
              key={c}
              to="/explorer/chain/$chain"
              params={{ chain: String(c) }}
              className="braid-chain"
              style={{ gridColumn: i + 2 }}
              aria-label={`Open chain ${c}`}
            >
              {c}
            </Link>
          ))}
          {layout.heights.map((h, i) => (
            <span key={h} className="braid-height" style={{ gridRow: i + 2 }}>
              {formatInteger(h)}
            </span>
          ))}
          <svg
            className="braid-links"
            style={{
              gridRow: `2 / span ${Math.max(rows, 1)}`,
              gridColumn: `2 / span ${Math.max(cols, 1)}`,
            }}
            viewBox={`0 0 ${Math.max(cols, 1)} ${Math.max(rows, 1)}`}
            preserveAspectRatio="none"
            aria-hidden="true"
          >
            {layout.links.map((l) => (
              <line
                key={`${l.from.hash}-${l.to.hash}`}
                x1={l.from.column + 0.5}
                y1={l.from.row + 0.5}
                x2={l.to.column + 0.5}
                y2={l.to.row + 0.5}
                className={linkClass(l, active)}
                vectorEffect="non-scaling-stroke"
              />
            ))}
          </svg>
          {layout.cells.map((c) => (
            <Link
              key={c.hash}
              to="/explorer/chain/$chain/block/$hash"
              params={{ chain: String(c.chainId), hash: c.hash }}
              className={`braid-block${c.row === 0 ? " newest" : ""}${active === c.hash ? " on" : ""}`}
              style={{ gridRow: c.row + 2, gridColumn: c.column + 2 }}
              aria-label={`Block ${formatInteger(c.height)} on chain ${c.chainId}`}
              title={`Chain ${c.chainId}, height ${formatInteger(c.height)}\n${c.hash}`}
              data-testid={`braid-block-${c.chainId}-${c.height}`}
              onPointerEnter={() => setActive(c.hash)}
              onPointerLeave={() => setActive(null)}
              onFocus={() => setActive(c.hash)}
              onBlur={() => setActive(null)}
            >
              <span className="braid-block-mark" aria-hidden="true" />
            </Link>
          ))}
        </div>
      </section>
      {layout.waiting.length === 0 ? null : (
        <p className="hint">
          Loading the blocks of chain{layout.waiting.length > 1 ? "s" : ""}{" "}
          {layout.waiting.join(", ")}…
        </p>
      )}
    </figure>
  );
}
