/**
 * Measurement times of the fixed-length benchmarks, scaled by
 * `WEFT_BENCH_SCALE` (default 1): the smoke test that checks every
 * benchmark still runs uses a small scale; figures are taken at 1.
 */
const SCALE = Number(process.env.WEFT_BENCH_SCALE ?? "1");

/** `ms` times the scale, at least `min` ms. */
export function scaled(ms: number, min = 1): number {
  return Math.max(min, Math.round(ms * (Number.isFinite(SCALE) && SCALE > 0 ? SCALE : 1)));
}
