/**
 * The app's automatic backups as plain functions of a clock (docs/backup.md "Automatic
 * backups"): when a schedule (off, daily or weekly at an hour of this computer's local
 * time) is due, and which backups a retention of "keep the last N" removes. The service
 * (appBackups.ts) runs them while the node runs; a time missed while the node was stopped
 * is due at the next start, once.
 * @module
 */

export type BackupEvery = "off" | "daily" | "weekly";

export type BackupSchedule = {
  readonly every: BackupEvery;
  /** Hour of the day, 0–23, local time. */
  readonly hour: number;
  /** Day of the week for `weekly`, 0 = Sunday … 6 = Saturday. */
  readonly weekday: number;
  /** Finished backups kept (the oldest beyond are removed after an automatic one), 1–1000. */
  readonly keep: number;
};

export const DEFAULT_SCHEDULE: BackupSchedule = { every: "off", hour: 3, weekday: 0, keep: 7 };

const DAY_MS = 24 * 3600 * 1000;

/** The latest scheduled time at or before `nowMs` (ms), or null when off. */
export function lastSlot(schedule: BackupSchedule, nowMs: number): number | null {
  if (schedule.every === "off") return null;
  const now = new Date(nowMs);
  const slot = new Date(now.getFullYear(), now.getMonth(), now.getDate(), schedule.hour);
  if (schedule.every === "weekly") {
    const back = (slot.getDay() - schedule.weekday + 7) % 7;
    slot.setDate(slot.getDate() - back);
  }
  if (slot.getTime() > nowMs) slot.setDate(slot.getDate() - (schedule.every === "weekly" ? 7 : 1));
  return slot.getTime();
}

/** The next scheduled time after `nowMs`, or null when off. */
export function nextSlot(schedule: BackupSchedule, nowMs: number): number | null {
  const last = lastSlot(schedule, nowMs);
  if (last === null) return null;
  const next = new Date(last);
  next.setDate(next.getDate() + (schedule.every === "weekly" ? 7 : 1));
  // Local days are not always 24 h long (summer time): setDate keeps the hour.
  return next.getTime() > nowMs ? next.getTime() : next.getTime() + DAY_MS;
}

/**
 * Whether an automatic backup is due: the latest scheduled time is after the last
 * automatic run and after the schedule was set (turning it on at 10:00 for 03:00 does not
 * run one at once; a 03:00 missed while the node was stopped runs at its next start).
 */
export function isDue(
  schedule: BackupSchedule,
  nowMs: number,
  lastRunMs: number | null,
  setAtMs: number,
): boolean {
  const slot = lastSlot(schedule, nowMs);
  if (slot === null) return false;
  return slot > Math.max(lastRunMs ?? Number.NEGATIVE_INFINITY, setAtMs);
}

/**
 * The ids a retention of `keep` removes: finished backups (`backup-done`) beyond the `keep`
 * newest, given the folder's backups oldest first. Failed and running ones are left alone.
 */
export function idsToPrune(
  backups: readonly { readonly id: string; readonly status: string }[],
  keep: number,
): string[] {
  const done = backups.filter((b) => b.status === "backup-done");
  return done.slice(0, Math.max(0, done.length - keep)).map((b) => b.id);
}
