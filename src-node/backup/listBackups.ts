/**
 * The backups of a backup directory, oldest first, with their status (as
 * backupFolder.ts reads it: an interrupted job is failed), size, network,
 * cut and error, for `weft backup list` and, later, the UI. Nothing is
 * changed on disk.
 * @module
 */
import type { CutJson } from "../chain/cutJson.ts";
import { backupIds, readFolderState } from "./backupFolder.ts";
import { type BackupStatusValue, manifestBytes } from "./backupManifest.ts";

export type BackupListEntry = {
  readonly id: string;
  readonly folder: string;
  readonly status: BackupStatusValue;
  readonly network: string | null;
  readonly backupPact: boolean | null;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  /** Bytes of the database copies (0 unless done). */
  readonly bytes: number;
  /** Names of the databases it holds (or was copying). */
  readonly databases: readonly string[];
  readonly cut: CutJson | null;
  /** Pages copied and to copy, over all databases (for jobs in progress). */
  readonly pages: { readonly done: number; readonly total: number };
  readonly error: { readonly code: string; readonly message: string } | null;
};

export function listBackups(directory: string, nowMs = Date.now()): BackupListEntry[] {
  return backupIds(directory).flatMap((id) => {
    const state = readFolderState(directory, id, nowMs);
    if (state === undefined) return [];
    const m = state.manifest;
    return [
      {
        id,
        folder: state.folder,
        status: state.status,
        network: m?.network ?? null,
        backupPact: m?.backupPact ?? null,
        startedAt: m?.startedAt ?? null,
        finishedAt: m?.finishedAt ?? null,
        bytes: m === undefined || state.problem !== undefined ? 0 : manifestBytes(m),
        databases: m?.databases.map((d) => d.name) ?? [],
        cut: m?.cut ?? null,
        pages: {
          done: m?.databases.reduce((s, d) => s + d.pages.done, 0) ?? 0,
          total: m?.databases.reduce((s, d) => s + d.pages.total, 0) ?? 0,
        },
        error: state.problem ?? m?.error ?? null,
      },
    ];
  });
}
