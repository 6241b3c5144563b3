/**
 * Targets, difficulty and weight (reference chainweb-api.md §1.5): the
 * difficulty of a target is floor((2^256 − 1) / target); a block's weight is
 * its parent's weight plus its own difficulty; genesis weight is 0.
 * @module
 */
import { U256_MAX } from "../encoding/littleEndian.ts";
import { chainInvariant } from "./errors.ts";

/** The easiest target, 2^256 − 1 (every hash meets it). */
export const MAX_TARGET: bigint = U256_MAX;

/** floor((2^256 − 1) / target); the target must be in [1, 2^256 − 1]. */
export function targetToDifficulty(target: bigint): bigint {
  if (target <= 0n || target > MAX_TARGET) chainInvariant("target", `${target} is not a target`);
  return MAX_TARGET / target;
}

/** The weight of a block with `target` whose parent weighs `parentWeight`. */
export function childWeight(parentWeight: bigint, target: bigint): bigint {
  return parentWeight + targetToDifficulty(target);
}
