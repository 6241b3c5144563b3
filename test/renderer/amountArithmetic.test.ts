/**
 * The wallet's exact amount arithmetic (renderer/src/format/amount.ts): the node's decimal
 * text read into base units, Pact decimal literals written from them, half-even rounding of
 * fees, the most gas can cost and what "Max" sends; property tests against plain bigint
 * arithmetic, never floating point.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COIN_DECIMALS,
  maxGasFee,
  maxSendable,
  pactDecimal,
  parseAmount,
  roundHalfEven,
  unitsOfDecimalText,
} from "../../renderer/src/format/amount.ts";

const read = (text: string, decimals = COIN_DECIMALS) => {
  const r = unitsOfDecimalText(text, decimals);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

const ONE = 10n ** 12n;

describe("[renderer] amount arithmetic", () => {
  it("reads the node's decimal renderings exactly", () => {
    expect(read("1000000")).toBe(1_000_000n * ONE);
    expect(read("0.5")).toBe(ONE / 2n);
    expect(read("1.0e-12")).toBe(1n);
    expect(read("1.5e3")).toBe(1500n * ONE);
    expect(read("123456789.123456789012")).toBe(123456789123456789012n);
    expect(read("100000000000000000000.1")).toBe(100000000000000000000n * ONE + ONE / 10n);
    expect(read("-1")).toBe(-ONE);
    expect(read("2.50000000000000")).toBe((5n * ONE) / 2n);
    for (const bad of ["", "1.", ".5", "1e", "abc", "1.0e-13", "0.0000000000001", "1e999"]) {
      expect(unitsOfDecimalText(bad).ok, bad).toBe(false);
    }
  });

  it("writes Pact decimal literals that always carry a point", () => {
    expect(pactDecimal(ONE)).toBe("1.0");
    expect(pactDecimal(0n)).toBe("0.0");
    expect(pactDecimal(1n)).toBe("0.000000000001");
    expect(pactDecimal(1_234_567n * ONE + ONE / 4n)).toBe("1234567.25");
  });

  it("round-trips: the node's text of a decimal and the Pact literal give the same units", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 36n }), (x) => {
        const literal = pactDecimal(x);
        expect(literal).toMatch(/^\d+\.\d+$/);
        expect(read(literal)).toBe(x);
        const typed = parseAmount(literal, COIN_DECIMALS);
        expect(typed.ok && typed.value).toBe(x);
        // The same value written with an exponent, as aeson writes small and large numbers.
        const digits = x.toString();
        expect(read(`${digits}e-12`)).toBe(x);
        expect(read(`${digits.slice(0, 1)}.${digits.slice(1) || "0"}e${digits.length - 13}`)).toBe(
          x,
        );
      }),
    );
  });

  it("rounds half to even, as the node rounds fees", () => {
    expect(roundHalfEven(25n, 1, 0)).toBe(2n);
    expect(roundHalfEven(35n, 1, 0)).toBe(4n);
    expect(roundHalfEven(26n, 1, 0)).toBe(3n);
    expect(roundHalfEven(24n, 1, 0)).toBe(2n);
    expect(roundHalfEven(-25n, 1, 0)).toBe(-2n);
    expect(roundHalfEven(7n, 0, 2)).toBe(700n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        (x, to, extra) => {
          const from = to + extra;
          const r = roundHalfEven(x, from, to);
          const scale = 10n ** BigInt(extra);
          // Within half a unit of the exact value…
          const diff = r * scale - x;
          expect(2n * (diff < 0n ? -diff : diff) <= scale).toBe(true);
          // …exact when nothing is cut, and ties go to the even neighbour.
          if (x % scale === 0n) expect(r).toBe(x / scale);
          if (2n * (diff < 0n ? -diff : diff) === scale && extra > 0) expect(r % 2n).toBe(0n);
        },
      ),
    );
  });

  it("Max is the balance minus the most gas can cost, never negative", () => {
    const price = read("0.00000001");
    expect(maxGasFee(2500, price)).toBe(read("0.000025"));
    expect(maxSendable(read("1"), 2500, price)).toBe(read("0.999975"));
    expect(maxSendable(read("0.00001"), 2500, price)).toBe(0n);
    expect(() => maxGasFee(-1, price)).toThrow(RangeError);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 1, max: 150_000 }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        (balance, gasLimit, gasPrice) => {
          const max = maxSendable(balance, gasLimit, gasPrice);
          expect(max >= 0n).toBe(true);
          if (max > 0n) expect(max + maxGasFee(gasLimit, gasPrice)).toBe(balance);
          else expect(maxGasFee(gasLimit, gasPrice) >= balance).toBe(true);
        },
      ),
    );
  });
});
