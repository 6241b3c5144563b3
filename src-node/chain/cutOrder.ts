/**
 * The order in which cuts are preferred (fork choice, and which peer cut is
 * worth syncing towards): the heavier cut first; between cuts of equal
 * weight the higher one (Σ heights); between cuts of equal weight and height
 * the one whose heads' hashes, sorted, come later. The last two are only tie
 * breakers, but they make the order total, so every node holding the same
 * blocks prefers the same cut and two nodes never stay apart on two cuts of
 * equal weight (as chainweb-node's `prioritizeHeavier`: weight, then height,
 * then the sorted heads).
 * @module
 */
import { compareHash32, type Hash32 } from "../encoding/hash32.ts";
import { type Cut, cutWeight } from "./cut.ts";

/** What the order reads of a cut: its weight and its heads' heights and hashes. */
export type OrderedCut = {
  readonly weight: bigint;
  readonly heads: Iterable<{ readonly height: number; readonly hash: Hash32 }>;
};

/** A cut of this node as the order reads it. */
export function orderOf(cut: Cut): OrderedCut {
  return { weight: cutWeight(cut), heads: cut.values() };
}

/** `> 0` when `a` is preferred to `b`, `< 0` when `b` is, 0 for the same heads. */
export function compareCuts(a: OrderedCut, b: OrderedCut): number {
  if (a.weight !== b.weight) return a.weight > b.weight ? 1 : -1;
  const ha = [...a.heads];
  const hb = [...b.heads];
  const height = (hs: typeof ha) => hs.reduce((s, h) => s + h.height, 0);
  const dh = height(ha) - height(hb);
  if (dh !== 0) return dh;
  const sa = ha.map((h) => h.hash).sort(compareHash32);
  const sb = hb.map((h) => h.hash).sort(compareHash32);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const c = compareHash32(sa[i] as Hash32, sb[i] as Hash32);
    if (c !== 0) return c;
  }
  return sa.length - sb.length;
}
