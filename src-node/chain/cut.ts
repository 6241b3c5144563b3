/**
 * Cuts (reference chainweb-api.md §5.1): one head header per chain. Cut
 * height is the sum of the heads' heights, cut weight the sum of their
 * weights (the node prefers the heaviest cut). A cut holds the chains of the
 * graph at its minimum height; chains added by a graph change join (with
 * their genesis headers) once every old chain has reached the change height.
 *
 * The cut id is SHA-512/256 of the 32-byte head hashes concatenated in
 * ascending chain order. The reference orders them by an internal hash map,
 * which cannot be reproduced; treat the id as opaque.
 * @module
 */

import { sha512t256 } from "../crypto/merkle.ts";
import { type Hash32, hash32Bytes, hash32FromBytes } from "../encoding/hash32.ts";
import type { BlockHeader } from "./blockHeader.ts";
import { ChainError, ChainErrorCode } from "./errors.ts";
import { chainsAtHeight, type NetworkVersion } from "./networkVersion.ts";

/** chain id → head header. */
export type Cut = ReadonlyMap<number, BlockHeader>;

function sortedHeads(cut: Cut): BlockHeader[] {
  return [...cut.values()].sort((a, b) => a.chainId - b.chainId);
}

/** Σ heights of the heads. */
export function cutHeight(cut: Cut): number {
  let s = 0;
  for (const h of cut.values()) s += h.height;
  return s;
}

/** Σ weights of the heads. */
export function cutWeight(cut: Cut): bigint {
  let s = 0n;
  for (const h of cut.values()) s += h.weight;
  return s;
}

/** The lowest head height. */
export function cutMinHeight(cut: Cut): number {
  return Math.min(...[...cut.values()].map((h) => h.height));
}

/** The highest head height. */
export function cutMaxHeight(cut: Cut): number {
  return Math.max(...[...cut.values()].map((h) => h.height));
}

/** The opaque cut id (see the module comment). */
export function cutId(cut: Cut): Hash32 {
  return hash32FromBytes(sha512t256(...sortedHeads(cut).map((h) => hash32Bytes(h.hash))));
}

/** A cut from head headers (one per chain). */
export function cutOf(heads: readonly BlockHeader[]): Cut {
  const cut = new Map<number, BlockHeader>();
  for (const h of heads) {
    if (cut.has(h.chainId)) {
      throw new ChainError(
        {
          code: ChainErrorCode.InvalidCut,
          field: "cut",
          reason: `two heads on chain ${h.chainId}`,
        },
        `cut: two heads on chain ${h.chainId}`,
      );
    }
    cut.set(h.chainId, h);
  }
  return new Map([...cut].sort((a, b) => a[0] - b[0]));
}

/** The first cut of a network: the genesis headers of the chains that exist at height 0. */
export function genesisCut(
  version: NetworkVersion,
  genesisHeaders: ReadonlyMap<number, BlockHeader>,
): Cut {
  return cutOf(chainsAtHeight(version, 0).map((c) => genesisHeaders.get(c) as BlockHeader));
}

/**
 * The cut with the genesis headers of chains that have joined: chains absent
 * from the cut whose genesis height is ≤ the cut's minimum height. Returns the
 * same cut when none have.
 */
export function withJoinedChains(
  cut: Cut,
  version: NetworkVersion,
  genesisHeaders: ReadonlyMap<number, BlockHeader>,
): Cut {
  const min = cutMinHeight(cut);
  const joining = chainsAtHeight(version, min).filter((c) => !cut.has(c));
  if (joining.length === 0) return cut;
  return cutOf([...cut.values(), ...joining.map((c) => genesisHeaders.get(c) as BlockHeader)]);
}
