/**
 * Gas arithmetic of command execution (reference pact-language.md §8.2):
 * the transaction-size charge made before any code runs, and gas amounts in
 * coins (units × price), exact in decimals (prices have at most 12 decimal
 * places on chain; other prices are rounded half-even to 12 places, as the
 * reference does).
 * @module
 */
import {
  type Decimal,
  decimalFromInteger,
  decimalMul,
  decimalNormalize,
  decimalRoundTo,
  parseDecimalText,
} from "../contract/values/decimal.ts";
import { execInvariant } from "./errors.ts";

/** Decimal places of gas amounts in coins. */
export const GAS_AMOUNT_DECIMALS = 12;

/**
 * Gas for the size of a transaction: ⌈0.01·b + (0.01·b / 512)^7⌉ over the
 * bytes `b` of its `cmd` (without a continuation's proof). Computed in exact
 * integers: (b/100) + (b/51200)^7, rounded up.
 */
export function txSizeGas(bytes: number): number {
  const known = sizeGasCache.get(bytes);
  if (known !== undefined) return known;
  const gas = computeSizeGas(bytes);
  if (sizeGasCache.size >= 4096) sizeGasCache.clear();
  sizeGasCache.set(bytes, gas);
  return gas;
}

const sizeGasCache = new Map<number, number>();

function computeSizeGas(bytes: number): number {
  const b = BigInt(bytes);
  // b/100 + b^7/51200^7 = (b·51200^7/100 + b^7) / 51200^7; 51200^7 is a multiple of 100.
  const d = 51200n ** 7n;
  const num = (b * d) / 100n + b ** 7n;
  const up = num / d + (num % d === 0n ? 0n : 1n);
  const n = Number(up);
  return Number.isSafeInteger(n) ? n : Number.MAX_SAFE_INTEGER;
}

/** A canonical decimal text (a gas price) as a Decimal. */
export function decimalOfText(text: string): Decimal {
  const d = parseDecimalText(text);
  if (d === null) throw execInvariant(`not decimal text: ${text}`);
  return d;
}

/** `units × price`, rounded half-even to 12 places (a gas amount in coins). */
export function gasAmount(units: number, price: Decimal): Decimal {
  const product = decimalMul(decimalFromInteger(BigInt(units)), price);
  return decimalNormalize(decimalRoundTo(product, GAS_AMOUNT_DECIMALS, "round"));
}
