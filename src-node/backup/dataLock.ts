/**
 * The lock of a network's data folder, `dataDir/<network>/node.lock`: a
 * running node holds it (createNode takes it before opening the databases
 * and releases it when closed), and so does `weft restore` while it replaces
 * the databases, so neither can change files the other is using.
 *
 * The file is JSON naming the holder (pid, host, boot time, token,
 * purpose, start time). It is created exclusively; a lock whose holder is
 * no longer running (processLiveness.ts) is stale and taken over. A lock of
 * another host is respected: only the operator can tell whether that node
 * still runs (the error says which file to delete).
 * @module
 */

import {
  closeSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { isSystemError } from "../errors/systemError.ts";
import { makePrivateDir, PRIVATE_FILE_MODE } from "../store/privateFiles.ts";
import { BackupError, BackupErrorCode, reasonOf } from "./errors.ts";
import {
  newProcessRecord,
  type ProcessRecord,
  recordAlive,
  releaseRecord,
} from "./processLiveness.ts";

export const LOCK_FILE = "node.lock";

export type DataLockPurpose = "node" | "restore";

export type DataLock = {
  /** The lock file. */
  readonly path: string;
  /** Removes the lock file if it is still this lock's (idempotent). */
  release(): void;
};

type LockRecord = ProcessRecord & { readonly purpose: string; readonly startedAt: string };

function parseLock(text: string): LockRecord | undefined {
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== "object" || v === null) return undefined;
    const r = v as Record<string, unknown>;
    const { pid, host, bootTime, token, purpose, startedAt } = r;
    if (
      typeof pid !== "number" ||
      typeof host !== "string" ||
      typeof bootTime !== "number" ||
      typeof token !== "string" ||
      typeof purpose !== "string" ||
      typeof startedAt !== "string"
    ) {
      return undefined;
    }
    return { pid, host, bootTime, token, purpose, startedAt };
  } catch {
    return undefined;
  }
}

/** An unreadable lock file younger than this may be one being written: it counts as held. */
const UNREADABLE_GRACE_MS = 5_000;

/** The lock's holder; "missing"; or "unreadable" (a holder that died while writing it). */
function readLock(path: string): LockRecord | "missing" | "unreadable" {
  try {
    return parseLock(readFileSync(path, "utf8")) ?? "unreadable";
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw e;
  }
}

function youngerThanGrace(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < UNREADABLE_GRACE_MS;
  } catch {
    return false;
  }
}

const UNKNOWN_HOLDER: LockRecord = {
  pid: 0,
  host: "unknown",
  bootTime: 0,
  token: "",
  purpose: "node",
  startedAt: "just now",
};

function inUse(path: string, holder: LockRecord): BackupError {
  const what = holder.purpose === "restore" ? "a restore" : "a running node";
  return new BackupError(
    { code: BackupErrorCode.DataInUse, lockFile: path, pid: holder.pid, host: holder.host },
    `the data folder is in use by ${what} (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}); stop it first, or delete ${path} if no node runs there`,
  );
}

function failed(path: string, e: unknown): BackupError {
  return new BackupError(
    { code: BackupErrorCode.LockFailed, lockFile: path, reason: reasonOf(e) },
    `cannot lock the data folder (${path}): ${reasonOf(e)}`,
    { cause: e },
  );
}

/**
 * Takes the lock of `networkDir` (created when missing).
 * @throws {BackupError} BACKUP_DATA_IN_USE when a running process holds it;
 *   BACKUP_LOCK_FAILED when the lock file cannot be written or read.
 */
export function acquireDataLock(networkDir: string, purpose: DataLockPurpose): DataLock {
  const path = join(networkDir, LOCK_FILE);
  const me = newProcessRecord();
  const record: LockRecord = { ...me, purpose, startedAt: new Date().toISOString() };
  try {
    makePrivateDir(networkDir);
  } catch (e) {
    releaseRecord(me);
    throw failed(path, e);
  }
  // Two rounds: the second follows the removal of a stale lock.
  for (let round = 0; round < 2; round++) {
    let fd: number;
    try {
      fd = openSync(path, "wx", PRIVATE_FILE_MODE);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") {
        releaseRecord(me);
        throw failed(path, e);
      }
      let holder: ReturnType<typeof readLock>;
      try {
        holder = readLock(path);
      } catch (e2) {
        releaseRecord(me);
        throw failed(path, e2);
      }
      if (holder === "missing") continue;
      if (holder === "unreadable" ? youngerThanGrace(path) : recordAlive(holder) !== false) {
        releaseRecord(me);
        throw inUse(path, holder === "unreadable" ? UNKNOWN_HOLDER : holder);
      }
      // Stale: its holder is gone. Moved away
      // under a unique name, so that two processes racing here remove it once.
      const aside = `${path}.stale-${me.token}`;
      try {
        renameSync(path, aside);
        rmSync(aside, { force: true });
      } catch (e2) {
        if ((e2 as NodeJS.ErrnoException).code !== "ENOENT") {
          releaseRecord(me);
          throw failed(path, e2);
        }
      }
      continue;
    }
    try {
      writeSync(fd, `${JSON.stringify(record)}\n`);
    } finally {
      closeSync(fd);
    }
    let released = false;
    return {
      path,
      release() {
        if (released) return;
        released = true;
        releaseRecord(me);
        try {
          const now = readLock(path);
          if (typeof now === "object" && now.token === me.token) rmSync(path, { force: true });
        } catch (e) {
          if (!isSystemError(e)) throw e;
          // A lock file that cannot be read or removed is stale once this process ends: the
          // next start sees its holder gone and takes it over.
        }
      },
    };
  }
  releaseRecord(me);
  throw failed(path, "another process keeps replacing the lock file");
}
