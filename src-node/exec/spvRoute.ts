/**
 * Where an SPV proof can end (reference chainweb-api.md §9.1): the lowest
 * header of the target chain whose history holds the source block, from
 * the network's graphs alone. A header at height k + 1 on chain c has in its
 * history the parent (c, k) and the adjacent parents (a, k) of the graph its
 * header uses; a genesis header has neither. So, level by level from the
 * source block up, the set of chains whose header at that height has the
 * source block in its history grows along the graph; the first level that
 * holds the target chain is the target height (source height + graph
 * distance, or more across a graph change).
 * @module
 */
import {
  chainsAtHeight,
  headerAdjacentChains,
  isGenesisHeight,
  type NetworkVersion,
} from "../chain/networkVersion.ts";

/** Levels above the source block searched before a target counts as unreachable. */
export const MAX_SPV_LEVELS = 64;

export type SpvRoute = {
  readonly targetHeight: number;
  /**
   * `reach[i]`: the chains whose header at height sourceHeight + i has the
   * source block in its history (`reach[0]` is the source chain alone).
   */
  readonly reach: readonly ReadonlySet<number>[];
};

/**
 * The target height of a proof from the block at `sourceHeight` on
 * `sourceChain` to `targetChain`, or undefined when no header of the target
 * chain within {@link MAX_SPV_LEVELS} levels has the source block in its history.
 */
export function spvRoute(
  version: NetworkVersion,
  sourceChain: number,
  sourceHeight: number,
  targetChain: number,
): SpvRoute | undefined {
  let reach: ReadonlySet<number> = new Set([sourceChain]);
  const levels: ReadonlySet<number>[] = [reach];
  for (let k = sourceHeight; k - sourceHeight < MAX_SPV_LEVELS; k++) {
    if (reach.has(targetChain)) return { targetHeight: k, reach: levels };
    const next = new Set<number>();
    for (const c of chainsAtHeight(version, k + 1)) {
      if (isGenesisHeight(version, c, k + 1)) continue;
      if (reach.has(c) || headerAdjacentChains(version, c, k + 1).some((a) => reach.has(a)))
        next.add(c);
    }
    reach = next;
    levels.push(reach);
  }
  return undefined;
}
