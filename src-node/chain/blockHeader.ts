/**
 * `BlockHeader`: the decoded form of the 318-byte block header (reference
 * chainweb-api.md §1.1), and the sizes and offsets of its binary layout.
 *
 * Representation choices, used everywhere in the node:
 * - 256-bit and 64-bit numbers (target, weight, nonce, feature flags) are `bigint`;
 * - times (creation time, epoch start) are `number`s of microseconds since the
 *   UNIX epoch, and heights and chain ids are `number`s; decoders refuse
 *   values above 2^53 − 1 (the year 2255 in µs) instead of losing precision;
 * - hashes are {@link Hash32} texts;
 * - the network is its version code, as in the binary form.
 * @module
 */
import type { Hash32 } from "../encoding/hash32.ts";

/** An adjacent parent: the hash of the block at the parent's height on an adjacent chain. */
export type AdjacentParent = { readonly chainId: number; readonly hash: Hash32 };

export type BlockHeader = {
  /** Fork state (u64): low 32 bits fork number, high 32 bits votes. 0 on Weft networks. */
  readonly featureFlags: bigint;
  /** µs since the UNIX epoch. */
  readonly creationTime: number;
  readonly parent: Hash32;
  /** Sorted by chain id ascending, one per chain adjacent in the graph at the parent's height. */
  readonly adjacents: readonly AdjacentParent[];
  /** Proof-of-work target, unsigned 256-bit. */
  readonly target: bigint;
  readonly payloadHash: Hash32;
  readonly chainId: number;
  /** Sum of the difficulties of this block and all its ancestors (genesis: 0). */
  readonly weight: bigint;
  readonly height: number;
  /** The network's version code (u32). */
  readonly versionCode: number;
  /** µs since the UNIX epoch: start of the difficulty epoch this block belongs to. */
  readonly epochStart: number;
  /** u64. */
  readonly nonce: bigint;
  /** The block hash: the Merkle root of the fields above (blockHash.ts). */
  readonly hash: Hash32;
};

/** Header fields without the hash (what a miner solves; what the hash is computed from). */
export type UnhashedBlockHeader = Omit<BlockHeader, "hash">;

/** Size of everything but the adjacent parents: 318 − 110 (reference `headerSizes`). */
export const HEADER_BASE_SIZE = 208;
/** Size of one adjacent parent entry: chain id (4) + hash (32). */
export const ADJACENT_ENTRY_SIZE = 36;
/** Size of a header of a degree-3 graph (every known graph). */
export const HEADER_SIZE = 318;
/** Size of a work header (a header without its trailing hash) of a degree-3 graph. */
export const WORK_HEADER_SIZE = 286;

/** Binary size of a header whose graph has the given degree: 208 + 36·degree + 2. */
export function headerSizeForDegree(degree: number): number {
  return HEADER_BASE_SIZE + ADJACENT_ENTRY_SIZE * degree + 2;
}

/** Byte offsets of the fields in a degree-3 header (and in its work header). */
export const HeaderOffset = {
  featureFlags: 0,
  creationTime: 8,
  parent: 16,
  adjacentCount: 48,
  adjacents: 50,
  target: 158,
  payloadHash: 190,
  chainId: 222,
  weight: 226,
  height: 258,
  versionCode: 266,
  epochStart: 270,
  nonce: 278,
  hash: 286,
} as const;
