/**
 * Difficulty epochs (reference chainweb-api.md §4, `effectiveWindow`,
 * `isLastInEpoch`, `epochStart`). The target changes only at epoch ends. An
 * epoch is `daWindow` blocks, except that heights ≤ daWindow use windows of
 * daWindow / 10 (ten extra adjustments while hash power settles).
 * @module
 */
import type { BlockHeader } from "./blockHeader.ts";
import { genesisHeightOf, type NetworkVersion } from "./networkVersion.ts";

/** The header fields difficulty adjustment reads. */
export type DaHeader = Pick<
  BlockHeader,
  "chainId" | "height" | "target" | "creationTime" | "epochStart"
>;

/** The epoch length that applies to a block at `height`. */
export function effectiveWindow(version: NetworkVersion, height: number): number {
  const w = version.daWindow;
  return height <= w ? Math.max(1, Math.floor(w / 10)) : w;
}

/** True when `header` is the last block of its epoch: (height + 1) mod window = 0. */
export function isLastInEpoch(
  version: NetworkVersion,
  header: Pick<BlockHeader, "height">,
): boolean {
  return (header.height + 1) % effectiveWindow(version, header.height) === 0;
}

/**
 * The epoch start of a new block whose parent is `parent`:
 * - the parent's creation time when the parent is block 1 and the version
 *   fakes the first epoch start (genesis times lie long before mining starts);
 * - the parent's creation time when the parent is the first mined block of a
 *   chain added by a graph change (its genesis time is the network's, old);
 * - the parent's creation time when the parent ends an epoch;
 * - otherwise the parent's epoch start.
 */
export function nextEpochStart(version: NetworkVersion, parent: DaHeader): number {
  if (version.fakeFirstEpochStart && parent.height === 1) return parent.creationTime;
  const genesis = genesisHeightOf(version, parent.chainId);
  if (parent.height > 1 && parent.height === genesis + 1) return parent.creationTime;
  if (isLastInEpoch(version, parent)) return parent.creationTime;
  return parent.epochStart;
}
