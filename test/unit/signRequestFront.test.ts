/**
 * When a dapp's signing request brings the desktop window to the front
 * (electron/signRequestFront.ts): the first request of a burst only, a burst being requests
 * each within 10 s of the one before.
 */
import { describe, expect, it } from "vitest";
import { SIGN_REQUEST_QUIET_MS, startsSignRequestBurst } from "../../electron/signRequestFront.ts";

describe("[unit] the window brought to the front once per burst of signing requests", () => {
  it("the first request, and one after 10 s of quiet, start a burst; the others do not", () => {
    expect(SIGN_REQUEST_QUIET_MS).toBe(10_000);
    expect(startsSignRequestBurst(null, 5)).toBe(true);
    expect(startsSignRequestBurst(1000, 1000)).toBe(false);
    expect(startsSignRequestBurst(1000, 10_999)).toBe(false);
    expect(startsSignRequestBurst(1000, 11_000)).toBe(true);
    // A clock set back starts a burst rather than silencing the window for as long.
    expect(startsSignRequestBurst(50_000, 1000)).toBe(true);
    expect(startsSignRequestBurst(0, 500, 400)).toBe(true);
  });

  it("a flood of requests every 5 s, however long, starts one burst", () => {
    let last: number | null = null;
    const fronts: number[] = [];
    for (let t = 0; t <= 600_000; t += 5000) {
      if (startsSignRequestBurst(last, t)) fronts.push(t);
      last = t;
    }
    expect(fronts).toEqual([0]);
    // After 10 s of quiet the next request is shown again.
    expect(startsSignRequestBurst(last, 610_000)).toBe(true);
  });
});
