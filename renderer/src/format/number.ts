/**
 * Number and hash formatting for display. Output is fixed (en-US digits grouping) so the
 * same value reads the same on every machine and in tests.
 * @module
 */

const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** 1234567 → "1,234,567" */
export function formatInteger(n: number): string {
  return grouped.format(n);
}

const HASH_RATE_UNITS = ["H/s", "kH/s", "MH/s", "GH/s", "TH/s", "PH/s"] as const;

/** Hashes per second with three significant digits: 0 → "0 H/s", 1534000 → "1.53 MH/s". */
export function formatHashRate(hashesPerSecond: number): string {
  if (!Number.isFinite(hashesPerSecond) || hashesPerSecond <= 0) return "0 H/s";
  let value = hashesPerSecond;
  let unit = 0;
  while (value >= 999.5 && unit < HASH_RATE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : value >= 99.95 ? 0 : value >= 9.995 ? 1 : 2;
  return `${value.toFixed(digits)} ${HASH_RATE_UNITS[unit]}`;
}

/** The start of a long hash for tables: "CNHrpXbArO…". */
export function shortHash(hash: string, keep = 10): string {
  return hash.length <= keep + 1 ? hash : `${hash.slice(0, keep)}…`;
}

/** A count and its noun, singular for one: (1, "transaction") → "1 transaction", 3 → "3 transactions". */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatInteger(n)} ${n === 1 ? noun : plural}`;
}
