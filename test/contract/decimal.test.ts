/**
 * Decimal arithmetic against exact rationals (fast-check), and the display
 * and JSON-number renderings of reference §2.2 and §3.5.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Decimal,
  decimalAdd,
  decimalCompare,
  decimalDiv,
  decimalFromDouble,
  decimalMul,
  decimalNormalize,
  decimalRoundTo,
  decimalSub,
  decimalToString,
  divRoundHalfEven,
  floorDiv,
  floorMod,
  pow10,
} from "../../src-node/contract/values/decimal.ts";
import { decimalToJsonNumber } from "../../src-node/contract/values/json.ts";

const dec = (s: string): Decimal => {
  const [i, f = ""] = s.split(".");
  return { mantissa: BigInt(`${i}${f}`), scale: f.length };
};

const arbDecimal = fc
  .record({
    mantissa: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
    scale: fc.integer({ min: 0, max: 40 }),
  })
  .map((d): Decimal => d);

/** a/b as a reduced fraction compared by cross-multiplication. */
const sameValue = (d: Decimal, num: bigint, den: bigint): boolean =>
  d.mantissa * den === num * pow10(d.scale);

describe("[contract] decimal arithmetic", () => {
  it("adds and subtracts exactly at the larger scale", () => {
    fc.assert(
      fc.property(arbDecimal, arbDecimal, (a, b) => {
        const s = decimalAdd(a, b);
        const t = decimalSub(a, b);
        const den = pow10(Math.max(a.scale, b.scale));
        const an = (a.mantissa * den) / pow10(a.scale);
        const bn = (b.mantissa * den) / pow10(b.scale);
        expect(sameValue(s, an + bn, den)).toBe(true);
        expect(sameValue(t, an - bn, den)).toBe(true);
        if (a.mantissa !== 0n && b.mantissa !== 0n)
          expect(s.scale).toBe(Math.max(a.scale, b.scale));
      }),
    );
  });

  it("multiplies exactly (when within 255 places) and normalises", () => {
    fc.assert(
      fc.property(arbDecimal, arbDecimal, (a, b) => {
        const p = decimalMul(a, b);
        expect(sameValue(p, a.mantissa * b.mantissa, pow10(a.scale + b.scale))).toBe(true);
        expect(decimalNormalize(p)).toEqual(p);
      }),
    );
  });

  it("divides to 255 places rounding half to even", () => {
    fc.assert(
      fc.property(arbDecimal, arbDecimal, (a, b) => {
        fc.pre(b.mantissa !== 0n);
        const q = decimalDiv(a, b);
        // |q - a/b| <= 0.5 * 10^-255
        const num = a.mantissa * pow10(b.scale);
        const den = b.mantissa * pow10(a.scale);
        const scaled = q.mantissa * pow10(255 - q.scale);
        const err = scaled * den - num * pow10(255);
        const absErr = err < 0n ? -err : err;
        const absDen = den < 0n ? -den : den;
        expect(absErr * 2n <= absDen).toBe(true);
      }),
    );
  });

  it("compares numerically regardless of scale", () => {
    expect(decimalCompare(dec("1.0"), dec("1.00"))).toBe(0);
    expect(decimalCompare(dec("-1.5"), dec("1"))).toBe(-1);
    fc.assert(
      fc.property(arbDecimal, (a) => {
        expect(decimalCompare(a, { mantissa: a.mantissa * 100n, scale: a.scale + 2 })).toBe(0);
      }),
    );
  });

  it("rounds half to even and floors toward negative infinity", () => {
    expect(divRoundHalfEven(5n, 2n)).toBe(2n);
    expect(divRoundHalfEven(7n, 2n)).toBe(4n);
    expect(divRoundHalfEven(-5n, 2n)).toBe(-2n);
    expect(divRoundHalfEven(-7n, 2n)).toBe(-4n);
    expect(divRoundHalfEven(5n, -2n)).toBe(-2n);
    expect(floorDiv(-7n, 2n)).toBe(-4n);
    expect(floorMod(-13n, 8n)).toBe(3n);
    expect(floorMod(13n, -8n)).toBe(-3n);
    expect(decimalRoundTo(dec("0.125"), 2, "round")).toEqual(dec("0.12"));
    expect(decimalRoundTo(dec("3.5"), 2, "round")).toEqual(dec("3.50"));
  });

  it("displays with the .0 rule", () => {
    expect(decimalToString(dec("3"))).toBe("3.0");
    expect(decimalToString(dec("1.50"))).toBe("1.50");
    expect(decimalToString(dec("-0.005"))).toBe("-0.005");
    expect(decimalToString({ mantissa: -5n, scale: 3 })).toBe("-0.005");
    expect(decimalToString({ mantissa: 0n, scale: 0 })).toBe("0.0");
  });

  it("converts binary64 values exactly, rounded to 255 places", () => {
    expect(decimalFromDouble(0.5)).toEqual(dec("0.5"));
    expect(decimalFromDouble(0.1)).toEqual(
      dec("0.1000000000000000055511151231257827021181583404541015625"),
    );
    expect(decimalFromDouble(2 ** 60)).toEqual({ mantissa: 2n ** 60n, scale: 0 });
    expect(decimalFromDouble(Number.NaN)).toBeNull();
    expect(decimalFromDouble(Number.POSITIVE_INFINITY)).toBeNull();
    expect(decimalFromDouble(5e-324)).toEqual({ mantissa: 0n, scale: 0 });
    expect(decimalFromDouble(1e-200)?.scale).toBe(255);
  });

  it("renders JSON numbers as aeson's Scientific does", () => {
    const cases: [string, string][] = [
      ["100.0", "100"],
      ["2.0", "2"],
      ["1.5", "1.5"],
      ["0.123", "0.123"],
      ["0.1", "0.1"],
      ["0.01", "1.0e-2"],
      ["0.0001", "1.0e-4"],
      ["12345678.5", "1.23456785e7"],
      ["9999999.5", "9999999.5"],
      ["-0.01", "-1.0e-2"],
      ["0.00000001", "1.0e-8"],
    ];
    for (const [d, json] of cases) expect(decimalToJsonNumber(dec(d)), d).toBe(json);
  });
});
