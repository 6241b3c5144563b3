/**
 * The hash-rate chart's line (renderer/src/features/node/hashRateSeries.ts): where the miner
 * left no samples (off, or idle on demand) it drops to 0 instead of joining the last rate to
 * the next one — the steady 10 MH/s drawn while the miner was off (issue 36).
 */
import { describe, expect, it } from "vitest";
import { hashRateSeries, RATE_SAMPLE_MS } from "../../renderer/src/features/node/hashRateSeries.ts";

const S = RATE_SAMPLE_MS;

describe("the hash-rate chart's line", () => {
  it("keeps samples taken while the miner runs as they are", () => {
    const run = [0, S, 2 * S].map((at) => ({ at, rate: 10e6 }));
    expect(hashRateSeries(run, 2 * S + 1000)).toEqual(run);
  });

  it("drops to 0 between samples far apart and after an old last sample", () => {
    const before = { at: 0, rate: 10e6 };
    const after = { at: 100 * S, rate: 9e6 };
    expect(hashRateSeries([after, before], 101 * S)).toEqual([
      before,
      { at: S, rate: 0 },
      { at: 99 * S, rate: 0 },
      after,
    ]);
    expect(hashRateSeries([before], 60 * S)).toEqual([
      before,
      { at: S, rate: 0 },
      { at: 60 * S, rate: 0 },
    ]);
  });

  it("adds nothing around a 0 the miner recorded itself, and draws nothing of no samples", () => {
    const idle = [
      { at: 0, rate: 5e6 },
      { at: S, rate: 0 },
      { at: 50 * S, rate: 0 },
    ];
    expect(hashRateSeries(idle, 50 * S)).toEqual(idle);
    expect(hashRateSeries([], 1000)).toEqual([]);
  });
});
