/**
 * The app's one way of writing a moment: "2026-12-02 04:58:10 UTC" — date and 24-hour time in
 * UTC, the same on every machine (blocks carry UTC times, and a log, a backup and a
 * transaction read side by side must agree). Used for block and transaction times, expiries,
 * backups, the log and the history; the chart's axis alone shows "04:58" (its caption says
 * UTC). docs/desktop.md "Dates and times".
 * @module
 */

/** The ISO parts of `ms` (since the UNIX epoch), or null when it is no time. */
function isoOf(ms: number): string | null {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** ms since the UNIX epoch → "2026-12-02 04:58:10 UTC" ("unknown" for no time). */
export function formatDateTime(ms: number): string {
  const iso = isoOf(ms);
  return iso === null ? "unknown" : `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** The date and the time of {@link formatDateTime} apart (so a line may wrap between them). */
export function dateTimeParts(ms: number): { readonly date: string; readonly time: string } | null {
  const iso = isoOf(ms);
  return iso === null ? null : { date: iso.slice(0, 10), time: `${iso.slice(11, 19)} UTC` };
}

/** ms → "04:58" (UTC), for a chart's axis over the last hour. */
export function formatClock(ms: number): string {
  const iso = isoOf(ms);
  return iso === null ? "" : iso.slice(11, 16);
}
