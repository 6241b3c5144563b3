/**
 * The height of every chain in the node's current cut, kept live by the header stream.
 * @module
 */
import type { StreamState } from "../../api/headerStream.ts";
import { formatInteger, shortHash } from "../../format/number.ts";
import type { LiveChainHeights } from "../../node/useChainHeights.ts";
import { ErrorNotice } from "../ErrorNotice.tsx";

const streamText: Record<StreamState, string> = {
  connecting: "Connecting to live updates…",
  open: "Live: new blocks appear as they are added.",
  reconnecting: "Live updates interrupted; reconnecting…",
  closed: "Live updates stopped.",
};

export function ChainTable({ live }: { readonly live: LiveChainHeights }) {
  const { heights, stream, error, reload } = live;
  return (
    <section aria-labelledby="chains-title" className="panel">
      <h2 id="chains-title">Chains</h2>
      <p role="status" className={`stream stream-${stream}`} data-testid="stream-state">
        {streamText[stream]}
      </p>
      {error === null ? null : (
        <ErrorNotice error={error} what="the chain heights" onRetry={reload} />
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
          <div className="table-scroll">
            <table className="chains">
              <caption>Height and latest block of each chain</caption>
              <thead>
                <tr>
                  <th scope="col">Chain</th>
                  <th scope="col">Height</th>
                  <th scope="col">Latest block</th>
                </tr>
              </thead>
              <tbody>
                {heights.heads.map((h) => (
                  <tr key={h.chainId} data-chain={h.chainId}>
                    <th scope="row">{h.chainId}</th>
                    <td className="num" data-testid={`height-${h.chainId}`}>
                      {formatInteger(h.height)}
                    </td>
                    <td>
                      <code title={h.hash}>{shortHash(h.hash)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
