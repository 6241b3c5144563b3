/**
 * The lookups cut computations need from a block database: a header by
 * hash, the ancestor of a header at a height, and the children of a block.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { Hash32 } from "../encoding/hash32.ts";

export type HeaderLookups = {
  header(hash: Hash32): BlockHeader | undefined;
  /** The ancestor (or the header itself) at `height`; undefined above the header or below genesis. */
  ancestorAt(header: BlockHeader, height: number): BlockHeader | undefined;
  /** The stored children of a block. */
  children(hash: Hash32): readonly BlockHeader[];
};

/** True when `a` is `b` or one of its ancestors. */
export function isAncestorOrSelf(a: BlockHeader, b: BlockHeader, lookups: HeaderLookups): boolean {
  if (a.chainId !== b.chainId || a.height > b.height) return false;
  return lookups.ancestorAt(b, a.height)?.hash === a.hash;
}
