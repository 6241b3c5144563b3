/**
 * The backup page's server data (`/app/api/backup/*`, docs/desktop.md §3.5): wire types,
 * their parsers, the calls, query options with their keys and polling, and mutation options
 * for every change (settings, back up now, delete, check, restore; in the desktop app, the
 * folder picker and opening the folder through the desktop bridge).
 * @module
 */
import { mutationOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import type { ClientResult } from "../../api/clientError.ts";
import { unwrap } from "../../api/clientFailure.ts";
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
import type { NodeClient } from "../../api/nodeClient.ts";
import { unwrapBridge } from "../../desktop/bridgeFailure.ts";
import type { DesktopApi } from "../../desktop/desktopBridge.ts";
import type { RestartWatch } from "../../services/restartWatch.ts";

export type BackupEvery = "off" | "daily" | "weekly";
export type BackupSchedule = {
  readonly every: BackupEvery;
  readonly hour: number;
  readonly weekday: number;
  readonly keep: number;
};
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

export type Which = { readonly id: string } | { readonly folder: string };

/** A change of the backup settings: any of the folder (null: the default), state, schedule. */
export type BackupSettingsPatch = {
  readonly directory?: string | null;
  readonly includeState?: boolean;
  readonly schedule?: BackupSchedule;
};

export const backupCalls = {
  overview: (c: NodeClient) => c.get("/app/api/backup", parseOverview),
  settings: (c: NodeClient, patch: BackupSettingsPatch) =>
    c.post("/app/api/backup/settings", patch, parseOverview),
  start: (c: NodeClient, includeState: boolean): Promise<ClientResult<string>> =>
    c.post("/app/api/backup/start", { includeState }, (x) => ids(x, "id")),
  job: (c: NodeClient, id: string) =>
    c.get(`/app/api/backup/jobs/${encodeURIComponent(id)}`, parseJob),
  list: (c: NodeClient) => c.get("/app/api/backup/list", parseList),
  remove: (c: NodeClient, id: string) =>
    c.post("/app/api/backup/delete", { id }, (x) => ids(x, "deleted")),
  // Checking reads every file back: large backups take a while.
  check: (c: NodeClient, which: Which) =>
    c.post("/app/api/backup/check", which, parseSummary, { timeoutMs: 300_000 }),
  restore: (c: NodeClient, which: Which) =>
    c.post("/app/api/backup/restore", which, parseRestoreAccepted, { timeoutMs: 300_000 }),
};

export const backupKeys = {
  overview: ["app", "backup"] as const,
  list: ["app", "backup", "list"] as const,
  job: (id: string) => ["app", "backup", "job", id] as const,
};

export function overviewQuery(client: NodeClient) {
  return queryOptions({
    queryKey: backupKeys.overview,
    queryFn: () => unwrap(backupCalls.overview(client)),
    refetchInterval: 10_000,
  });
}

export function listQuery(client: NodeClient) {
  return queryOptions({
    queryKey: backupKeys.list,
    queryFn: () => unwrap(backupCalls.list(client)),
    refetchInterval: 10_000,
  });
}

/** A job's progress, polled every 500 ms while it runs. */
export function jobQuery(client: NodeClient, id: string) {
  return queryOptions({
    queryKey: backupKeys.job(id),
    queryFn: () => unwrap(backupCalls.job(client, id)),
    refetchInterval: (q) => (q.state.data?.status === "backup-in-progress" ? 500 : false),
  });
}

/** Saving a settings change; the answer is the new overview (the list may be another folder's). */
export function saveBackupSettingsMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (patch: BackupSettingsPatch) => unwrap(backupCalls.settings(client, patch)),
    onSuccess: (overview) => {
      queries.setQueryData(backupKeys.overview, overview);
      void queries.invalidateQueries({ queryKey: backupKeys.list });
    },
  });
}

/** "Back up now"; the answer is the new job's id, whose progress and the list are asked. */
export function startBackupMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (includeState: boolean) => unwrap(backupCalls.start(client, includeState)),
    onSuccess: (id) => {
      void queries.invalidateQueries({ queryKey: backupKeys.job(id) });
      void queries.invalidateQueries({ queryKey: backupKeys.list });
    },
  });
}

/** "Delete" a listed backup. */
export function removeBackupMutation(client: NodeClient, queries: QueryClient) {
  return mutationOptions({
    mutationFn: (id: string) => unwrap(backupCalls.remove(client, id)),
    onSuccess: () => queries.invalidateQueries({ queryKey: backupKeys.list }),
  });
}

/**
 * Checking a backup before "Restore" is confirmed (every file read back against its checksum,
 * each time the confirmation opens): an action with an answer, not data kept in the cache.
 */
export function checkBackupMutation(client: NodeClient) {
  return mutationOptions({
    mutationFn: (which: Which) => unwrap(backupCalls.check(client, which)),
  });
}

/** "Restore", confirmed: the node restarts on the backup, which the restart watch follows. */
export function restoreBackupMutation(client: NodeClient, restart: RestartWatch) {
  return mutationOptions({
    mutationFn: (which: Which) => unwrap(backupCalls.restore(client, which)),
    onSuccess: (accepted) => restart.follow(accepted.launchId, "restore"),
  });
}

/**
 * "Choose folder…" (the desktop app): the folder picker's choice, or null when cancelled. A
 * chosen folder is also written to the app's settings, so the shell will open it later.
 */
export function chooseBackupFolderMutation(desktop: DesktopApi | null) {
  return mutationOptions({
    mutationFn: async (current: string) => {
      if (desktop === null) throw new Error("there is no folder picker in a browser");
      const chosen = await unwrapBridge(
        desktop.chooseFolder({ title: "Choose the backup folder", defaultPath: current }),
      );
      if (chosen !== null) void desktop.writeSettings({ backupDir: chosen });
      return chosen;
    },
  });
}

/** "Open folder" (the desktop app): the backup folder in the file manager. */
export function openBackupFolderMutation(desktop: DesktopApi | null) {
  return mutationOptions({
    mutationFn: async (directory: string) => {
      if (desktop === null) throw new Error("there is no file manager to open in a browser");
      // The shell opens only folders it knows: the settings' backup folder is one.
      const s = await desktop.readSettings();
      if (s.ok && s.value.backupDir !== directory) {
        await desktop.writeSettings({ backupDir: directory });
      }
      return unwrapBridge(desktop.openFolder(directory));
    },
  });
}
