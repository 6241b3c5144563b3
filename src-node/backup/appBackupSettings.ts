/**
 * What the app remembers about its backups, in one file the node keeps beside the data:
 * `dataDir/<network>/app-backup.json` (0600), the same for the desktop and a headless node
 * (docs/backup.md "The app's backups"): the folder chosen (null: the default `backups`
 * folder beside the data folder), whether the contract state is included, the automatic
 * schedule, when it was set and when an automatic backup last ran. Read with a parser: a
 * file that does not parse is set aside as `app-backup.json.invalid` and the defaults used.
 * @module
 */

import { existsSync, readFileSync, renameSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { isSystemError } from "../errors/systemError.ts";
import { writePrivateFile } from "../store/privateFiles.ts";
import { type BackupEvery, type BackupSchedule, DEFAULT_SCHEDULE } from "./backupSchedule.ts";

export const APP_BACKUP_SETTINGS_FILE = "app-backup.json";

export type AppBackupSettings = {
  readonly version: 1;
  /** Absolute, or null for the default folder. */
  readonly directory: string | null;
  readonly includeState: boolean;
  readonly schedule: BackupSchedule;
  /** When the schedule was last changed, ms (a slot before it is not due). */
  readonly scheduleSetAt: number;
  /** When an automatic backup last started, ms; null: never. */
  readonly lastAutoRunAt: number | null;
};

export function defaultAppBackupSettings(nowMs: number): AppBackupSettings {
  return {
    version: 1,
    directory: null,
    includeState: true,
    schedule: DEFAULT_SCHEDULE,
    scheduleSetAt: nowMs,
    lastAutoRunAt: null,
  };
}

const EVERY: readonly BackupEvery[] = ["off", "daily", "weekly"];

function intIn(v: unknown, lo: number, hi: number): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= lo && v <= hi;
}

/** Whether `s` is a schedule within its bounds (hour 0–23, weekday 0–6, keep 1–1000). */
export function isSchedule(s: unknown): s is BackupSchedule {
  if (typeof s !== "object" || s === null) return false;
  const o = s as Record<string, unknown>;
  return (
    EVERY.includes(o.every as BackupEvery) &&
    intIn(o.hour, 0, 23) &&
    intIn(o.weekday, 0, 6) &&
    intIn(o.keep, 1, 1000)
  );
}

/** The settings in `text`, or null when they do not parse. */
export function parseAppBackupSettings(text: string): AppBackupSettings | null {
  let o: Record<string, unknown>;
  try {
    const doc: unknown = JSON.parse(text);
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return null;
    o = doc as Record<string, unknown>;
  } catch {
    return null;
  }
  const directory = o.directory;
  if (o.version !== 1) return null;
  if (directory !== null && (typeof directory !== "string" || !isAbsolute(directory))) return null;
  if (typeof o.includeState !== "boolean" || !isSchedule(o.schedule)) return null;
  if (!intIn(o.scheduleSetAt, 0, Number.MAX_SAFE_INTEGER)) return null;
  const last = o.lastAutoRunAt;
  if (last !== null && !intIn(last, 0, Number.MAX_SAFE_INTEGER)) return null;
  const s = o.schedule as BackupSchedule;
  return {
    version: 1,
    directory,
    includeState: o.includeState,
    schedule: { every: s.every, hour: s.hour, weekday: s.weekday, keep: s.keep },
    scheduleSetAt: o.scheduleSetAt,
    lastAutoRunAt: last,
  };
}

/** Reads the settings of `networkDir` (defaults when missing or invalid). */
export function readAppBackupSettings(
  networkDir: string,
  nowMs: number,
  warn?: (message: string, fields: Record<string, unknown>) => void,
): AppBackupSettings {
  const path = join(networkDir, APP_BACKUP_SETTINGS_FILE);
  if (!existsSync(path)) return defaultAppBackupSettings(nowMs);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    warn?.("cannot read the app's backup settings; using the defaults", {
      path,
      error: e instanceof Error ? e.message : String(e),
    });
    return defaultAppBackupSettings(nowMs);
  }
  const parsed = parseAppBackupSettings(text);
  if (parsed !== null) return parsed;
  warn?.("the app's backup settings do not parse; set aside, using the defaults", { path });
  try {
    renameSync(path, `${path}.invalid`);
  } catch (e) {
    if (!isSystemError(e)) throw e;
    // Kept where it is: the next write replaces it, and the defaults apply either way.
  }
  return defaultAppBackupSettings(nowMs);
}

/** Writes the settings (0600; the folder exists: the node made it). */
export function writeAppBackupSettings(networkDir: string, settings: AppBackupSettings): void {
  const path = join(networkDir, APP_BACKUP_SETTINGS_FILE);
  const tmp = `${path}.tmp`;
  writePrivateFile(tmp, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(tmp, path);
}
