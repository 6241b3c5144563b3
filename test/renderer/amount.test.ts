/**
 * Exact decimal amounts (renderer/src/format/amount.ts): parsing what a person types into
 * base units and formatting base units back, never through floating point; the one reading
 * of a typed amount takes what the app shows (grouping commas) and refuses, with what to
 * write, anything it would have to guess ("1,5" is not 1.5; issue 36).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COIN_DECIMALS,
  formatAmount,
  parseAmount,
  readAmountInput,
} from "../../renderer/src/format/amount.ts";

const units = (text: string, decimals = COIN_DECIMALS) => {
  const r = parseAmount(text, decimals);
  if (!r.ok) throw new Error(r.error);
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
      error: "amount: at most 12 digits after the point",
    });
    expect(parseAmount("1.5", 0)).toEqual({ ok: false, error: "amount: expected a whole number" });
    expect(() => parseAmount("1", -1)).toThrow(RangeError);
    expect(() => parseAmount("1", 1.5)).toThrow(RangeError);
  });

  it("reads typed amounts as the app shows them: commas group thousands, a point starts the fraction", () => {
    const read = (t: string) => readAmountInput(t, COIN_DECIMALS);
    expect(read("1,500")).toEqual({ ok: true, value: 1500n * 10n ** 12n });
    expect(read(" 1,000,000.25 ")).toEqual({ ok: true, value: 1_000_000_250_000_000_000n });
    expect(read("1500")).toEqual({ ok: true, value: 1500n * 10n ** 12n });
    expect(read("0.5")).toEqual({ ok: true, value: 5n * 10n ** 11n });
    expect(read("1,500.")).toEqual({ ok: true, value: 1500n * 10n ** 12n });
  });

  it("refuses, saying what to write, whatever it would have to guess", () => {
    const comma =
      "A comma only separates thousands (1,500 is one thousand five hundred); for a fraction use a point: 1.5.";
    for (const t of [
      "1,5",
      "1,50",
      "1,5000",
      ",5",
      "1,500,00",
      "12,34.5",
      "1.500,5",
      "1,",
      "0,5",
    ]) {
      const r = readAmountInput(t, COIN_DECIMALS);
      expect(r.ok, t).toBe(false);
      if (!r.ok && t !== "1.500,5") expect(r.error, t).toBe(comma);
    }
    expect(readAmountInput("1.500,5", COIN_DECIMALS).ok).toBe(false);
    expect(readAmountInput("1 000", COIN_DECIMALS)).toEqual({
      ok: false,
      error:
        "An amount has digits and one decimal point only, not a space: write it like 1500 or 1,500.25.",
    });
    for (const [t, ch] of [
      ["1_000", "“_”"],
      ["-1", "“-”"],
      ["+1", "“+”"],
      ["1e3", "“e”"],
      ["1'000", "“'”"],
      ["١", "“١”"],
    ]) {
      expect(readAmountInput(t as string, COIN_DECIMALS)).toMatchObject({
        ok: false,
        error: expect.stringContaining(`not ${ch}`),
      });
    }
    expect(readAmountInput("1.2.3", COIN_DECIMALS)).toEqual({
      ok: false,
      error: "An amount has one decimal point at most.",
    });
    expect(readAmountInput("  ", COIN_DECIMALS)).toEqual({ ok: false, error: "Enter an amount." });
    expect(readAmountInput("0.0000000000001", COIN_DECIMALS)).toEqual({
      ok: false,
      error: "At most 12 digits after the point.",
    });
    expect(readAmountInput(".", COIN_DECIMALS).ok).toBe(false);
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
          // What the app shows (grouped) reads back as the same amount.
          expect(readAmountInput(formatAmount(x, d), d)).toEqual({ ok: true, value: x });
        },
      ),
    );
  });
});
