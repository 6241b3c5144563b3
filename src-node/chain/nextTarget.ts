/**
 * The target of a new block (reference chainweb-api.md §4, current rule,
 * checked against real mainnet blocks). Within an epoch a block keeps its
 * parent's target. When the parent P ends its epoch, each of P and its
 * adjacent parents A₁…Aₙ (all at P's height) proposes
 *
 *   t_X = min(maxTarget, ceil((X.creationTime − X.epochStart) · X.target / (w · blockDelay)))
 *
 * in exact integer arithmetic (w = P's effective window), and the new target
 * is floor(Σ t_X / (n + 1)). Averaging over the neighbours keeps the chains'
 * difficulties in lock-step. There is no clamp on the change per epoch.
 * @module
 */
import { MAX_TARGET } from "./difficulty.ts";
import { type DaHeader, effectiveWindow, isLastInEpoch } from "./epoch.ts";
import type { NetworkVersion } from "./networkVersion.ts";

/**
 * The target of the child of `parent` whose adjacent parents are `adjacentParents`.
 * A result of 0 (possible only when every proposer has a zero-length epoch,
 * e.g. genesis headers) is raised to 1, the hardest valid target.
 */
export function nextTarget(
  version: NetworkVersion,
  parent: DaHeader,
  adjacentParents: readonly DaHeader[],
): bigint {
  if (version.targetRule === "fixed" || !isLastInEpoch(version, parent)) return parent.target;
  const expected = BigInt(effectiveWindow(version, parent.height)) * BigInt(version.blockDelay);
  let sum = 0n;
  for (const x of [parent, ...adjacentParents]) {
    const elapsed = BigInt(Math.max(0, x.creationTime - x.epochStart));
    const proposed = (elapsed * x.target + expected - 1n) / expected;
    sum += proposed < MAX_TARGET ? proposed : MAX_TARGET;
  }
  const target = sum / BigInt(adjacentParents.length + 1);
  return target > 0n ? target : 1n;
}
