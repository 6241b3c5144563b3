/**
 * The app's backup schedule (src-node/backup/backupSchedule.ts) with an injected clock:
 * daily and weekly slots in local time, a slot missed while the node was stopped is due at
 * the next start once, turning the schedule on after today's hour waits for tomorrow, and
 * retention keeps the newest N finished backups only.
 */
import { describe, expect, it } from "vitest";
import {
  type BackupSchedule,
  idsToPrune,
  isDue,
  lastSlot,
  nextSlot,
} from "../../src-node/backup/backupSchedule.ts";

const at = (d: number, h: number, m = 0) => new Date(2026, 10, d, h, m).getTime();
const daily: BackupSchedule = { every: "daily", hour: 3, weekday: 0, keep: 2 };
// 2026-11-26 is a Thursday (4); weekly on Monday (1).
const weekly: BackupSchedule = { every: "weekly", hour: 22, weekday: 1, keep: 2 };

describe("[backup] schedule", () => {
  it("finds the last and next daily and weekly slots", () => {
    expect(lastSlot(daily, at(26, 10))).toBe(at(26, 3));
    expect(lastSlot(daily, at(26, 2, 59))).toBe(at(25, 3));
    expect(lastSlot(daily, at(26, 3))).toBe(at(26, 3));
    expect(nextSlot(daily, at(26, 10))).toBe(at(27, 3));
    expect(lastSlot(weekly, at(26, 10))).toBe(at(23, 22));
    expect(nextSlot(weekly, at(26, 10))).toBe(at(30, 22));
    expect(lastSlot(weekly, at(23, 21))).toBe(at(16, 22));
    expect(lastSlot({ ...daily, every: "off" }, at(26, 10))).toBeNull();
    expect(nextSlot({ ...daily, every: "off" }, at(26, 10))).toBeNull();
  });

  it("is due once per slot, catches up a missed slot at the next start, not before it was set", () => {
    const setAt = at(20, 12);
    // Ran at 03:00 on the 25th; at 10:00 on the 25th nothing is due.
    expect(isDue(daily, at(25, 10), at(25, 3), setAt)).toBe(false);
    // The node was stopped over 03:00 on the 26th: due when it starts at 10:00.
    expect(isDue(daily, at(26, 10), at(25, 3), setAt)).toBe(true);
    // Once run, not again until the next slot.
    expect(isDue(daily, at(26, 11), at(26, 10), setAt)).toBe(false);
    expect(isDue(daily, at(27, 3), at(26, 10), setAt)).toBe(true);
    // Turned on at 10:00 for 03:00: the first one is tomorrow's.
    expect(isDue(daily, at(26, 10, 1), null, at(26, 10))).toBe(false);
    expect(isDue(daily, at(27, 3), null, at(26, 10))).toBe(true);
    expect(isDue(weekly, at(26, 10), null, at(20, 0))).toBe(true);
    expect(isDue(weekly, at(26, 10), at(23, 22), at(20, 0))).toBe(false);
  });

  it("keeps the newest N finished backups", () => {
    const list = [
      { id: "100", status: "backup-done" },
      { id: "200", status: "backup-failed" },
      { id: "300", status: "backup-done" },
      { id: "400", status: "backup-done" },
      { id: "500", status: "backup-in-progress" },
    ];
    expect(idsToPrune(list, 2)).toEqual(["100"]);
    expect(idsToPrune(list, 1)).toEqual(["100", "300"]);
    expect(idsToPrune(list, 5)).toEqual([]);
  });
});
