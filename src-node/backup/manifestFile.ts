/**
 * Reading and writing a backup folder's manifest.json. Writes go to a
 * temporary file that is then renamed over the manifest, so a reader (or a
 * crash) never sees half a manifest; final states are also flushed to disk
 * before the rename, so `backup-done` survives a power loss once reported.
 * @module
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_FILE_MODE } from "../store/privateFiles.ts";
import {
  type BackupManifest,
  MANIFEST_FILE,
  manifestText,
  parseManifest,
} from "./backupManifest.ts";
import { BackupError, BackupErrorCode, reasonOf } from "./errors.ts";

/** `folder/manifest.json` */
export function manifestPath(folder: string): string {
  return join(folder, MANIFEST_FILE);
}

/**
 * The manifest of a backup folder, or undefined when the folder has none.
 * @throws {BackupError} BACKUP_BAD_MANIFEST when it cannot be read or is malformed.
 */
export function readManifest(folder: string): BackupManifest | undefined {
  const path = manifestPath(folder);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new BackupError(
      { code: BackupErrorCode.BadManifest, path, reason: reasonOf(e) },
      `${path}: cannot read the manifest: ${reasonOf(e)}`,
      { cause: e },
    );
  }
  return parseManifest(text, path);
}

/**
 * Replaces the manifest of `folder` in one step.
 * @param durable flush the file to disk first (final states).
 * @throws the file-system error (a full disk, no permission).
 */
export function writeManifest(folder: string, manifest: BackupManifest, durable: boolean): void {
  const path = manifestPath(folder);
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", PRIVATE_FILE_MODE);
  try {
    writeSync(fd, manifestText(manifest));
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
