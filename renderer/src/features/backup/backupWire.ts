/**
 * The backup page's wire (`/app/api/backup/*`, docs/desktop.md §3.5): the answers' types and
 * their parsers, and the bodies the page sends (the shared table's types). The contract's entries (`endpoints.ts`) read
 * with these parsers; the calls and queries over the entries are `api.ts`'s.
 * @module
 */
import type {
  BackupEvery,
  BackupSchedule,
  BackupSettingsPatch,
  BackupWhich,
} from "../../../../src-node/appContract/appRoutes.ts";
import {
  array,
  boolean,
  type Decoded,
  decode,
  natural,
  nonNegative,
  record,
  reject,
  string,
} from "../../api/decode.ts";

// The bodies' types are the shared table's (src-node/appContract/appRoutes.ts).
export type { BackupEvery, BackupSchedule, BackupSettingsPatch };
export type BackupStatus = "backup-in-progress" | "backup-done" | "backup-failed";
export type CodedError = { readonly code: string; readonly message: string };

export type LastRestore = {
  readonly id: string;
  readonly at: string;
  readonly ok: boolean;
  readonly cutHeight: number | null;
  readonly replacedDir: string | null;
  readonly error: CodedError | null;
};

export type BackupOverview = {
  readonly directory: string;
  readonly defaultDirectory: string;
  readonly chosen: boolean;
  readonly includeState: boolean;
  readonly schedule: BackupSchedule;
  readonly nextAutomatic: string | null;
  readonly runningId: string | null;
  readonly estimate: {
    readonly bytes: number;
    readonly seconds: number;
    readonly bytesWithoutState: number;
    readonly secondsWithoutState: number;
  };
  readonly freshBackupDue: boolean;
  readonly lastRestore: LastRestore | null;
  readonly restartable: boolean;
};

export type BackupJob = {
  readonly id: string;
  readonly status: BackupStatus;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly databases: readonly {
    readonly name: string;
    readonly pages: { readonly done: number; readonly total: number };
  }[];
  readonly bytes: number;
  readonly cutHeight: number | null;
  readonly secondsLeft: number | null;
  readonly error: CodedError | null;
};

export type BackupEntry = {
  readonly id: string;
  readonly folder: string;
  readonly status: BackupStatus;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  readonly bytes: number;
  readonly databases: readonly string[];
  readonly cutHeight: number | null;
  readonly error: CodedError | null;
};

export type BackupSummary = {
  readonly id: string;
  readonly folder: string;
  readonly network: string;
  readonly startedAt: string;
  readonly bytes: number;
  readonly contents: readonly string[];
  readonly cutHeight: number | null;
};

const STATUSES: readonly BackupStatus[] = ["backup-in-progress", "backup-done", "backup-failed"];
const EVERY: readonly BackupEvery[] = ["off", "daily", "weekly"];

const orNull = <T>(x: unknown, f: (x: unknown) => T): T | null => (x === null ? null : f(x));

function status(x: unknown, path: string): BackupStatus {
  const s = string(x, path);
  const found = STATUSES.find((v) => v === s);
  return found ?? reject(path, STATUSES.join(", "));
}

function codedError(x: unknown, path: string): CodedError {
  const o = record(x, path);
  return { code: string(o.code, `${path}.code`), message: string(o.message, `${path}.message`) };
}

function schedule(x: unknown): BackupSchedule {
  const o = record(x, "schedule");
  const every = EVERY.find((e) => e === o.every);
  if (every === undefined) return reject("schedule.every", EVERY.join(", "));
  return {
    every,
    hour: natural(o.hour, "schedule.hour"),
    weekday: natural(o.weekday, "schedule.weekday"),
    keep: natural(o.keep, "schedule.keep"),
  };
}

export function parseOverview(raw: unknown): Decoded<BackupOverview> {
  return decode(raw, (x) => {
    const o = record(x, "backup");
    const e = record(o.estimate, "estimate");
    return {
      directory: string(o.directory, "directory"),
      defaultDirectory: string(o.defaultDirectory, "defaultDirectory"),
      chosen: boolean(o.chosen, "chosen"),
      includeState: boolean(o.includeState, "includeState"),
      schedule: schedule(o.schedule),
      nextAutomatic: orNull(o.nextAutomatic, (v) => string(v, "nextAutomatic")),
      runningId: orNull(o.runningId, (v) => string(v, "runningId")),
      estimate: {
        bytes: natural(e.bytes, "estimate.bytes"),
        seconds: nonNegative(e.seconds, "estimate.seconds"),
        bytesWithoutState: natural(e.bytesWithoutState, "estimate.bytesWithoutState"),
        secondsWithoutState: nonNegative(e.secondsWithoutState, "estimate.secondsWithoutState"),
      },
      freshBackupDue: boolean(o.freshBackupDue, "freshBackupDue"),
      lastRestore: orNull(o.lastRestore, (v) => {
        const r = record(v, "lastRestore");
        return {
          id: string(r.id, "lastRestore.id"),
          at: string(r.at, "lastRestore.at"),
          ok: boolean(r.ok, "lastRestore.ok"),
          cutHeight: orNull(r.cutHeight, (h) => natural(h, "lastRestore.cutHeight")),
          replacedDir: orNull(r.replacedDir, (d) => string(d, "lastRestore.replacedDir")),
          error: orNull(r.error, (err) => codedError(err, "lastRestore.error")),
        };
      }),
      restartable: boolean(o.restartable, "restartable"),
    };
  });
}

export function parseJob(raw: unknown): Decoded<BackupJob> {
  return decode(raw, (x) => {
    const o = record(x, "job");
    return {
      id: string(o.id, "id"),
      status: status(o.status, "status"),
      startedAt: string(o.startedAt, "startedAt"),
      finishedAt: orNull(o.finishedAt, (v) => string(v, "finishedAt")),
      databases: array(o.databases, "databases").map((d, i) => {
        const r = record(d, `databases[${i}]`);
        const p = record(r.pages, `databases[${i}].pages`);
        return {
          name: string(r.name, `databases[${i}].name`),
          pages: {
            done: natural(p.done, `databases[${i}].pages.done`),
            total: natural(p.total, `databases[${i}].pages.total`),
          },
        };
      }),
      bytes: natural(o.bytes, "bytes"),
      cutHeight: orNull(o.cutHeight, (v) => natural(v, "cutHeight")),
      secondsLeft: orNull(o.secondsLeft, (v) => natural(v, "secondsLeft")),
      error: orNull(o.error, (v) => codedError(v, "error")),
    };
  });
}

export function parseList(raw: unknown): Decoded<readonly BackupEntry[]> {
  return decode(raw, (x) =>
    array(record(x, "list").backups, "backups").map((b, i) => {
      const o = record(b, `backups[${i}]`);
      const cut = o.cut === null ? null : record(o.cut, `backups[${i}].cut`);
      return {
        id: string(o.id, `backups[${i}].id`),
        folder: string(o.folder, `backups[${i}].folder`),
        status: status(o.status, `backups[${i}].status`),
        startedAt: orNull(o.startedAt, (v) => string(v, `backups[${i}].startedAt`)),
        finishedAt: orNull(o.finishedAt, (v) => string(v, `backups[${i}].finishedAt`)),
        bytes: natural(o.bytes, `backups[${i}].bytes`),
        databases: array(o.databases, `backups[${i}].databases`).map((d, j) =>
          string(d, `backups[${i}].databases[${j}]`),
        ),
        cutHeight: cut === null ? null : natural(cut.height, `backups[${i}].cut.height`),
        error: orNull(o.error, (v) => codedError(v, `backups[${i}].error`)),
      };
    }),
  );
}

export function parseSummary(raw: unknown): Decoded<BackupSummary> {
  return decode(raw, (x) => {
    const o = record(x, "backup");
    return {
      id: string(o.id, "id"),
      folder: string(o.folder, "folder"),
      network: string(o.network, "network"),
      startedAt: string(o.startedAt, "startedAt"),
      bytes: natural(o.bytes, "bytes"),
      contents: array(o.contents, "contents").map((c, i) => string(c, `contents[${i}]`)),
      cutHeight: orNull(o.cutHeight, (v) => natural(v, "cutHeight")),
    };
  });
}

export function parseRestoreAccepted(
  raw: unknown,
): Decoded<{ launchId: string; backup: BackupSummary }> {
  return decode(raw, (x) => {
    const o = record(x, "restore");
    const backup = parseSummary(o.backup);
    if (!backup.ok) return reject("backup", backup.error);
    return { launchId: string(o.launchId, "launchId"), backup: backup.value };
  });
}

export const ids = (x: unknown, key: string) => decode(x, (v) => string(record(v, key)[key], key));

/** A listed backup (`id`) or any folder (`folder`): the body of a check and a restore. */
export type Which = BackupWhich;
