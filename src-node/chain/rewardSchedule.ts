/**
 * Miner reward schedules. A schedule is rows of (height bound, reward): a
 * block at height h earns the reward of the first row whose bound is ≥ h,
 * divided by the number of chains in the graph at h (reference
 * chainweb-api.md §6.4). Past the last row the reward is zero.
 *
 * Rewards are decimal strings (the contract language's decimals); division is
 * done in bigint with 18 fractional digits, rounding down.
 * @module
 */
import { chainInvariant } from "./errors.ts";

/** `reward` (decimal, for all chains together) applies to heights ≤ `untilHeight`. */
export type RewardRow = { readonly untilHeight: number; readonly reward: string };
export type RewardSchedule = readonly RewardRow[];

const HEIGHTS_PER_YEAR = 1_051_200; // 365 days of 30-second blocks

/**
 * Weft's own schedule, shared by all its networks: 24 per height in the first
 * year, 3 less each following year, nothing after eight years.
 */
export const weftRewardSchedule: RewardSchedule = [24, 21, 18, 15, 12, 9, 6, 3].map(
  (reward, i) => ({ untilHeight: (i + 1) * HEIGHTS_PER_YEAR, reward: `${reward}.0` }),
);

const SCALE_DIGITS = 18;
const SCALE = 10n ** BigInt(SCALE_DIGITS);
const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

function parseDecimal(text: string): bigint {
  const m = DECIMAL.exec(text);
  const frac = m?.[2] ?? "";
  if (m === null || frac.length > SCALE_DIGITS) {
    chainInvariant("rewardSchedule", `reward ${text} is not a decimal with ≤ 18 places`);
  }
  return BigInt(m[1] as string) * SCALE + BigInt(frac.padEnd(SCALE_DIGITS, "0"));
}

function formatDecimal(scaled: bigint): string {
  const whole = scaled / SCALE;
  const frac = (scaled % SCALE).toString().padStart(SCALE_DIGITS, "0").replace(/0+$/, "");
  return `${whole}.${frac === "" ? "0" : frac}`;
}

/** A row's reward divided by a number of chains, by row and number. */
const divided = new WeakMap<RewardRow, Map<number, string>>();

/**
 * The reward of one block at `height` on a network with `chainCount` chains
 * at that height, as a decimal string (e.g. "1.2").
 */
export function rewardPerBlock(
  schedule: RewardSchedule,
  height: number,
  chainCount: number,
): string {
  if (!Number.isSafeInteger(chainCount) || chainCount <= 0) {
    chainInvariant("chainCount", `${chainCount} is not a number of chains`);
  }
  const row = schedule.find((r) => r.untilHeight >= height);
  if (row === undefined) return "0.0";
  // Every block's coinbase asks; rows are immutable, so each division is done once.
  let byCount = divided.get(row);
  if (byCount === undefined) {
    byCount = new Map();
    divided.set(row, byCount);
  }
  let reward = byCount.get(chainCount);
  if (reward === undefined) {
    reward = formatDecimal(parseDecimal(row.reward) / BigInt(chainCount));
    byCount.set(chainCount, reward);
  }
  return reward;
}
