/**
 * Exact decimal amounts (renderer/src/format/amount.ts): parsing what a person types into
 * base units and formatting base units back, never through floating point.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COIN_DECIMALS,
  formatAmount,
  normalizeAmountInput,
  parseAmount,
} from "../../renderer/src/format/amount.ts";

const units = (text: string, decimals = COIN_DECIMALS) => {
  const r = parseAmount(text, decimals);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};

describe("[renderer] amounts", () => {
  it("parses decimals exactly into base units", () => {
    expect(units("1")).toBe(1_000_000_000_000n);
    expect(units("0.5")).toBe(500_000_000_000n);
    expect(units(".5")).toBe(500_000_000_000n);
    expect(units("3.")).toBe(3_000_000_000_000n);
    expect(units("0.000000000001")).toBe(1n);
    expect(units("000123.450")).toBe(123_450_000_000_000n);
    // Far beyond a double's 15–17 significant digits.
    expect(units("123456789012345678901234567890.123456789012")).toBe(
      123456789012345678901234567890123456789012n,
    );
    expect(units("0.1") + units("0.2")).toBe(units("0.3"));
    expect(units("42", 0)).toBe(42n);
  });

  it("refuses what is not a plain non-negative decimal, saying why", () => {
    for (const bad of ["", ".", "-1", "+1", "1e3", "1,000.5", "1.2.3", " 1", "0x10", "١"]) {
      expect(parseAmount(bad, COIN_DECIMALS).ok, bad).toBe(false);
    }
    expect(parseAmount("0.0000000000001", COIN_DECIMALS)).toEqual({
      ok: false,
      reason: "amount: at most 12 digits after the point",
    });
    expect(parseAmount("1.5", 0)).toEqual({ ok: false, reason: "amount: expected a whole number" });
    expect(() => parseAmount("1", -1)).toThrow(RangeError);
    expect(() => parseAmount("1", 1.5)).toThrow(RangeError);
  });

  it("tidies typed input: spaces, underscores, a lone decimal comma", () => {
    expect(normalizeAmountInput(" 1,5 ")).toBe("1.5");
    expect(normalizeAmountInput("1 000 000")).toBe("1000000");
    expect(normalizeAmountInput("1_000.25")).toBe("1000.25");
    // A comma beside a point is ambiguous: left for parseAmount to refuse.
    expect(normalizeAmountInput("1,000.5")).toBe("1,000.5");
    expect(parseAmount(normalizeAmountInput("1,000.5"), 12).ok).toBe(false);
  });

  it("formats base units with grouping, trimmed or padded decimals, and a sign", () => {
    expect(formatAmount(1_500_000_000_000n, COIN_DECIMALS)).toBe("1.5");
    expect(formatAmount(1n, COIN_DECIMALS)).toBe("0.000000000001");
    expect(formatAmount(0n, COIN_DECIMALS)).toBe("0");
    expect(formatAmount(1_234_567_000_000_000_000n, COIN_DECIMALS)).toBe("1,234,567");
    expect(formatAmount(1_234_567_000_000_000_000n, COIN_DECIMALS, { group: false })).toBe(
      "1234567",
    );
    expect(formatAmount(-2_500_000_000_000n, COIN_DECIMALS)).toBe("-2.5");
    expect(formatAmount(1_999_999_999_999n, COIN_DECIMALS, { maxDecimals: 2 })).toBe("1.99");
    expect(formatAmount(1_000_000_000_000n, COIN_DECIMALS, { minDecimals: 2 })).toBe("1.00");
    expect(formatAmount(1_230_000_000_000n, COIN_DECIMALS, { minDecimals: 4 })).toBe("1.2300");
    expect(formatAmount(12n, 0)).toBe("12");
  });

  it("round-trips: parse(format(x)) = x for every amount and precision", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 40n }),
        fc.integer({ min: 0, max: 18 }),
        (x, d) => {
          expect(units(formatAmount(x, d, { group: false }), d)).toBe(x);
          expect(units(normalizeAmountInput(formatAmount(x, d).replaceAll(",", " ")), d)).toBe(x);
        },
      ),
    );
  });
});
