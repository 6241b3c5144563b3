/**
 * The node's files are the user's alone (docs/node.md "Files"): folders the
 * node makes are 0700, files 0600 (databases and their -wal and -shm files,
 * the lock, the app token, backups and their manifests), whatever the
 * process's umask. Folders and files made by older releases are tightened
 * when the node opens them. On Windows the modes mean little; the user's
 * profile folder already keeps others out.
 * @module
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync, writeFileSync } from "node:fs";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

function chmodIfOwnedAndLooser(path: string, mode: number): void {
  try {
    const s = statSync(path);
    // Only what this user owns can be changed; a folder shared on purpose
    // (another owner) is left alone.
    if (typeof process.getuid === "function" && s.uid !== process.getuid()) return;
    if ((s.mode & 0o777) !== mode) chmodSync(path, mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

/** Makes `dir` (and missing parents) 0700; an existing `dir` is set to 0700. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodIfOwnedAndLooser(dir, PRIVATE_DIR_MODE);
}

/** Sets an existing file to 0600 (a missing one is ignored). */
export function makePrivateFile(path: string): void {
  chmodIfOwnedAndLooser(path, PRIVATE_FILE_MODE);
}

/**
 * Creates `path` empty with mode 0600 if it does not exist, else sets it to
 * 0600: SQLite then creates the database's -wal and -shm files with the same
 * mode as the database file.
 */
export function touchPrivateFile(path: string): void {
  closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
  makePrivateFile(path);
}

/** Writes `text` to `path` with mode 0600 (replacing what was there). */
export function writePrivateFile(path: string, text: string): void {
  writeFileSync(path, text, { mode: PRIVATE_FILE_MODE });
  makePrivateFile(path);
}
