/**
 * Chain graphs: which chains exist and which are adjacent (braided). A graph
 * is undirected, regular and connected; its all-pairs distances are computed
 * once when it is defined (breadth-first search; graphs have 10 or 20 chains).
 * @module
 */
import { ChainError, ChainErrorCode, chainInvariant } from "./errors.ts";

/** A chain graph. Chain ids and adjacency lists are sorted ascending. */
export type ChainGraph = {
  readonly name: string;
  readonly chains: readonly number[];
  readonly degree: number;
  readonly diameter: number;
  /** chain → adjacent chains, ascending (the order headers serialize adjacent hashes in). */
  readonly adjacency: ReadonlyMap<number, readonly number[]>;
  /** chain → chain → number of edges on a shortest path. */
  readonly distances: ReadonlyMap<number, ReadonlyMap<number, number>>;
};

/**
 * Defines a graph from an adjacency list and checks it: no self loops, no
 * duplicates, symmetric, regular, connected.
 * @throws {ChainError} CHAIN_INVARIANT when the adjacency list is not such a graph.
 */
export function defineChainGraph(
  name: string,
  adjacency: Readonly<Record<number, readonly number[]>>,
): ChainGraph {
  const adj = new Map<number, readonly number[]>();
  for (const [key, list] of Object.entries(adjacency)) {
    const chain = Number(key);
    const sorted = [...list].sort((a, b) => a - b);
    if (new Set(sorted).size !== sorted.length || sorted.includes(chain)) {
      chainInvariant(`graph ${name}`, `chain ${chain} has a duplicate or self edge`);
    }
    adj.set(chain, sorted);
  }
  const chains = [...adj.keys()].sort((a, b) => a - b);
  const sortedAdj = new Map(chains.map((c) => [c, adj.get(c) ?? []] as const));
  const degree = sortedAdj.get(chains[0] ?? 0)?.length ?? 0;
  for (const [c, list] of sortedAdj) {
    if (list.length !== degree) chainInvariant(`graph ${name}`, `not regular at chain ${c}`);
    for (const d of list) {
      if (!(sortedAdj.get(d) ?? []).includes(c)) {
        chainInvariant(`graph ${name}`, `edge ${c}-${d} is not symmetric`);
      }
    }
  }
  const distances = new Map<number, ReadonlyMap<number, number>>();
  let diameter = 0;
  for (const c of chains) {
    const dist = bfs(sortedAdj, c);
    if (dist.size !== chains.length) chainInvariant(`graph ${name}`, "not connected");
    for (const d of dist.values()) diameter = Math.max(diameter, d);
    distances.set(c, dist);
  }
  return { name, chains, degree, diameter, adjacency: sortedAdj, distances };
}

function bfs(adj: ReadonlyMap<number, readonly number[]>, from: number): Map<number, number> {
  const dist = new Map<number, number>([[from, 0]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const c = queue[i] as number;
    const dc = dist.get(c) as number;
    for (const n of adj.get(c) ?? []) {
      if (!dist.has(n)) {
        dist.set(n, dc + 1);
        queue.push(n);
      }
    }
  }
  return dist;
}

/** True when `chainId` is a chain of `graph`. */
export function graphHasChain(graph: ChainGraph, chainId: number): boolean {
  return graph.adjacency.has(chainId);
}

function requireChain(graph: ChainGraph, chainId: number, field: string): void {
  if (!graphHasChain(graph, chainId)) {
    throw new ChainError(
      { code: ChainErrorCode.BadChainId, field, chainId, height: -1 },
      `${field}: chain ${chainId} is not a chain of the ${graph.name} graph`,
    );
  }
}

/**
 * The chains adjacent to `chainId`, ascending.
 * @throws {ChainError} CHAIN_BAD_CHAIN_ID when the chain is not in the graph.
 */
export function adjacentChains(graph: ChainGraph, chainId: number): readonly number[] {
  requireChain(graph, chainId, "chainId");
  return graph.adjacency.get(chainId) as readonly number[];
}

/**
 * The number of edges on a shortest path between two chains.
 * @throws {ChainError} CHAIN_BAD_CHAIN_ID when a chain is not in the graph.
 */
export function chainDistance(graph: ChainGraph, from: number, to: number): number {
  requireChain(graph, from, "from");
  requireChain(graph, to, "to");
  return graph.distances.get(from)?.get(to) as number;
}

/**
 * A shortest path `[from, …, to]`. Among equally short paths it takes, at
 * each step, the smallest adjacent chain id that stays on a shortest path, so
 * the result is deterministic.
 * @throws {ChainError} CHAIN_BAD_CHAIN_ID when a chain is not in the graph.
 */
export function shortestChainPath(graph: ChainGraph, from: number, to: number): number[] {
  let remaining = chainDistance(graph, from, to);
  const path = [from];
  let at = from;
  while (remaining > 0) {
    const next = (graph.adjacency.get(at) ?? []).find(
      (n) => graph.distances.get(n)?.get(to) === remaining - 1,
    );
    if (next === undefined) chainInvariant("graph", "distance table is inconsistent");
    path.push(next);
    at = next;
    remaining--;
  }
  return path;
}
