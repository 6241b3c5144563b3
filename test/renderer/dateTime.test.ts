/**
 * The app's one way of writing a moment (renderer/src/format/dateTime.ts): date, 24-hour time,
 * UTC, the same on every machine whatever its time zone; and counts with their noun.
 */
import { describe, expect, it } from "vitest";
import { dateTimeParts, formatClock, formatDateTime } from "../../renderer/src/format/dateTime.ts";
import { countOf } from "../../renderer/src/format/number.ts";

const AT = Date.UTC(2026, 11, 2, 4, 58, 10, 123);

describe("dates and times", () => {
  it("writes one form everywhere, in UTC", () => {
    expect(formatDateTime(AT)).toBe("2026-12-02 04:58:10 UTC");
    expect(dateTimeParts(AT)).toEqual({ date: "2026-12-02", time: "04:58:10 UTC" });
    expect(formatClock(AT)).toBe("04:58");
  });

  it("says unknown for no time instead of throwing", () => {
    expect(formatDateTime(Number.NaN)).toBe("unknown");
    expect(dateTimeParts(Number.NaN)).toBeNull();
    expect(formatClock(Number.NaN)).toBe("");
  });

  it("counts with the noun's right number", () => {
    expect(countOf(1, "transaction")).toBe("1 transaction");
    expect(countOf(0, "transaction")).toBe("0 transactions");
    expect(countOf(1200, "block")).toBe("1,200 blocks");
    expect(countOf(2, "entry", "entries")).toBe("2 entries");
  });
});
