/**
 * Fork choice: the cut a new block would make with the current cut, when the
 * block does not simply extend it (a block on a side branch, or one that
 * builds on side blocks).
 *
 * A cut is the frontier of a set of blocks closed under parents and adjacent
 * parents (the "past"). The cut with block B keeps all of B's past and as
 * much of the current cut's past as agrees with it:
 * 1. B's past heads: per chain, the highest block reachable from B along
 *    adjacent-parent links (each link is one height lower, so a breadth-first
 *    walk meets each chain first at its highest block).
 * 2. Each chain starts at the current head when that head descends from B's
 *    past head there (it may be rewound down to it, no further), otherwise at
 *    B's past head (fixed).
 * 3. A rewindable head that is more than one above a neighbour moves down to
 *    one above it; one whose adjacent-parent link disagrees with the
 *    neighbour's head moves to its parent; repeat until nothing moves.
 * 4. Chains outside the graph at the cut's minimum height leave; chains whose
 *    genesis is reached join (reference chainweb-api.md §5.1); the result must
 *    be braided, else there is no such cut.
 * 5. The cut grows with stored blocks that extend it (side blocks that came
 *    earlier but could not join the old cut), heaviest child first, until
 *    none does.
 *
 * The node switches to the result when it is preferred (blockDb.ts,
 * chain/cutOrder.ts: heavier, or of equal weight and first by the tie-break).
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { type Cut, cutMinHeight, cutOf, withJoinedChains } from "../chain/cut.ts";
import { cutBraidingProblems } from "../chain/cutBraiding.ts";
import { extendCut } from "../chain/cutExtension.ts";
import { ChainErrorCode } from "../chain/errors.ts";
import {
  chainsAtHeight,
  genesisHeightOf,
  isGenesisHeight,
  type NetworkVersion,
} from "../chain/networkVersion.ts";
import { compareHash32 } from "../encoding/hash32.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { type HeaderLookups, isAncestorOrSelf } from "./headerLookups.ts";

/** Per chain, the highest block in the past of `block` (the block itself on its chain). */
export function pastHeads(block: BlockHeader, lookups: HeaderLookups): Map<number, BlockHeader> {
  const heads = new Map<number, BlockHeader>([[block.chainId, block]]);
  let frontier = [block];
  while (frontier.length > 0) {
    const next: BlockHeader[] = [];
    for (const f of frontier) {
      for (const a of f.adjacents) {
        if (heads.has(a.chainId)) continue;
        // Genesis headers link to genesis parent hashes, which are no blocks.
        const x = lookups.header(a.hash);
        if (x === undefined) continue;
        heads.set(a.chainId, x);
        next.push(x);
      }
    }
    frontier = next;
  }
  return heads;
}

/**
 * The height a rewindable head must move down to so it agrees with its
 * neighbours' heads (one above the lowest neighbour; one below itself when a
 * link disagrees), or undefined when it agrees.
 */
function rewindTarget(
  version: NetworkVersion,
  h: BlockHeader,
  heads: ReadonlyMap<number, BlockHeader>,
): number | undefined {
  const genesis = isGenesisHeight(version, h.chainId, h.height);
  let target: number | undefined;
  for (const a of h.adjacents) {
    const other = heads.get(a.chainId);
    if (other === undefined) continue;
    let t: number | undefined;
    if (other.height < h.height - 1) t = other.height + 1;
    else if (genesis) t = undefined;
    else if (other.height === h.height - 1 && a.hash !== other.hash) t = h.height - 1;
    else if (other.height === h.height && a.hash !== other.parent) t = h.height - 1;
    if (t !== undefined) target = target === undefined ? t : Math.min(target, t);
  }
  return target;
}

/**
 * The cut made of `block` and the current cut (see the module comment), or
 * undefined when no braided cut contains both the block's past and a
 * consistent part of the current cut.
 */
export function cutWithBlock(
  current: Cut,
  block: BlockHeader,
  version: NetworkVersion,
  genesis: ReadonlyMap<number, BlockHeader>,
  lookups: HeaderLookups,
): Cut | undefined {
  const past = pastHeads(block, lookups);
  const heads = new Map<number, BlockHeader>(current);
  /** chain → the lowest height its (rewindable) head may move down to. */
  const floor = new Map<number, number>();
  const rewindable = new Set<number>(current.keys());
  for (const [c, p] of past) {
    const cur = current.get(c);
    if (cur !== undefined && isAncestorOrSelf(p, cur, lookups)) {
      floor.set(c, p.height);
      if (cur.height === p.height) rewindable.delete(c);
    } else {
      heads.set(c, p);
      rewindable.delete(c);
    }
  }

  for (let moved = true; moved; ) {
    moved = false;
    for (const c of [...rewindable]) {
      const h = heads.get(c) as BlockHeader;
      const target = rewindTarget(version, h, heads);
      if (target === undefined) continue;
      const min = floor.get(c);
      // Jump, rather than step, so a head far above the fork point costs one lookup.
      const lower = min !== undefined && target < min ? undefined : lookups.ancestorAt(h, target);
      if (lower === undefined) return undefined;
      heads.set(c, lower);
      if (lower.height === min) rewindable.delete(c);
      moved = true;
    }
  }

  let cut = cutOf([...heads.values()]);
  const inGraph = new Set(chainsAtHeight(version, cutMinHeight(cut)));
  cut = cutOf([...cut.values()].filter((h) => inGraph.has(h.chainId)));
  cut = withJoinedChains(cut, version, genesis);
  if (cutBraidingProblems(cut, version).length > 0) return undefined;
  return growCut(cut, version, genesis, lookups);
}

/** The cut extended by stored blocks, one at a time, while any extends it (step 5). */
export function growCut(
  cut: Cut,
  version: NetworkVersion,
  genesis: ReadonlyMap<number, BlockHeader>,
  lookups: HeaderLookups,
): Cut {
  let current = cut;
  for (let grown = true; grown; ) {
    grown = false;
    for (const chainId of [...current.keys()]) {
      const head = current.get(chainId) as BlockHeader;
      const children = [...lookups.children(head.hash)].sort((a, b) =>
        a.weight === b.weight ? compareHash32(a.hash, b.hash) : a.weight > b.weight ? -1 : 1,
      );
      for (const child of children) {
        const next = extended(current, child, version, genesis);
        if (next === undefined) continue;
        current = next;
        grown = true;
        break;
      }
    }
  }
  return current;
}

/** The cut with `header` as its chain's new head, if that is a braided extension. */
export function extended(
  cut: Cut,
  header: BlockHeader,
  version: NetworkVersion,
  genesis: ReadonlyMap<number, BlockHeader>,
): Cut | undefined {
  let next: Cut;
  try {
    next = withJoinedChains(extendCut(cut, header), version, genesis);
  } catch (e) {
    if (isNodeError(e, ChainErrorCode.NotMonotonic, ChainErrorCode.InvalidCut)) return undefined;
    throw e;
  }
  return cutBraidingProblems(next, version).length === 0 ? next : undefined;
}

/**
 * The blocks in the past of `next` that are not in the past of `previous`,
 * per chain, ascending by height; `keep` is the highest height on each chain
 * where both cuts' chains still agree (the fork point; the new head's height
 * when the chain only moved down; −1 for a chain that joined).
 */
export function cutDifference(
  previous: Cut,
  next: Cut,
  version: NetworkVersion,
  lookups: HeaderLookups,
): Map<number, { readonly keep: number; readonly added: BlockHeader[] }> {
  const out = new Map<number, { keep: number; added: BlockHeader[] }>();
  for (const [c, head] of next) {
    const old = previous.get(c);
    if (old?.hash === head.hash) continue;
    const added: BlockHeader[] = [];
    let x: BlockHeader | undefined = head;
    while (x !== undefined && !(old !== undefined && isAncestorOrSelf(x, old, lookups))) {
      added.push(x);
      x = lookups.header(x.parent);
    }
    added.reverse();
    out.set(c, { keep: x === undefined ? -1 : x.height, added });
  }
  for (const [c] of previous) {
    if (!next.has(c)) out.set(c, { keep: genesisHeightOf(version, c), added: [] });
  }
  return out;
}
