/**
 * A file kept aside before something replaces it: an exact copy beside it named
 * `<name>-replaced-<UTC time>.<ext>` (`keystore-replaced-2026-12-02T04-58-10-123Z.json`), 0600,
 * created exclusively (a second copy in the same millisecond gets `-2`, `-3`, …, never
 * overwriting one), flushed to disk before the caller replaces the original. Nothing here
 * deletes anything. Used when the wallet is replaced (docs/wallet.md "Replacing the wallet").
 * @module
 */
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { PRIVATE_FILE_MODE } from "./privateFiles.ts";

/** The most copies one millisecond can name (`-2` … `-1000`); past it something is wrong. */
const MAX_SAME_STAMP = 1000;

/**
 * Copies `path` aside (see the module); returns the copy's path, or undefined when `path`
 * does not exist (nothing to keep).
 */
export function keepCopyAside(path: string, nowMs: number): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  const ext = extname(path);
  const stem = basename(path, ext);
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, "-");
  for (let n = 1; n <= MAX_SAME_STAMP; n++) {
    const copy = join(dirname(path), `${stem}-replaced-${stamp}${n === 1 ? "" : `-${n}`}${ext}`);
    let fd: number;
    try {
      fd = openSync(copy, "wx", PRIVATE_FILE_MODE);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw e;
    }
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return copy;
  }
  throw new Error(`${MAX_SAME_STAMP} copies of ${basename(path)} in one millisecond`);
}
