/**
 * The node information object of `GET /info` (spec "Node information";
 * reference chainweb-api.md §8.6), keys in the reference's order plus the
 * spec's `nodeServiceDate`.
 *
 * - `nodeChains`: the chains of the network's latest graph, as strings.
 * - `nodeGraphHistory` and `nodeHistoricalChains`: [height, [[chain,
 *   [adjacent…]]…]] pairs, descending by height, as the reference emits them.
 * - `nodeLatestBehaviorHeight`: the height from which the network's rules no
 *   longer change (its last graph change; 0 when the graph never changes), as
 *   the reference's `latestBehaviorAt`.
 * - `nodeBlockDelay`: seconds, as the spec says (the reference emits µs).
 * - `nodeServiceDate`: the date by which this release should be replaced.
 * @module
 */
import { graphAtHeight } from "../chain/graphHistory.ts";
import { type NetworkVersion, versionGraphChanges } from "../chain/networkVersion.ts";

/** The API version in `{base_url}` and `nodeApiVersion`. */
export const API_VERSION = "0.0";

type GraphJson = [number, [number, number[]][]][];

export type NodeInfo = {
  readonly nodeVersion: string;
  readonly nodePackageVersion: string;
  readonly nodeApiVersion: string;
  readonly nodeChains: readonly string[];
  readonly nodeNumberOfChains: number;
  readonly nodeGraphHistory: GraphJson;
  readonly nodeLatestBehaviorHeight: number;
  readonly nodeGenesisHeights: readonly (readonly [string, number])[];
  readonly nodeHistoricalChains: GraphJson;
  readonly nodeBlockDelay: number;
  readonly nodeServiceDate: string;
};

function graphHistoryJson(version: NetworkVersion): GraphJson {
  return [...version.graphHistory]
    .reverse()
    .map((e) => [
      e.fromHeight,
      e.graph.chains.map((c) => [c, [...(e.graph.adjacency.get(c) ?? [])]] as [number, number[]]),
    ]);
}

export function nodeInfo(
  version: NetworkVersion,
  packageVersion: string,
  serviceDate: string,
): NodeInfo {
  const changes = versionGraphChanges(version);
  const latestBehaviorHeight = changes[changes.length - 1] ?? 0;
  const chains = graphAtHeight(version.graphHistory, latestBehaviorHeight).chains;
  return {
    nodeVersion: version.name,
    nodePackageVersion: packageVersion,
    nodeApiVersion: API_VERSION,
    nodeChains: chains.map(String),
    nodeNumberOfChains: chains.length,
    nodeGraphHistory: graphHistoryJson(version),
    nodeLatestBehaviorHeight: latestBehaviorHeight,
    nodeGenesisHeights: [...version.genesisHeights].map(([c, h]) => [String(c), h] as const),
    nodeHistoricalChains: graphHistoryJson(version),
    nodeBlockDelay: Math.round(version.blockDelay / 1_000_000),
    nodeServiceDate: serviceDate,
  };
}
