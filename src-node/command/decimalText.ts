/**
 * Decimal numbers (gas price) as canonical plain text: no exponent, no sign on
 * zero, no leading zeros, no trailing fractional zeros (`1e-8` →
 * `"0.00000001"`, `"2.50"` → `"2.5"`). Text keeps the exact value the client
 * wrote, which decimal arithmetic and the "at most 12 decimal places" rule
 * need; a double would not.
 * @module
 */
import { CommandError, CommandErrorCode } from "./errors.ts";
import { JsonNumber } from "./exactJson.ts";

const NUMERIC = /^([-+]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?$/;
/** Exponents beyond this are refused rather than expanded into huge strings. */
const MAX_EXPONENT = 1000;

function badDecimal(field: string): CommandError {
  return new CommandError(
    { code: CommandErrorCode.BadField, field, expected: "a decimal number" },
    `${field}: expected a decimal number (a JSON number or a numeric string)`,
  );
}

/** Canonical plain text of a decimal given as JS number text or numeric string. */
function canonical(text: string, field: string): string {
  const m = NUMERIC.exec(text);
  if (m === null) throw badDecimal(field);
  const [, sign = "", intPart = "", fracPart = "", expPart = "0"] = m;
  if (intPart.length === 0 && fracPart.length === 0) throw badDecimal(field);
  const exponent = Number(expPart);
  if (Math.abs(exponent) > MAX_EXPONENT) throw badDecimal(field);
  const digits = intPart + fracPart;
  const point = intPart.length + exponent;
  let whole: string;
  let fraction: string;
  if (point <= 0) {
    whole = "0";
    fraction = "0".repeat(-point) + digits;
  } else if (point >= digits.length) {
    whole = digits + "0".repeat(point - digits.length);
    fraction = "";
  } else {
    whole = digits.slice(0, point);
    fraction = digits.slice(point);
  }
  whole = whole.replace(/^0+(?=[0-9])/, "");
  fraction = fraction.replace(/0+$/, "");
  const body = fraction.length > 0 ? `${whole}.${fraction}` : whole;
  return sign === "-" && body !== "0" ? `-${body}` : body;
}

/**
 * The canonical decimal text of a JSON number or numeric string.
 * @param value a JS number, an exact {@link JsonNumber} or a numeric string.
 * @param field names the value in the error, e.g. `"cmd.meta.gasPrice"`.
 * @throws {CommandError} CMD_BAD_FIELD for anything else (booleans, `NaN`, `""`, `"1e"`).
 * @example decimalText(1e-8, "gasPrice") // "0.00000001"
 */
export function decimalText(value: unknown, field: string): string {
  // A JSON number in a cmd reads as JSON.parse reads it (a double), as it
  // always has: the gas price rules were written against that value.
  const n = value instanceof JsonNumber ? Number(value.text) : value;
  if (typeof n === "number") {
    if (!Number.isFinite(n)) throw badDecimal(field);
    return canonical(String(n), field);
  }
  if (typeof n === "string") return canonical(n.trim() === n ? n : "", field);
  throw badDecimal(field);
}

/** The number of digits after the point of a canonical decimal text. */
export function decimalPlaces(text: string): number {
  const point = text.indexOf(".");
  return point < 0 ? 0 : text.length - point - 1;
}
