/**
 * Exact decimal amounts: text for display and input, bigint base units for arithmetic,
 * never floating point (0.1 + 0.2 must stay 0.3). `decimals` is the number of digits after
 * the point a unit has (the coin contract keeps 12).
 * @module
 */
import type { Decoded } from "../api/decode.ts";

/** Digits after the point of the coin contract's amounts. */
export const COIN_DECIMALS = 12;

const MAX_DECIMALS = 255;

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    throw new RangeError(`decimals must be an integer 0..${MAX_DECIMALS}, got ${decimals}`);
  }
}

/**
 * Tidies what a person typed before parsing: trims spaces, drops spaces and underscores
 * between digits, and reads a lone comma as the decimal point ("1,5" → "1.5"). A comma next
 * to a point ("1,000.5") is left alone, so `parseAmount` refuses it instead of guessing.
 */
export function normalizeAmountInput(text: string): string {
  const t = text.trim().replace(/(?<=\d)[\s_]+(?=\d)/g, "");
  return !t.includes(".") && /^\d*,\d*$/.test(t) ? t.replace(",", ".") : t;
}

/**
 * Parses a non-negative decimal ("12", "0.5", ".5", "3.") into base units.
 * Refuses signs, exponents, grouping and more digits after the point than `decimals`.
 */
export function parseAmount(text: string, decimals: number): Decoded<bigint> {
  checkDecimals(decimals);
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (m === null || text === "" || text === "." || (m[1] === "" && (m[2] ?? "") === "")) {
    return { ok: false, reason: "amount: expected a number like 12 or 0.5" };
  }
  const whole = m[1] ?? "";
  const fraction = m[2] ?? "";
  if (fraction.length > decimals) {
    return {
      ok: false,
      reason:
        decimals === 0
          ? "amount: expected a whole number"
          : `amount: at most ${decimals} digits after the point`,
    };
  }
  return { ok: true, value: BigInt(`${whole || "0"}${fraction.padEnd(decimals, "0")}`) };
}

export type FormatAmountOptions = {
  /** Group the whole part in thousands with commas ("1,234.5"); default true. */
  readonly group?: boolean;
  /** Cut (never round) the fraction to this many digits; default all of them. */
  readonly maxDecimals?: number;
  /** Keep at least this many digits after the point ("1.00"); default 0. */
  readonly minDecimals?: number;
};

/** Base units as decimal text, trailing zeros dropped: 1500000000000n, 12 → "1.5". */
export function formatAmount(
  units: bigint,
  decimals: number,
  options: FormatAmountOptions = {},
): string {
  checkDecimals(decimals);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0");
  const wholeDigits = digits.slice(0, digits.length - decimals);
  let fraction = digits.slice(digits.length - decimals);
  if (options.maxDecimals !== undefined) fraction = fraction.slice(0, options.maxDecimals);
  fraction = fraction.replace(/0+$/, "");
  const min = Math.min(options.minDecimals ?? 0, options.maxDecimals ?? decimals, decimals);
  fraction = fraction.padEnd(min, "0");
  const whole =
    options.group === false ? wholeDigits : wholeDigits.replace(/\B(?=(\d{3})+$)/g, ",");
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}
