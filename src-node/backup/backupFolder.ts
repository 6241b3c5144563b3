/**
 * The status of a backup folder as read from disk, for any reader (the
 * node's backup service, `weft backup list`): the manifest's status, except
 * that a job still marked in progress whose process is gone is
 * `backup-failed` (BACKUP_INTERRUPTED), never in progress forever. The
 * owner is gone when, on this host, its process no longer runs
 * (processLiveness.ts); for a job of another host, when its manifest has
 * not been rewritten for {@link STALE_AFTER_MS} (a running job rewrites it
 * every second or so). A folder without a manifest is one whose job died
 * before writing it. {@link settleInterrupted} records the verdict in the
 * manifest and removes the partial copies.
 * @module
 */

import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { isSystemError } from "../errors/systemError.ts";
import { compareBackupIds, isBackupId } from "./backupId.ts";
import { type BackupManifest, BackupStatus, type BackupStatusValue } from "./backupManifest.ts";
import { BackupErrorCode, reasonOf } from "./errors.ts";
import { manifestPath, readManifest, writeManifest } from "./manifestFile.ts";
import { recordAlive } from "./processLiveness.ts";

/** A job of another host whose manifest is older than this is taken as abandoned. */
export const STALE_AFTER_MS = 60_000;

export type FolderState = {
  readonly id: string;
  readonly folder: string;
  /** The status to report. */
  readonly status: BackupStatusValue;
  /** The manifest, when the folder has a readable one. */
  readonly manifest: BackupManifest | undefined;
  /** Why the status is `backup-failed` when the manifest does not say so itself. */
  readonly problem: { readonly code: string; readonly message: string } | undefined;
};

function mtimeMs(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether the process running an in-progress job is gone. */
export function ownerGone(manifest: BackupManifest, folder: string, nowMs: number): boolean {
  const alive = recordAlive(manifest.owner);
  if (alive !== undefined) return !alive;
  const written = mtimeMs(manifestPath(folder));
  return written === undefined || nowMs - written > STALE_AFTER_MS;
}

const INTERRUPTED_MESSAGE =
  "interrupted: the process running the backup stopped before it finished";

/** The state of the backup folder `directory/id` (undefined when there is no such folder). */
export function readFolderState(
  directory: string,
  id: string,
  nowMs: number,
): FolderState | undefined {
  const folder = join(directory, id);
  try {
    if (!statSync(folder).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  let manifest: BackupManifest | undefined;
  try {
    manifest = readManifest(folder);
  } catch (e) {
    return {
      id,
      folder,
      status: BackupStatus.Failed,
      manifest: undefined,
      problem: { code: BackupErrorCode.BadManifest, message: reasonOf(e) },
    };
  }
  if (manifest === undefined) {
    return {
      id,
      folder,
      status: BackupStatus.Failed,
      manifest: undefined,
      problem: {
        code: BackupErrorCode.Interrupted,
        message: `${INTERRUPTED_MESSAGE} (no manifest)`,
      },
    };
  }
  if (manifest.status === BackupStatus.InProgress && ownerGone(manifest, folder, nowMs)) {
    return {
      id,
      folder,
      status: BackupStatus.Failed,
      manifest,
      problem: { code: BackupErrorCode.Interrupted, message: INTERRUPTED_MESSAGE },
    };
  }
  return { id, folder, status: manifest.status, manifest, problem: undefined };
}

/**
 * Records an interrupted job as failed in its manifest and removes its
 * partial copies. Best effort: a folder that cannot be written stays as it
 * is and keeps reading as failed.
 * @returns whether the manifest was rewritten.
 */
export function settleInterrupted(state: FolderState, nowMs: number): boolean {
  const m = state.manifest;
  if (m === undefined || m.status !== BackupStatus.InProgress || state.problem === undefined) {
    return false;
  }
  for (const d of m.databases) {
    for (const side of ["", "-journal", "-wal", "-shm"]) {
      try {
        rmSync(join(state.folder, `${d.file}${side}`), { force: true });
      } catch (e) {
        if (!isSystemError(e)) throw e;
        // Left in place: the manifest still says failed, so the copy is never restored.
      }
    }
  }
  try {
    writeManifest(
      state.folder,
      {
        ...m,
        status: BackupStatus.Failed,
        finishedAt: new Date(nowMs).toISOString(),
        databases: m.databases.map((d) => ({ ...d, bytes: null, sha256: null })),
        error: state.problem,
      },
      true,
    );
    return true;
  } catch {
    return false;
  }
}

/** The ids of the backup folders in `directory`, oldest first (none when it cannot be read). */
export function backupIds(directory: string): string[] {
  let names: string[];
  try {
    names = readdirSync(directory, { withFileTypes: true })
      .filter((e) => e.isDirectory() && isBackupId(e.name))
      .map((e) => e.name);
  } catch {
    return [];
  }
  return names.sort(compareBackupIds);
}
