/**
 * Limiting a cut (reference `limitCut`, §5.2 `?maxheight`): a maximal cut
 * height N becomes the per-chain block height floor(N / number of chains in
 * the cut), and every head above it is replaced by its ancestor at that
 * height. Chains whose genesis lies above that height leave the cut.
 * @module
 */
import type { BlockHeader } from "./blockHeader.ts";
import { type Cut, cutOf } from "./cut.ts";
import { ChainError, ChainErrorCode } from "./errors.ts";
import { genesisHeightOf, type NetworkVersion } from "./networkVersion.ts";

/** Finds the ancestor of `header` at `height` (≤ its height), e.g. in the block store. */
export type AncestorLookup = (header: BlockHeader, height: number) => BlockHeader | undefined;

/**
 * The cut with every head at or below block height `maxBlockHeight`.
 * @throws {ChainError} CHAIN_INVALID_CUT when an ancestor cannot be found.
 */
export function limitCutToBlockHeight(
  cut: Cut,
  version: NetworkVersion,
  maxBlockHeight: number,
  ancestorAt: AncestorLookup,
): Cut {
  const heads: BlockHeader[] = [];
  for (const h of cut.values()) {
    if (h.height <= maxBlockHeight) {
      heads.push(h);
      continue;
    }
    if (genesisHeightOf(version, h.chainId) > maxBlockHeight) continue;
    const a = ancestorAt(h, maxBlockHeight);
    if (a === undefined || a.height !== maxBlockHeight || a.chainId !== h.chainId) {
      throw new ChainError(
        {
          code: ChainErrorCode.InvalidCut,
          field: "cut",
          reason: `no ancestor at height ${maxBlockHeight} on chain ${h.chainId}`,
        },
        `cut: no ancestor at height ${maxBlockHeight} of ${h.hash} on chain ${h.chainId}`,
      );
    }
    heads.push(a);
  }
  return cutOf(heads);
}

/** The cut limited by a maximal CUT height (the `/cut?maxheight=N` query). */
export function limitCut(
  cut: Cut,
  version: NetworkVersion,
  maxCutHeight: number,
  ancestorAt: AncestorLookup,
): Cut {
  return limitCutToBlockHeight(cut, version, Math.floor(maxCutHeight / cut.size), ancestorAt);
}
