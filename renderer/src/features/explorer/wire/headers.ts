/**
 * Block headers as the node sends them in object form (`Accept:
 * application/json;blockheader-encoding=object`; docs/api.md "Header encodings"), pages of
 * them, and the network's chain graph from `/info` (`nodeGraphHistory`).
 * @module
 */
import {
  array,
  blockHash,
  chainId,
  type Decoded,
  decode,
  natural,
  record,
  reject,
  string,
} from "../../../api/decode.ts";

/** The Accept value that makes header endpoints answer objects. */
export const HEADER_OBJECT_ACCEPT = "application/json;blockheader-encoding=object";

export type AdjacentParent = { readonly chainId: number; readonly hash: string };

export type BlockHeader = {
  readonly chainId: number;
  readonly height: number;
  readonly hash: string;
  readonly parent: string;
  /** Sorted by chain id. */
  readonly adjacents: readonly AdjacentParent[];
  /** Microseconds since the UNIX epoch. */
  readonly creationTime: number;
  readonly epochStart: number;
  readonly nonce: string;
  readonly target: string;
  readonly weight: string;
  readonly payloadHash: string;
  readonly featureFlags: number;
};

/** Reads one header object at `path`. */
export function headerAt(x: unknown, path: string): BlockHeader {
  const o = record(x, path);
  const adj = record(o.adjacents, `${path}.adjacents`);
  return {
    chainId: chainId(o.chainId, `${path}.chainId`),
    height: natural(o.height, `${path}.height`),
    hash: blockHash(o.hash, `${path}.hash`),
    parent: blockHash(o.parent, `${path}.parent`),
    adjacents: Object.entries(adj)
      .map(([k, v]) => ({
        chainId: chainId(k, `${path}.adjacents key ${k}`),
        hash: blockHash(v, `${path}.adjacents.${k}`),
      }))
      .sort((a, b) => a.chainId - b.chainId),
    creationTime: natural(o.creationTime, `${path}.creationTime`),
    epochStart: natural(o.epochStart, `${path}.epochStart`),
    nonce: string(o.nonce, `${path}.nonce`),
    target: string(o.target, `${path}.target`),
    weight: string(o.weight, `${path}.weight`),
    payloadHash: blockHash(o.payloadHash, `${path}.payloadHash`),
    featureFlags: natural(o.featureFlags, `${path}.featureFlags`),
  };
}

export function parseHeader(raw: unknown): Decoded<BlockHeader> {
  return decode(raw, (x) => headerAt(x, "header"));
}

/** A result page (docs/api.md "Pages"): items and the cursor of the next page. */
export type Page<T> = { readonly items: readonly T[]; readonly next: string | null };

/** Reads a page whose items `item` reads. */
export function pageOf<T>(raw: unknown, item: (x: unknown, path: string) => T): Page<T> {
  const o = record(raw, "page");
  const next = o.next === null ? null : string(o.next, "next");
  return { items: array(o.items, "items").map((x, i) => item(x, `items[${i}]`)), next };
}

export function parseHeaderPage(raw: unknown): Decoded<Page<BlockHeader>> {
  return decode(raw, (x) => pageOf(x, headerAt));
}

/** Chain id → its adjacent chains. */
export type ChainGraph = ReadonlyMap<number, readonly number[]>;

/**
 * The network's latest chain graph from `/info`: `nodeGraphHistory` is `[[height, [[chain,
 * [adjacent…]]…]]…]`; the entry of the greatest height is the graph in force now.
 */
export function parseInfoGraph(raw: unknown): Decoded<ChainGraph> {
  return decode(raw, (x) => {
    const o = record(x, "info");
    const history = array(o.nodeGraphHistory, "nodeGraphHistory");
    let bestHeight = -1;
    let bestGraph: unknown;
    for (const [i, entry] of history.entries()) {
      const pair = array(entry, `nodeGraphHistory[${i}]`);
      const height = natural(pair[0], `nodeGraphHistory[${i}][0]`);
      if (height > bestHeight) {
        bestHeight = height;
        bestGraph = pair[1];
      }
    }
    const graph = new Map<number, number[]>();
    if (bestHeight < 0) {
      // No history: the node's chains, without links.
      for (const [i, c] of array(o.nodeChains, "nodeChains").entries()) {
        graph.set(chainId(c, `nodeChains[${i}]`), []);
      }
      return graph;
    }
    for (const [i, entry] of array(bestGraph, "graph").entries()) {
      const p = `graph[${i}]`;
      const pair = array(entry, p);
      const id = chainId(pair[0], `${p}[0]`);
      if (graph.has(id)) reject(p, "each chain once");
      const adjacent = array(pair[1], `${p}[1]`).map((a, j) => chainId(a, `${p}[1][${j}]`));
      graph.set(
        id,
        adjacent.sort((a, b) => a - b),
      );
    }
    return graph;
  });
}
