/**
 * The one check of the mining area's numeric options (limits, timeouts,
 * thread counts): a positive safe integer, or MINING_BAD_ARGUMENT naming it.
 * @module
 */
import { MiningError, MiningErrorCode } from "./errors.ts";

/** `value` when it is a positive safe integer; throws MINING_BAD_ARGUMENT naming `field` otherwise. */
export function positiveInteger(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new MiningError(
      { code: MiningErrorCode.BadArgument, field, value: String(value) },
      `${field}: ${String(value)} is not a positive integer`,
    );
  }
  return value;
}
