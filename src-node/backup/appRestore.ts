/**
 * Restore as the app does it (docs/backup.md "Restore from the app"): check a backup folder
 * first and describe what it holds, refusing one of another network; then, while the node
 * is stopped (the host's restart step, api/nodeRestart.ts), restore it exactly as
 * `weft restore` does (restoreBackup.ts: old databases kept in `replaced-<time>/`) and
 * record the outcome in `dataDir/<network>/last-restore.json` for the restarted node to show.
 * @module
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isNodeError } from "../errors/nodeError.ts";
import { isSystemError } from "../errors/systemError.ts";
import { writePrivateFile } from "../store/privateFiles.ts";
import { manifestBytes } from "./backupManifest.ts";
import { BackupError, BackupErrorCode, reasonOf } from "./errors.ts";
import { checkBackupFolder, restoreBackup } from "./restoreBackup.ts";

export const LAST_RESTORE_FILE = "last-restore.json";

/** What a checked backup holds. */
export type BackupSummary = {
  readonly id: string;
  readonly folder: string;
  readonly network: string;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly bytes: number;
  /** `blocks`, `state`, `wallet/keystore.json`, … */
  readonly contents: readonly string[];
  readonly cutHeight: number | null;
};

/** The outcome of the last restore, as the restarted node reads it. */
export type LastRestore = {
  readonly id: string;
  readonly folder: string;
  /** ISO 8601. */
  readonly at: string;
  readonly ok: boolean;
  readonly cutHeight: number | null;
  /** Where the replaced databases went. */
  readonly replacedDir: string | null;
  readonly error: { readonly code: string; readonly message: string } | null;
};

/**
 * Checks a backup folder (manifest, every file's checksum) for a restore on `network`.
 * @throws {BackupError} BACKUP_NOT_RESTORABLE with the reason (and the check's code).
 */
export async function checkForApp(folder: string, network: string): Promise<BackupSummary> {
  let checked: Awaited<ReturnType<typeof checkBackupFolder>>;
  try {
    checked = await checkBackupFolder(folder);
  } catch (e) {
    if (!isNodeError(e)) throw e;
    throw new BackupError(
      { code: BackupErrorCode.NotRestorable, path: folder, cause: e.code },
      `${e.message} (${e.code})`,
      { cause: e },
    );
  }
  const m = checked.manifest;
  if (m.network !== network) {
    throw new BackupError(
      { code: BackupErrorCode.NotRestorable, path: folder, cause: BackupErrorCode.WrongNetwork },
      `${folder} is a backup of the ${m.network} network; this node runs ${network}`,
    );
  }
  return {
    id: m.id,
    folder,
    network: m.network,
    startedAt: m.startedAt,
    finishedAt: m.finishedAt,
    bytes: manifestBytes(m),
    contents: m.databases.map((d) => (d.kind === "file" ? d.file : d.name)),
    cutHeight: m.cut?.height ?? null,
  };
}

/** Restores `folder` into `dataDir` (the node stopped) and records how it went; never throws. */
export async function restoreAndRecord(options: {
  readonly folder: string;
  readonly id: string;
  readonly dataDir: string;
  readonly networkDir: string;
  readonly now?: (() => number) | undefined;
  readonly log?: { info(m: string, f?: Record<string, unknown>): void } | undefined;
}): Promise<LastRestore> {
  const now = options.now ?? Date.now;
  let record: LastRestore;
  try {
    const r = await restoreBackup({
      backupFolder: options.folder,
      dataDir: options.dataDir,
      now,
      progress: (line) => options.log?.info(`restore: ${line}`),
    });
    record = {
      id: r.id,
      folder: options.folder,
      at: new Date(now()).toISOString(),
      ok: true,
      cutHeight: r.cut?.height ?? null,
      replacedDir: r.replacedDir ?? null,
      error: null,
    };
  } catch (e) {
    record = {
      id: options.id,
      folder: options.folder,
      at: new Date(now()).toISOString(),
      ok: false,
      cutHeight: null,
      replacedDir: null,
      error: { code: isNodeError(e) ? e.code : "BACKUP_RESTORE_FAILED", message: reasonOf(e) },
    };
  }
  try {
    writePrivateFile(
      join(options.networkDir, LAST_RESTORE_FILE),
      `${JSON.stringify(record, null, 2)}\n`,
    );
  } catch (e) {
    if (!isSystemError(e)) throw e;
    // The record only lets the app show the outcome after a restart; the caller gets it now
    // and the host logs it, so a data folder that cannot take the file loses nothing else.
  }
  return record;
}

/** The last restore's outcome, if one was recorded (and parses). */
export function readLastRestore(networkDir: string): LastRestore | null {
  const path = join(networkDir, LAST_RESTORE_FILE);
  if (!existsSync(path)) return null;
  try {
    const o = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === "string" ? v : null);
    const error = o.error as Record<string, unknown> | null;
    if (typeof o.ok !== "boolean" || str(o.id) === null || str(o.at) === null) return null;
    return {
      id: o.id as string,
      folder: str(o.folder) ?? "",
      at: o.at as string,
      ok: o.ok,
      cutHeight: typeof o.cutHeight === "number" ? o.cutHeight : null,
      replacedDir: str(o.replacedDir),
      error:
        error !== null && typeof error === "object"
          ? { code: str(error.code) ?? "", message: str(error.message) ?? "" }
          : null,
    };
  } catch {
    return null;
  }
}
