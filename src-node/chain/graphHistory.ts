/**
 * Graph history: the chain graph of a network as a function of block height.
 * "The graph at height h" is the entry with the largest start height ≤ h
 * (reference chainweb-api.md §2.3).
 * @module
 */
import type { ChainGraph } from "./chainGraph.ts";
import { graphHasChain } from "./chainGraph.ts";
import { ChainError, ChainErrorCode, chainInvariant } from "./errors.ts";

export type GraphHistoryEntry = { readonly fromHeight: number; readonly graph: ChainGraph };

/** Entries ascending by `fromHeight`; the first starts at 0. */
export type GraphHistory = readonly GraphHistoryEntry[];

/**
 * Checks a history: starts at 0, strictly ascending heights, and no chain
 * ever disappears (each graph's chains contain the previous graph's).
 * @throws {ChainError} CHAIN_INVARIANT otherwise.
 */
export function defineGraphHistory(entries: readonly GraphHistoryEntry[]): GraphHistory {
  if (entries.length === 0 || entries[0]?.fromHeight !== 0) {
    chainInvariant("graphHistory", "must start at height 0");
  }
  for (let i = 1; i < entries.length; i++) {
    const prev = entries[i - 1] as GraphHistoryEntry;
    const cur = entries[i] as GraphHistoryEntry;
    if (!(cur.fromHeight > prev.fromHeight) || !Number.isSafeInteger(cur.fromHeight)) {
      chainInvariant("graphHistory", "heights must be strictly ascending integers");
    }
    if (!prev.graph.chains.every((c) => graphHasChain(cur.graph, c))) {
      chainInvariant("graphHistory", `a chain disappears at height ${cur.fromHeight}`);
    }
  }
  return [...entries];
}

/**
 * The graph at `height`.
 * @throws {ChainError} CHAIN_HEIGHT_OUT_OF_RANGE for a negative or non-integer height.
 */
export function graphAtHeight(history: GraphHistory, height: number): ChainGraph {
  if (!Number.isSafeInteger(height) || height < 0) {
    throw new ChainError(
      { code: ChainErrorCode.HeightOutOfRange, field: "height", chainId: -1, height: `${height}` },
      `height: ${height} is not a block height`,
    );
  }
  let graph = (history[0] as GraphHistoryEntry).graph;
  for (const e of history) {
    if (e.fromHeight <= height) graph = e.graph;
    else break;
  }
  return graph;
}

/** The heights at which the graph changes (every entry but the first), ascending. */
export function graphChangeHeights(history: GraphHistory): number[] {
  return history.slice(1).map((e) => e.fromHeight);
}

/**
 * The height at which `chainId` first appears (its genesis height), or
 * undefined when no graph of the history has it.
 */
export function chainFirstHeight(history: GraphHistory, chainId: number): number | undefined {
  return history.find((e) => graphHasChain(e.graph, chainId))?.fromHeight;
}
