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

const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

/**
 * The one reading of an amount a person typed (every amount field of the app; docs/wallet.md
 * "Amounts"), as amounts are shown: digits, at most one decimal point, and commas only as the
 * thousands separators they are on screen ("1,500" and "1,000,000.25" are accepted as written
 * there). Anything else is refused with what to write instead, never guessed: "1,5" is not
 * read as 1.5 (nor "1.500,5", "1 000", "1_000", "+1", "1e3"). Spaces around it are ignored.
 */
export function readAmountInput(text: string, decimals: number): Decoded<bigint> {
  const t = text.trim();
  if (t === "") return { ok: false, error: "Enter an amount." };
  const odd = /[^0-9.,]/.exec(t);
  if (odd !== null) {
    const shown = /\s/.test(odd[0]) ? "a space" : `“${odd[0]}”`;
    return {
      ok: false,
      error: `An amount has digits and one decimal point only, not ${shown}: write it like 1500 or 1,500.25.`,
    };
  }
  if (t.split(".").length > 2) {
    return { ok: false, error: "An amount has one decimal point at most." };
  }
  if (t.includes(",") && !GROUPED.test(t)) {
    return {
      ok: false,
      error:
        "A comma only separates thousands (1,500 is one thousand five hundred); for a fraction use a point: 1.5.",
    };
  }
  const parsed = parseAmount(t.replaceAll(",", ""), decimals);
  return parsed.ok
    ? parsed
    : {
        ok: false,
        error: `${parsed.error.replace(/^amount: /, "").replace(/^./, (c) => c.toUpperCase())}.`,
      };
}

/**
 * Parses a non-negative decimal ("12", "0.5", ".5", "3.") into base units.
 * Refuses signs, exponents, grouping and more digits after the point than `decimals`.
 */
export function parseAmount(text: string, decimals: number): Decoded<bigint> {
  checkDecimals(decimals);
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (m === null || text === "" || text === "." || (m[1] === "" && (m[2] ?? "") === "")) {
    return { ok: false, error: "amount: expected a number like 12 or 0.5" };
  }
  const whole = m[1] ?? "";
  const fraction = m[2] ?? "";
  if (fraction.length > decimals) {
    return {
      ok: false,
      error:
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

/**
 * Base units as the contract language's decimal literal: always a point and at least one
 * digit after it, no grouping (1000000000000n → "1.0", 1n → "0.000000000001"). A Pact
 * `1` is an integer and `1.0` a decimal; the coin contract's amounts and the TRANSFER
 * capability's argument must be decimals, and a signed capability matches only its exact
 * value.
 */
export function pactDecimal(units: bigint, decimals: number = COIN_DECIMALS): string {
  const text = formatAmount(units, decimals, { group: false });
  return text.includes(".") ? text : `${text}.0`;
}

const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/;
/** Exponents past this are refused instead of expanded into huge digit strings. */
const MAX_EXPONENT = 400;

/**
 * Exact base units of a decimal as the node writes it: JSON number text in aeson's
 * rendering ("1000000", "0.5", "1.0e-12") or the text of `{"decimal": "…"}`; a sign is
 * allowed. Refuses more than `decimals` significant digits after the point (the coin
 * contract never stores those) instead of rounding them away.
 */
export function unitsOfDecimalText(
  text: string,
  decimals: number = COIN_DECIMALS,
): Decoded<bigint> {
  checkDecimals(decimals);
  const m = DECIMAL_TEXT.exec(text);
  const exponent = Number(m?.[4] ?? "0");
  if (m === null || Math.abs(exponent) > MAX_EXPONENT) {
    return { ok: false, error: `expected a decimal number, got "${text}"` };
  }
  const whole = m[2] ?? "";
  const fraction = (m[3] ?? "").replace(/0+$/, "");
  // value = digits × 10^(exponent − fraction.length)
  const digits = BigInt(`${whole}${fraction}`);
  const shift = exponent - fraction.length + decimals;
  if (shift < 0) {
    const divisor = 10n ** BigInt(-shift);
    if (digits % divisor !== 0n) {
      return { ok: false, error: `more than ${decimals} digits after the point: "${text}"` };
    }
    const units = digits / divisor;
    return { ok: true, value: m[1] === "-" ? -units : units };
  }
  const units = digits * 10n ** BigInt(shift);
  return { ok: true, value: m[1] === "-" ? -units : units };
}

/**
 * Rounds a value with `from` digits after the point to `to` digits, half to even, as the
 * node rounds a fee (gas used × gas price) to the coin's 12 places.
 */
export function roundHalfEven(value: bigint, from: number, to: number): bigint {
  checkDecimals(from);
  checkDecimals(to);
  if (to >= from) return value * 10n ** BigInt(to - from);
  const divisor = 10n ** BigInt(from - to);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  let q = abs / divisor;
  const r = abs % divisor;
  if (r * 2n > divisor || (r * 2n === divisor && q % 2n === 1n)) q += 1n;
  return negative ? -q : q;
}

/** The most a command can cost: gas limit × gas price (exact, in the price's units). */
export function maxGasFee(gasLimit: number, gasPrice: bigint): bigint {
  if (!Number.isSafeInteger(gasLimit) || gasLimit < 0) {
    throw new RangeError(`gas limit must be a non-negative integer, got ${gasLimit}`);
  }
  return BigInt(gasLimit) * gasPrice;
}

/**
 * What "Max" sends: the balance minus the most the transfer's gas can cost, so nothing is
 * left that gas could not cover and nothing unspendable stays behind (0 when the balance
 * does not cover the gas).
 */
export function maxSendable(balance: bigint, gasLimit: number, gasPrice: bigint): bigint {
  const rest = balance - maxGasFee(gasLimit, gasPrice);
  return rest > 0n ? rest : 0n;
}
