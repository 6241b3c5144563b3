/**
 * The hash-rate chart's line from the miner's samples (`/app/api/mining/history`). The miner
 * samples its rate every 10 s while it runs and nothing while it is off or idle (mine on
 * demand with nothing to mine), so two samples far apart mean it was not mining between them:
 * the line drops to 0 there, and after the last sample when that is old, instead of joining
 * the samples with a straight line at the old rate (which drew a steady 10 MH/s while the
 * miner was off).
 * @module
 */

/** How often the built-in miner samples its rate (src-node/mining/builtInMiner.ts). */
export const RATE_SAMPLE_MS = 10_000;

export type RatePoint = { readonly at: number; readonly rate: number };

/** A gap longer than this (two missed samples and some slack) is time not mining. */
const GAP_MS = 2.5 * RATE_SAMPLE_MS;

/** The points to draw, oldest first: the samples with 0 wherever the miner did not run. */
export function hashRateSeries(samples: readonly RatePoint[], nowMs: number): RatePoint[] {
  const sorted = [...samples].sort((a, b) => a.at - b.at);
  const out: RatePoint[] = [];
  for (const s of sorted) {
    const prev = out.at(-1);
    if (prev !== undefined && s.at - prev.at > GAP_MS) {
      if (prev.rate !== 0) out.push({ at: prev.at + RATE_SAMPLE_MS, rate: 0 });
      if (s.rate !== 0) out.push({ at: s.at - RATE_SAMPLE_MS, rate: 0 });
    }
    out.push(s);
  }
  const last = out.at(-1);
  if (last !== undefined && nowMs - last.at > GAP_MS) {
    if (last.rate !== 0) out.push({ at: last.at + RATE_SAMPLE_MS, rate: 0 });
    out.push({ at: nowMs, rate: 0 });
  }
  return out;
}
