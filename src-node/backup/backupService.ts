/**
 * `BackupService`: the node's backup jobs in one backup directory (the
 * spec's `/make-backup` and `/check-backup/{id}` run on it).
 *
 * - {@link BackupService.start} starts a job and returns its id; while one
 *   runs it returns that job's id and starts nothing (spec rule 3). The
 *   block database is always copied, databases marked `pactOnly` (the
 *   contract state) only with `backupPact`.
 * - Ids are the start time in UNIX seconds, `_1`, `_2`, … appended when that
 *   folder exists already (backupId.ts); creating the folder claims the id.
 * - The backup directory itself is never created: a missing directory is
 *   more likely an unmounted disk than a wish for a new folder. A job that
 *   cannot create its folder fails at once (BACKUP_DIRECTORY_UNUSABLE); as it
 *   has no folder, only this service remembers it.
 * - {@link BackupService.status} answers from the running job, else from the
 *   folder on disk (backupFolder.ts: an interrupted job reads `backup-failed`
 *   and is recorded so). When the service starts it settles every
 *   interrupted job in the directory.
 * - {@link BackupService.close} stops a running job (it fails with
 *   BACKUP_STOPPED) and waits for it, so the node can close its databases.
 * @module
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_DIR_MODE } from "../store/privateFiles.ts";
import { type BackupSource, isBackupFile } from "./backupDatabase.ts";
import { backupIds, readFolderState, settleInterrupted } from "./backupFolder.ts";
import { backupIdCandidate, parseBackupId } from "./backupId.ts";
import { BackupJob, type BackupLog, classifyFailure } from "./backupJob.ts";
import {
  type BackupManifest,
  BackupStatus,
  type BackupStatusValue,
  MANIFEST_FORMAT,
} from "./backupManifest.ts";
import { BackupError, BackupErrorCode, reasonOf } from "./errors.ts";
import { writeManifest } from "./manifestFile.ts";
import { newProcessRecord, type ProcessRecord, releaseRecord } from "./processLiveness.ts";

export type BackupServiceOptions = {
  /** The backup directory (absolute); it must exist. */
  readonly directory: string;
  readonly network: string;
  /** The Weft release, recorded in manifests. */
  readonly softwareVersion: string;
  /**
   * What a job copies, in copy order (the node: the contract state, then the blocks; the
   * app's backups add the wallet's files): a list, or a function read when each job starts.
   */
  readonly databases: readonly BackupSource[] | (() => readonly BackupSource[]);
  readonly log?: BackupLog | undefined;
  /** ms since the UNIX epoch (default Date.now). */
  readonly now?: (() => number) | undefined;
  /** SQLite pages per backup step (default 256). */
  readonly pagesPerStep?: number | undefined;
  /** How often a job writes its progress, ms (default 1000). */
  readonly heartbeatMs?: number | undefined;
  /** Restarts of one copy before a job gives up (default 1000; backupJob.ts). */
  readonly maxRestarts?: number | undefined;
};

export type StartOptions = { readonly backupPact: boolean };

/** Finished jobs of this service remembered, newest last. */
const MAX_REMEMBERED = 100;

type Remembered = { readonly manifest: BackupManifest; readonly hasFolder: boolean };

export class BackupService {
  readonly directory: string;
  readonly #options: BackupServiceOptions;
  readonly #now: () => number;
  readonly #owner: ProcessRecord;
  /**
   * Final manifests of this service's jobs, by id: the answer for jobs that
   * never got a folder, and for ours whose last manifest write failed.
   */
  readonly #finished = new Map<string, Remembered>();
  #running: BackupJob | undefined;
  #closed = false;

  constructor(options: BackupServiceOptions) {
    this.directory = options.directory;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#owner = newProcessRecord();
    this.#settleAll();
  }

  /** Records every interrupted job of the directory as failed (a crash or kill left them). */
  #settleAll(): void {
    for (const id of backupIds(this.directory)) {
      const state = readFolderState(this.directory, id, this.#now());
      if (
        state?.problem?.code === BackupErrorCode.Interrupted &&
        settleInterrupted(state, this.#now())
      ) {
        this.#options.log?.warn("backup was interrupted; marked failed", { id });
      }
    }
  }

  /** The id of the running job, if any. */
  get runningId(): string | undefined {
    return this.#running?.id;
  }

  /**
   * Starts a job, or returns the id of the one running.
   * @throws {BackupError} BACKUP_STOPPED after close().
   */
  start(options: StartOptions): string {
    if (this.#closed) {
      throw new BackupError(
        { code: BackupErrorCode.Stopped, path: this.directory, reason: "node closing" },
        "backups are not available: the node is closing",
      );
    }
    if (this.#running !== undefined) return this.#running.id;
    const nowMs = this.#now();
    const all = this.#options.databases;
    const databases = (typeof all === "function" ? all() : all).filter(
      (d) => options.backupPact || !d.pactOnly,
    );
    const seconds = Math.floor(nowMs / 1000);
    const base = (id: string): BackupManifest => ({
      format: MANIFEST_FORMAT,
      id,
      status: BackupStatus.InProgress,
      network: this.#options.network,
      softwareVersion: this.#options.softwareVersion,
      backupPact: options.backupPact,
      startedAt: new Date(nowMs).toISOString(),
      finishedAt: null,
      owner: this.#owner,
      databases: databases.map((d) => ({
        name: d.name,
        file: d.file,
        pages: { done: 0, total: 0 },
        bytes: null,
        sha256: null,
        heads: null,
        ...(isBackupFile(d) ? { kind: "file" as const } : {}),
      })),
      cut: null,
      error: null,
    });

    for (let n = 0; ; n++) {
      const id = backupIdCandidate(seconds, n);
      if (this.#finished.has(id)) continue;
      const folder = join(this.directory, id);
      try {
        mkdirSync(folder, { mode: PRIVATE_DIR_MODE });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "EEXIST") continue;
        return this.#failAtOnce(base(id), e);
      }
      const manifest = base(id);
      try {
        writeManifest(folder, manifest, true);
      } catch (e) {
        return this.#failAtOnce(manifest, e);
      }
      const job = new BackupJob({
        folder,
        manifest,
        databases,
        pagesPerStep: this.#options.pagesPerStep,
        heartbeatMs: this.#options.heartbeatMs,
        maxRestarts: this.#options.maxRestarts,
        now: this.#now,
        log: this.#options.log,
      });
      this.#running = job;
      void job.done.then((final) => {
        this.#remember(final, true);
        if (this.#running === job) this.#running = undefined;
      });
      return id;
    }
  }

  /** A job that could not create its folder or first manifest: failed, remembered here. */
  #failAtOnce(manifest: BackupManifest, e: unknown): string {
    const error = classifyFailure(e, join(this.directory, manifest.id));
    const failed: BackupManifest = {
      ...manifest,
      status: BackupStatus.Failed,
      finishedAt: new Date(this.#now()).toISOString(),
      error,
    };
    this.#remember(failed, false);
    this.#options.log?.error("backup failed", {
      id: manifest.id,
      code: error.code,
      error: error.message,
    });
    return manifest.id;
  }

  #remember(manifest: BackupManifest, hasFolder: boolean): void {
    this.#finished.set(manifest.id, { manifest, hasFolder });
    while (this.#finished.size > MAX_REMEMBERED) {
      const oldest = this.#finished.keys().next().value;
      if (oldest === undefined) break;
      this.#finished.delete(oldest);
    }
  }

  /**
   * The manifest of a job as it stands (progress included); an interrupted
   * job's is given as failed.
   * @throws {BackupError} BACKUP_BAD_ID for a malformed id, BACKUP_UNKNOWN_ID when no job has it.
   */
  manifest(idText: string): BackupManifest {
    const id = parseBackupId(idText);
    const running = this.#running;
    if (running?.id === id) return running.manifest;
    const remembered = this.#finished.get(id);
    const state = readFolderState(this.directory, id, this.#now());
    if (state === undefined) {
      if (remembered !== undefined && !remembered.hasFolder) return remembered.manifest;
      throw new BackupError({ code: BackupErrorCode.UnknownId, id }, `no such backup: ${id}`);
    }
    // Ours: what this service remembers wins (a manifest it could not write says less).
    if (remembered !== undefined && state.manifest === undefined) return remembered.manifest;
    if (state.manifest?.owner.token === this.#owner.token) {
      if (remembered !== undefined) return remembered.manifest;
      if (state.status === BackupStatus.InProgress) {
        // Ours, not running, not remembered: it ended without recording how.
        return {
          ...state.manifest,
          status: BackupStatus.Failed,
          error: {
            code: BackupErrorCode.WriteFailed,
            message: "the job ended but its manifest could not be updated",
          },
        };
      }
    }
    if (state.problem?.code === BackupErrorCode.Interrupted) settleInterrupted(state, this.#now());
    const m = state.manifest;
    if (m !== undefined && state.problem === undefined) return m;
    return {
      ...(m ?? this.#unknownManifest(id)),
      status: BackupStatus.Failed,
      error: state.problem ?? null,
    };
  }

  /** A stand-in for a folder whose manifest is missing or unreadable. */
  #unknownManifest(id: string): BackupManifest {
    return {
      format: MANIFEST_FORMAT,
      id,
      status: BackupStatus.Failed,
      network: this.#options.network,
      softwareVersion: "",
      backupPact: false,
      startedAt: "",
      finishedAt: null,
      owner: { pid: 0, host: "", bootTime: 0, token: "" },
      databases: [],
      cut: null,
      error: null,
    };
  }

  /**
   * The status of a job: `backup-in-progress`, `backup-done` or `backup-failed`.
   * @throws {BackupError} BACKUP_BAD_ID, BACKUP_UNKNOWN_ID.
   */
  status(idText: string): BackupStatusValue {
    return this.manifest(idText).status;
  }

  /** Resolves when the running job (if any) ends, with its manifest. */
  async settled(): Promise<BackupManifest | undefined> {
    return this.#running?.done;
  }

  /** Stops a running job (it fails with BACKUP_STOPPED) and waits for it. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const job = this.#running;
    if (job !== undefined) {
      job.stop("the node is closing");
      try {
        await job.done;
      } catch (e) {
        this.#options.log?.warn("backup: stopping failed", { error: reasonOf(e) });
      }
    }
    releaseRecord(this.#owner);
  }
}
