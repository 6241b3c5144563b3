/**
 * One backup job: copies each database into the job's folder with SQLite's
 * online backup (in steps on the node's own connections, so the node keeps
 * mining and answering meanwhile; SqlDatabase.backup), then reads each copy
 * back for the manifest (the cut, the newest block per chain), hashes it
 * (SHA-256, streamed) and records the result.
 *
 * The manifest is rewritten as the job goes: at most every `heartbeatMs`
 * with the pages copied (readers on other processes take a manifest not
 * rewritten for a minute as abandoned), and when it ends, flushed to disk,
 * with `backup-done` or `backup-failed` and the reason. A failed job removes
 * its partial copies. {@link BackupJob.done} never rejects: failures are
 * results.
 *
 * Snapshot: each copy is the database as it is when that copy finishes,
 * because writes made meanwhile through the same connection are copied too.
 * The databases are copied one after the other in the order given; the
 * node lists the contract-state database before the block database, so the
 * block copy is never older than the state copy.
 * @module
 */

import { mkdirSync, rmSync } from "node:fs";
import { copyFile, type FileHandle, open } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isSystemError } from "../errors/systemError.ts";
import { PRIVATE_DIR_MODE } from "../store/privateFiles.ts";
import {
  type BackupDatabase,
  type BackupFile,
  type BackupSource,
  isBackupFile,
} from "./backupDatabase.ts";
import { type BackupManifest, BackupStatus, type ManifestDatabase } from "./backupManifest.ts";
import { BackupError, BackupErrorCode, type BackupFailureCode, reasonOf } from "./errors.ts";
import { fileChecksum } from "./fileChecksum.ts";
import { writeManifest } from "./manifestFile.ts";

export type BackupLog = {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

export type BackupJobOptions = {
  /** The job's folder (exists, holds the first manifest). */
  readonly folder: string;
  readonly manifest: BackupManifest;
  /** In copy order; the manifest's `databases` lists the same, in the same order. */
  readonly databases: readonly BackupSource[];
  /** SQLite pages per step (default 256). */
  readonly pagesPerStep?: number | undefined;
  /** How often progress is written to the manifest, ms (default 1000). */
  readonly heartbeatMs?: number | undefined;
  /** Restarts of one copy (writes through another connection) before the job gives up (default 1000). */
  readonly maxRestarts?: number | undefined;
  readonly now: () => number;
  readonly log?: BackupLog | undefined;
};

const DEFAULT_MAX_RESTARTS = 1000;
const DEFAULT_PAGES_PER_STEP = 256;
/** The largest step the copy grows to when the database grows faster than it is copied. */
const MAX_PAGES_PER_STEP = 16_384;

/** Side files SQLite may leave next to a copy. */
const SIDE_FILES = ["", "-journal", "-wal", "-shm"];

function failure(code: BackupFailureCode, path: string, reason: string): BackupError {
  return new BackupError({ code, path, reason }, reason);
}

/** The failure code and message of whatever stopped the job. */
export function classifyFailure(e: unknown, path: string): { code: string; message: string } {
  if (e instanceof BackupError) return { code: e.code, message: e.message };
  const errno = (e as { code?: unknown } | null)?.code;
  const reason = reasonOf(e);
  if (errno === "ENOSPC" || errno === "SQLITE_FULL" || errno === "EDQUOT") {
    return { code: BackupErrorCode.WriteFailed, message: `disk full writing ${path}: ${reason}` };
  }
  if (
    errno === "EACCES" ||
    errno === "EPERM" ||
    errno === "EROFS" ||
    errno === "ENOENT" ||
    errno === "ENOTDIR" ||
    errno === "SQLITE_CANTOPEN" ||
    errno === "SQLITE_READONLY" ||
    (e instanceof TypeError && /directory does not exist/.test(reason))
  ) {
    return {
      code: BackupErrorCode.DirectoryUnusable,
      message: `cannot write ${path}: ${reason}`,
    };
  }
  return { code: BackupErrorCode.WriteFailed, message: `writing ${path} failed: ${reason}` };
}

/** Pages copied between two background flushes of the copy (16 MiB of 4 KiB pages). */
const FLUSH_EVERY_PAGES = 4096;

/**
 * Flushes a copy to disk in the background (fdatasync on the thread pool)
 * while it is written, so that SQLite's own sync when the copy is committed,
 * which runs on the node's thread, finds little left to write (without it the
 * last step of a large copy holds the event loop for hundreds of ms).
 */
class BackgroundFlush {
  readonly #path: string;
  #fd: Promise<FileHandle> | undefined;
  #inFlight: Promise<void> | undefined;
  #lastFlushAt = 0;

  constructor(path: string) {
    this.#path = path;
  }

  /** Called after each step with the pages copied so far. */
  copied(pages: number): void {
    if (this.#inFlight !== undefined || pages - this.#lastFlushAt < FLUSH_EVERY_PAGES) return;
    this.#lastFlushAt = pages;
    this.#fd ??= open(this.#path, "r");
    this.#inFlight = this.#fd
      .then((fd) => fd.datasync())
      .catch(() => {
        // Not needed for correctness: SQLite syncs the copy itself when it is complete.
      })
      .finally(() => {
        this.#inFlight = undefined;
      });
  }

  async close(): Promise<void> {
    await this.#inFlight;
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd !== undefined) {
      await fd
        .then((f) => f.close())
        .catch(() => {
          // A file that failed to open, or to close, leaves nothing to release: the job's own
          // error (if any) was reported when it happened.
        });
    }
  }
}

export class BackupJob {
  readonly id: string;
  readonly folder: string;
  /** Resolves with the final manifest (done or failed); never rejects. */
  readonly done: Promise<BackupManifest>;
  readonly #options: BackupJobOptions;
  #manifest: BackupManifest;
  #stopReason: string | undefined;
  #lastWrite = 0;
  #writeWarned = false;

  constructor(options: BackupJobOptions) {
    this.#options = options;
    this.#manifest = options.manifest;
    this.id = options.manifest.id;
    this.folder = options.folder;
    this.done = this.#run();
  }

  /** The manifest as it stands (progress included). */
  get manifest(): BackupManifest {
    return this.#manifest;
  }

  get running(): boolean {
    return this.#manifest.status === BackupStatus.InProgress;
  }

  /** Asks the job to stop (at its next step); it then fails with BACKUP_STOPPED. */
  stop(reason: string): void {
    this.#stopReason ??= reason;
  }

  #checkStop(): void {
    if (this.#stopReason !== undefined) {
      throw failure(BackupErrorCode.Stopped, this.folder, `stopped: ${this.#stopReason}`);
    }
  }

  #update(index: number, change: Partial<ManifestDatabase>): void {
    const databases = this.#manifest.databases.map((d, i) =>
      i === index ? { ...d, ...change } : d,
    );
    this.#manifest = { ...this.#manifest, databases };
  }

  /** Writes progress, at most every heartbeatMs; a failed write is logged once, not fatal. */
  #heartbeat(force = false): void {
    const now = this.#options.now();
    if (!force && now - this.#lastWrite < (this.#options.heartbeatMs ?? 1000)) return;
    this.#lastWrite = now;
    try {
      writeManifest(this.folder, this.#manifest, false);
    } catch (e) {
      if (!this.#writeWarned) {
        this.#writeWarned = true;
        this.#options.log?.warn("backup: cannot update the manifest", {
          id: this.id,
          error: reasonOf(e),
        });
      }
    }
  }

  /** A plain file (the wallet's), copied as it is: one "page". */
  async #copyFile(index: number, source: BackupFile): Promise<void> {
    const dest = join(this.folder, source.file);
    this.#update(index, { pages: { done: 0, total: 1 } });
    mkdirSync(dirname(dest), { recursive: true, mode: PRIVATE_DIR_MODE });
    await copyFile(source.sourcePath, dest);
    this.#update(index, { pages: { done: 1, total: 1 } });
    this.#heartbeat(true);
  }

  async #copy(index: number, source: BackupDatabase): Promise<void> {
    const dest = join(this.folder, source.file);
    // The private state is a database in a folder: `private/<entity>.sqlite`.
    mkdirSync(dirname(dest), { recursive: true, mode: PRIVATE_DIR_MODE });
    const flusher = new BackgroundFlush(dest);
    let step = this.#options.pagesPerStep ?? DEFAULT_PAGES_PER_STEP;
    // The first step only measures the database (0 pages).
    let lastStep = 0;
    let lastDone = 0;
    let lastRemaining = Number.POSITIVE_INFINITY;
    let restarts = 0;
    const copied = source.db.backup(dest, {
      pagesPerStep: step,
      onProgress: ({ totalPages, remainingPages }) => {
        this.#checkStop();
        const done = totalPages - remainingPages;
        flusher.copied(done);
        if (done < lastDone + lastStep) {
          // Restarted from the first page: written through another connection.
          if (++restarts > (this.#options.maxRestarts ?? DEFAULT_MAX_RESTARTS)) {
            throw failure(
              BackupErrorCode.SourceChanging,
              dest,
              `the ${source.name} database keeps changing through another connection; its copy restarted ${restarts} times`,
            );
          }
          // Larger steps finish between two such writes (each step reads one snapshot).
          step = Math.min(step * 2, MAX_PAGES_PER_STEP);
        } else if (remainingPages >= lastRemaining) {
          // The database grows faster than it is copied: larger steps catch up.
          step = Math.min(step * 2, MAX_PAGES_PER_STEP);
        }
        lastStep = step;
        lastDone = done;
        lastRemaining = remainingPages;
        this.#update(index, { pages: { done, total: totalPages } });
        this.#heartbeat();
        return step;
      },
    });
    let total: number;
    try {
      total = await copied;
    } finally {
      await flusher.close();
    }
    this.#update(index, { pages: { done: total, total } });
    this.#heartbeat(true);
  }

  async #finish(index: number, source: BackupSource): Promise<void> {
    const path = join(this.folder, source.file);
    let described: ReturnType<NonNullable<BackupDatabase["describe"]>> | undefined;
    try {
      described = isBackupFile(source) ? undefined : source.describe?.(path);
    } catch (e) {
      throw failure(
        BackupErrorCode.WriteFailed,
        path,
        `the copy of the ${source.name} database does not read back: ${reasonOf(e)}`,
      );
    }
    // Hashed after reading it back, so the checksum is of the file as it stays.
    const sum = await fileChecksum(path, () => this.#checkStop());
    this.#update(index, { bytes: sum.bytes, sha256: sum.sha256, heads: described?.heads ?? null });
    if (described?.cut !== undefined) this.#manifest = { ...this.#manifest, cut: described.cut };
  }

  #removeCopies(): void {
    for (const d of this.#options.databases) {
      for (const side of SIDE_FILES) {
        try {
          rmSync(join(this.folder, `${d.file}${side}`), { force: true });
        } catch (e) {
          if (!isSystemError(e)) throw e;
          // Left for the operator: the manifest says the backup failed, so it is never restored.
        }
      }
    }
  }

  async #run(): Promise<BackupManifest> {
    const { databases, log } = this.#options;
    const started = this.#options.now();
    const timer = setInterval(() => this.#heartbeat(), this.#options.heartbeatMs ?? 1000);
    timer.unref();
    try {
      log?.info("backup started", { id: this.id, databases: databases.map((d) => d.name) });
      for (const [i, d] of databases.entries()) {
        this.#checkStop();
        if (isBackupFile(d)) await this.#copyFile(i, d);
        else await this.#copy(i, d);
      }
      for (const [i, d] of databases.entries()) {
        this.#checkStop();
        await this.#finish(i, d);
      }
      const doneManifest: BackupManifest = {
        ...this.#manifest,
        status: BackupStatus.Done,
        finishedAt: new Date(this.#options.now()).toISOString(),
      };
      try {
        writeManifest(this.folder, doneManifest, true);
      } catch (e) {
        throw failure(
          BackupErrorCode.WriteFailed,
          this.folder,
          `cannot write the manifest in ${this.folder}: ${reasonOf(e)}`,
        );
      }
      this.#manifest = doneManifest;
      log?.info("backup done", {
        id: this.id,
        seconds: (this.#options.now() - started) / 1000,
        bytes: doneManifest.databases.reduce((s, d) => s + (d.bytes ?? 0), 0),
      });
    } catch (e) {
      const error = classifyFailure(e, this.folder);
      this.#removeCopies();
      this.#manifest = {
        ...this.#manifest,
        status: BackupStatus.Failed,
        finishedAt: new Date(this.#options.now()).toISOString(),
        databases: this.#manifest.databases.map((d) => ({ ...d, bytes: null, sha256: null })),
        error,
      };
      try {
        writeManifest(this.folder, this.#manifest, true);
      } catch (e2) {
        log?.warn("backup: cannot write the failed status", { id: this.id, error: reasonOf(e2) });
      }
      log?.error("backup failed", { id: this.id, code: error.code, error: error.message });
    } finally {
      clearInterval(timer);
    }
    return this.#manifest;
  }
}
