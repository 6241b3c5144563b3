/**
 * The braid picture's plain logic: from the chain graph, the live heads and the headers
 * loaded near them, a grid of the newest heights (rows, newest first) by chain (columns),
 * one cell per block on each chain's best branch (walked from its head through parents, so
 * a reorganisation replaces the branch that left), and the links to draw: each block to
 * its parent and to the blocks of adjacent chains it references. Links whose other end is
 * outside the window are left out.
 * @module
 */
import type { AdjacentParent, ChainGraph } from "./wire/headers.ts";

export type BraidBlock = {
  readonly chainId: number;
  readonly height: number;
  readonly hash: string;
  readonly parent: string;
  readonly adjacents: readonly AdjacentParent[];
};

export type BraidHead = {
  readonly chainId: number;
  readonly height: number;
  readonly hash: string;
};

export type BraidCell = {
  readonly chainId: number;
  readonly height: number;
  readonly hash: string;
  /** Index into `columns`. */
  readonly column: number;
  /** Index into `heights` (0 = newest). */
  readonly row: number;
};

export type BraidLink = {
  readonly kind: "parent" | "adjacent";
  /** The referencing (newer) block. */
  readonly from: BraidCell;
  /** The referenced block. */
  readonly to: BraidCell;
};

export type BraidLayout = {
  /** Chain ids, one per column, ascending. */
  readonly columns: readonly number[];
  /** Block heights, one per row, newest first. */
  readonly heights: readonly number[];
  readonly cells: readonly BraidCell[];
  readonly links: readonly BraidLink[];
  /** Chains whose head is known but none of whose blocks in the window are loaded yet. */
  readonly waiting: readonly number[];
};

/**
 * Lays out the newest `rows` heights. `blocks` may hold blocks of any branch and any
 * height (orphans and old blocks are ignored).
 */
export function braidLayout(
  graph: ChainGraph,
  heads: readonly BraidHead[],
  blocks: Iterable<BraidBlock>,
  rows: number,
): BraidLayout {
  const columns = [...new Set([...graph.keys(), ...heads.map((h) => h.chainId)])].sort(
    (a, b) => a - b,
  );
  const columnOf = new Map(columns.map((c, i) => [c, i]));
  const top = heads.reduce((m, h) => Math.max(m, h.height), -1);
  if (top < 0 || rows < 1) return { columns, heights: [], cells: [], links: [], waiting: [] };
  const bottom = Math.max(0, top - rows + 1);
  const heights = Array.from({ length: top - bottom + 1 }, (_, i) => top - i);

  const byHash = new Map<string, BraidBlock>();
  const highest = new Map<number, BraidBlock>();
  for (const b of blocks) {
    byHash.set(b.hash, b);
    const h = highest.get(b.chainId);
    if (h === undefined || b.height > h.height) highest.set(b.chainId, b);
  }

  const cells: BraidCell[] = [];
  const cellOf = new Map<string, BraidCell>();
  const waiting: number[] = [];
  const onBest: BraidBlock[] = [];
  for (const head of [...heads].sort((a, b) => a.chainId - b.chainId)) {
    const column = columnOf.get(head.chainId);
    if (column === undefined) continue;
    // The head itself, or (until it is loaded) the newest loaded block below it.
    let b: BraidBlock | undefined = byHash.get(head.hash);
    if (b === undefined) {
      const h = highest.get(head.chainId);
      b = h !== undefined && h.height <= head.height ? h : undefined;
    }
    if (b === undefined || b.height < bottom) waiting.push(head.chainId);
    while (b !== undefined && b.chainId === head.chainId && b.height >= bottom) {
      const cell: BraidCell = {
        chainId: b.chainId,
        height: b.height,
        hash: b.hash,
        column,
        row: top - b.height,
      };
      cells.push(cell);
      cellOf.set(b.hash, cell);
      onBest.push(b);
      if (b.height === 0) break;
      b = byHash.get(b.parent);
    }
  }

  const links: BraidLink[] = [];
  for (const b of onBest) {
    const from = cellOf.get(b.hash);
    if (from === undefined) continue;
    const parent = cellOf.get(b.parent);
    if (parent !== undefined) links.push({ kind: "parent", from, to: parent });
    const neighbours = graph.get(b.chainId) ?? [];
    for (const a of b.adjacents) {
      const to = cellOf.get(a.hash);
      if (to !== undefined && neighbours.includes(a.chainId)) {
        links.push({ kind: "adjacent", from, to });
      }
    }
  }
  cells.sort((a, b) => a.row - b.row || a.column - b.column);
  return { columns, heights, cells, links, waiting };
}

/** The lowest height worth loading for a chain whose head is at `headHeight`. */
export function braidLoadFrom(headHeight: number, rows: number): number {
  // One row more than shown, so the bottom row's links to its parents can be drawn.
  return Math.max(0, headHeight - rows);
}
