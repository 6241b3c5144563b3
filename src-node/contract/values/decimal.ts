/**
 * Exact decimals: a bigint mantissa and a scale (number of fractional digits,
 * 0..255), with the reference's arithmetic (Haskell `Data.Decimal` 0.5 as used by
 * Pact 4; reference §2.2):
 * - `+` and `-` are exact at the larger scale, not normalised (`1.50 + 1.0 = 2.50`);
 *   a zero operand returns the other operand as it is;
 * - `*` and `/` compute the exact rational, round it half-even to 255 places and
 *   normalise (strip trailing zeros); a zero product is `0` at scale 0;
 * - comparison is numeric (`1.0 = 1.00`);
 * - display inserts the point `scale` digits from the right and appends `.0`
 *   when the scale is 0.
 * @module
 */

export type Decimal = { readonly mantissa: bigint; readonly scale: number };

/** The largest scale a decimal may have (Haskell `Word8` places). */
export const MAX_SCALE = 255;

const POW10: bigint[] = [1n];
/** 10^n as a bigint (cached up to 600). */
export function pow10(n: number): bigint {
  if (n < POW10.length) return POW10[n] as bigint;
  if (n > 600) return 10n ** BigInt(n);
  for (let i = POW10.length; i <= n; i++) POW10.push((POW10[i - 1] as bigint) * 10n);
  return POW10[n] as bigint;
}

export function makeDecimal(mantissa: bigint, scale: number): Decimal {
  return { mantissa, scale };
}

export function decimalFromInteger(i: bigint): Decimal {
  return { mantissa: i, scale: 0 };
}

export function isZeroDecimal(d: Decimal): boolean {
  return d.mantissa === 0n;
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.mantissa, b.mantissa, a.scale];
  if (a.scale > b.scale) return [a.mantissa, b.mantissa * pow10(a.scale - b.scale), a.scale];
  return [a.mantissa * pow10(b.scale - a.scale), b.mantissa, b.scale];
}

export function decimalAdd(a: Decimal, b: Decimal): Decimal {
  if (a.mantissa === 0n) return b;
  if (b.mantissa === 0n) return a;
  const [x, y, s] = align(a, b);
  return { mantissa: x + y, scale: s };
}

export function decimalNegate(a: Decimal): Decimal {
  return { mantissa: -a.mantissa, scale: a.scale };
}

export function decimalSub(a: Decimal, b: Decimal): Decimal {
  if (b.mantissa === 0n) return a;
  if (a.mantissa === 0n) return decimalNegate(b);
  const [x, y, s] = align(a, b);
  return { mantissa: x - y, scale: s };
}

export function decimalCompare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function decimalAbs(a: Decimal): Decimal {
  return a.mantissa < 0n ? decimalNegate(a) : a;
}

/** Divides n by d (d > 0) rounding half to even. */
export function divRoundHalfEven(n: bigint, d: bigint): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  let q = n / d;
  let r = n % d;
  // Normalise to floor division so the remainder is non-negative.
  if (r < 0n) {
    q -= 1n;
    r += d;
  }
  const twice = r * 2n;
  if (twice > d || (twice === d && (q & 1n) === 1n)) q += 1n;
  return q;
}

/** Floor division (Haskell `div`). */
export function floorDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n < 0n !== d < 0n ? q - 1n : q;
}

/** Haskell `mod`: the result has the sign of the divisor. */
export function floorMod(n: bigint, d: bigint): bigint {
  const r = n % d;
  return r !== 0n && r < 0n !== d < 0n ? r + d : r;
}

function ceilDiv(n: bigint, d: bigint): bigint {
  return -floorDiv(-n, d);
}

/** Strips trailing zeros (minimal scale); zero becomes `0` at scale 0. */
export function decimalNormalize(a: Decimal): Decimal {
  if (a.mantissa === 0n) return a.scale === 0 ? a : { mantissa: 0n, scale: 0 };
  if (a.scale === 0) return a;
  let m = a.mantissa;
  let s = a.scale;
  // Big steps first keep this linear in the number of zeros stripped.
  while (s >= 8 && m % 100000000n === 0n) {
    m /= 100000000n;
    s -= 8;
  }
  while (s > 0 && m % 10n === 0n) {
    m /= 10n;
    s -= 1;
  }
  return { mantissa: m, scale: s };
}

/** The exact rational n/d (d ≠ 0) rounded half-even to 255 places, normalised. */
export function decimalFromRational(n: bigint, d: bigint): Decimal {
  return decimalNormalize({
    mantissa: divRoundHalfEven(n * pow10(MAX_SCALE), d),
    scale: MAX_SCALE,
  });
}

export function decimalMul(a: Decimal, b: Decimal): Decimal {
  if (a.mantissa === 0n || b.mantissa === 0n) return { mantissa: 0n, scale: 0 };
  const m = a.mantissa * b.mantissa;
  const s = a.scale + b.scale;
  if (s <= MAX_SCALE) return decimalNormalize({ mantissa: m, scale: s });
  return decimalNormalize({
    mantissa: divRoundHalfEven(m, pow10(s - MAX_SCALE)),
    scale: MAX_SCALE,
  });
}

/** Exact quotient rounded to 255 places; the caller checks for a zero divisor. */
export function decimalDiv(a: Decimal, b: Decimal): Decimal {
  // a/b = (ma / 10^sa) / (mb / 10^sb) = (ma * 10^sb) / (mb * 10^sa)
  return decimalFromRational(a.mantissa * pow10(b.scale), b.mantissa * pow10(a.scale));
}

export type RoundingMode = "round" | "floor" | "ceiling";

function roundRational(n: bigint, d: bigint, mode: RoundingMode): bigint {
  switch (mode) {
    case "round":
      return divRoundHalfEven(n, d);
    case "floor":
      return floorDiv(n, d);
    case "ceiling":
      return ceilDiv(n, d);
    default: {
      const never: never = mode;
      return never;
    }
  }
}

/** Rounds to an integer (`(round 2.5)` = 2, banker's rounding). */
export function decimalToIntegerRounded(a: Decimal, mode: RoundingMode): bigint {
  if (a.scale === 0) return a.mantissa;
  return roundRational(a.mantissa, pow10(a.scale), mode);
}

/** Rounds to exactly `places` fractional digits (not normalised). */
export function decimalRoundTo(a: Decimal, places: number, mode: RoundingMode): Decimal {
  if (places >= a.scale) return { mantissa: a.mantissa * pow10(places - a.scale), scale: places };
  return { mantissa: roundRational(a.mantissa, pow10(a.scale - places), mode), scale: places };
}

/** True when the value has no fractional part. */
export function decimalIsIntegral(a: Decimal): boolean {
  return a.scale === 0 || a.mantissa % pow10(a.scale) === 0n;
}

/** Haskell `show` of the decimal: `-0.005`, `1.50`, `3` (no `.0`). */
export function decimalToPlainString(a: Decimal): string {
  const neg = a.mantissa < 0n;
  const digits = (neg ? -a.mantissa : a.mantissa).toString();
  if (a.scale === 0) return neg ? `-${digits}` : digits;
  const padded =
    digits.length <= a.scale ? "0".repeat(a.scale - digits.length + 1) + digits : digits;
  const cut = padded.length - a.scale;
  return `${neg ? "-" : ""}${padded.slice(0, cut)}.${padded.slice(cut)}`;
}

/** The reference's display: like {@link decimalToPlainString} with `.0` at scale 0. */
export function decimalToString(a: Decimal): string {
  return a.scale === 0 ? `${decimalToPlainString(a)}.0` : decimalToPlainString(a);
}

/**
 * Parses `-?digits(.digits)?` keeping the written scale. Returns null for other
 * text or more than 255 fractional digits.
 */
export function parseDecimalText(text: string): Decimal | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (m === null) return null;
  const frac = m[3] ?? "";
  if (frac.length > MAX_SCALE) return null;
  const mant = BigInt(`${m[1]}${m[2]}${frac}`);
  return { mantissa: mant, scale: frac.length };
}

/**
 * The exact value of a finite binary64 number, rounded half-even to 255 places and
 * normalised (the reference's `f2Dec = fromRational . toRational`). Null for NaN/±∞.
 */
export function decimalFromDouble(x: number): Decimal | null {
  if (!Number.isFinite(x)) return null;
  if (x === 0) return { mantissa: 0n, scale: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const sign = hi >>> 31 === 1 ? -1n : 1n;
  const exponentBits = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (exponentBits === 0) {
    exp = -1074;
  } else {
    mant |= 1n << 52n;
    exp = exponentBits - 1075;
  }
  mant *= sign;
  if (exp >= 0) return { mantissa: mant << BigInt(exp), scale: 0 };
  return decimalFromRational(mant, 1n << BigInt(-exp));
}

/** The nearest binary64 to the decimal (the reference's `dec2F`). */
export function decimalToDouble(a: Decimal): number {
  return Number(decimalToPlainString(a));
}
