/**
 * Small private files replaced whole and atomically: the text goes to a temporary file beside
 * the target (mode 0600, created exclusively), is flushed to disk (fsync), and is renamed over
 * the target; the folder is then flushed so the rename survives a crash. A reader sees the
 * old file or the new one, never a mix or an empty file. Used for the wallet's
 * `wallet/keystore.json` (and its later `pending.json`).
 * @module
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { makePrivateDir, PRIVATE_FILE_MODE } from "./privateFiles.ts";

/** Replaces `path` with `text` atomically (making its folder, 0700, if needed). */
export function writeFileAtomic(path: string, text: string): void {
  const dir = dirname(path);
  makePrivateDir(dir);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", PRIVATE_FILE_MODE);
  try {
    try {
      const bytes = Buffer.from(text, "utf8");
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
  syncDir(dir);
}

function syncDir(dir: string): void {
  // Windows cannot open a folder for fsync; there the rename is what there is.
  if (process.platform === "win32") return;
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The text of `path`, or undefined when it does not exist. */
export function readFileIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}
