/**
 * The app's backups (docs/backup.md "The app's backups"): what the backup page and the
 * `/app/api/backup/*` routes run on, whether or not the public backup API is on. It keeps
 * its settings in `dataDir/<network>/app-backup.json` (appBackupSettings.ts), backs up into
 * the chosen folder (default: `backups` beside the data folder, created on first use; a
 * chosen folder must exist) through its own {@link BackupService}: the node's databases
 * (contract state when asked, the blocks, those nodeDatabases.ts lists) and the wallet's
 * files (backupContents.ts: keystore, kept-aside keystores, pending transfers, the dapp signing
 * switch), copied as they are (encrypted). It lists and deletes
 * backups, estimates size and time, says when a fresh backup is due (the wallet's keystore
 * differs from the newest finished backup's), and runs the automatic schedule while the
 * node runs (backupSchedule.ts; checked at start, so a missed time runs then, and every
 * minute), removing the oldest finished backups beyond "keep N" after each automatic one.
 * @module
 */

import { createHash } from "node:crypto";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
} from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { isSystemError } from "../errors/systemError.ts";
import { PRIVATE_DIR_MODE } from "../store/privateFiles.ts";
import {
  type AppBackupSettings,
  readAppBackupSettings,
  writeAppBackupSettings,
} from "./appBackupSettings.ts";
import { isWalletBackupFile } from "./backupContents.ts";
import { type BackupFile, type BackupSource, isBackupFile } from "./backupDatabase.ts";
import { parseBackupId } from "./backupId.ts";
import type { BackupLog } from "./backupJob.ts";
import { type BackupManifest, BackupStatus, manifestBytes } from "./backupManifest.ts";
import { type BackupSchedule, idsToPrune, isDue, nextSlot } from "./backupSchedule.ts";
import { BackupService } from "./backupService.ts";
import { BackupError, BackupErrorCode, reasonOf } from "./errors.ts";
import { type BackupListEntry, listBackups } from "./listBackups.ts";
import { readManifest } from "./manifestFile.ts";

/** The wallet's keystore, whose change makes a fresh backup due. */
export const KEYSTORE_FILE = "wallet/keystore.json";

/** Assumed copy speed before the first backup has measured one, bytes per second. */
const DEFAULT_RATE = 40 * 1024 * 1024;

export type AppBackupsOptions = {
  readonly dataDir: string;
  readonly network: string;
  /** `dataDir/<network>` */
  readonly networkDir: string;
  readonly softwareVersion: string;
  /** The node's databases and files, in copy order (backup/nodeDatabases.ts). */
  readonly databases: readonly BackupSource[];
  readonly log?: BackupLog | undefined;
  /** ms clock (default Date.now). */
  readonly now?: (() => number) | undefined;
  /** How often the schedule is looked at, ms (default 60 s). */
  readonly checkEveryMs?: number | undefined;
  /** Passed to the backup service (tests: small steps). */
  readonly pagesPerStep?: number | undefined;
};

/** A backup job's progress and result, for the page. */
export type AppBackupJob = {
  readonly id: string;
  readonly status: BackupManifest["status"];
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly databases: readonly {
    readonly name: string;
    readonly pages: { readonly done: number; readonly total: number };
    readonly bytes: number | null;
  }[];
  readonly bytes: number;
  readonly cutHeight: number | null;
  /** Estimated seconds left (null when not running or not yet known). */
  readonly secondsLeft: number | null;
  readonly error: { readonly code: string; readonly message: string } | null;
};

export type AppBackupEstimate = {
  /** Bytes per part: `blocks`, `state`, `wallet`, any other database by name. */
  readonly parts: Readonly<Record<string, number>>;
  readonly bytes: number;
  /** With the contract state (the switch on). */
  readonly seconds: number;
  readonly bytesWithoutState: number;
  readonly secondsWithoutState: number;
};

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // removed meanwhile: nothing to copy
  }
}

export class AppBackups {
  readonly #o: AppBackupsOptions;
  readonly #now: () => number;
  #settings: AppBackupSettings;
  #service: BackupService | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #autoJob: string | undefined;
  #closed = false;

  constructor(options: AppBackupsOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#settings = readAppBackupSettings(options.networkDir, this.#now(), (m, f) =>
      options.log?.warn(m, f),
    );
  }

  get settings(): AppBackupSettings {
    return this.#settings;
  }

  /** `backups` beside the data folder. */
  get defaultDirectory(): string {
    return join(dirname(this.#o.dataDir), "backups");
  }

  /** The folder backups go to now. */
  get directory(): string {
    return this.#settings.directory ?? this.#default();
  }

  #default(): string {
    return this.defaultDirectory;
  }

  #save(patch: Partial<AppBackupSettings>): void {
    this.#settings = { ...this.#settings, ...patch };
    writeAppBackupSettings(this.#o.networkDir, this.#settings);
  }

  /**
   * Chooses the folder (null: the default).
   * @throws {BackupError} BACKUP_FOLDER_UNUSABLE (not absolute, missing, not a folder, not writable),
   *   BACKUP_RUNNING while a backup runs.
   */
  setDirectory(directory: string | null): void {
    if (directory !== null) {
      const refuse = (reason: string): never => {
        throw new BackupError(
          { code: BackupErrorCode.FolderUnusable, path: directory, reason },
          `${directory}: ${reason}`,
        );
      };
      if (!isAbsolute(directory)) refuse("not an absolute path");
      let isDir = false;
      try {
        isDir = statSync(directory).isDirectory();
      } catch {
        refuse("no such folder");
      }
      if (!isDir) refuse("not a folder");
      try {
        accessSync(directory, constants.W_OK);
      } catch {
        refuse("this user cannot write there");
      }
    }
    const running = this.#service?.runningId;
    if (running !== undefined) {
      throw new BackupError(
        { code: BackupErrorCode.Running, id: running },
        `backup ${running} is running; change the folder once it has finished`,
      );
    }
    this.#save({ directory });
    void this.#service?.close();
    this.#service = undefined;
  }

  setIncludeState(includeState: boolean): void {
    this.#save({ includeState });
  }

  setSchedule(schedule: BackupSchedule): void {
    this.#save({ schedule, scheduleSetAt: this.#now() });
  }

  /**
   * The sources a job copies now: the node's databases, then the wallet's files (only those
   * a restore takes back, backupContents.ts).
   */
  sources(): BackupSource[] {
    const walletDir = join(this.#o.networkDir, "wallet");
    let names: string[] = [];
    try {
      names = readdirSync(walletDir).filter((n) => isWalletBackupFile(`wallet/${n}`));
    } catch (e) {
      if (!isSystemError(e, "ENOENT")) throw e;
      // No wallet yet: the backup holds the databases only.
    }
    const files: BackupFile[] = names.sort().map((n) => ({
      name: `wallet/${n}`,
      file: `wallet/${n}`,
      sourcePath: join(walletDir, n),
      pactOnly: false,
    }));
    return [...this.#o.databases, ...files];
  }

  #serviceFor(): BackupService {
    const directory = this.directory;
    if (this.#service?.directory === directory) return this.#service;
    this.#service = new BackupService({
      directory,
      network: this.#o.network,
      softwareVersion: this.#o.softwareVersion,
      databases: () => this.sources(),
      log: this.#o.log,
      now: this.#now,
      pagesPerStep: this.#o.pagesPerStep,
    });
    return this.#service;
  }

  /** The running job's id, if any. */
  get runningId(): string | undefined {
    return this.#service?.runningId;
  }

  /**
   * Starts a backup (or returns the running one's id). The default folder is created on
   * first use; a chosen folder that has gone missing fails the job (BACKUP_DIRECTORY_UNUSABLE).
   * @throws {BackupError} BACKUP_STOPPED once closed.
   */
  start(options: { readonly includeState: boolean }): string {
    if (this.#closed) {
      throw new BackupError(
        { code: BackupErrorCode.Stopped, path: this.directory, reason: "node closing" },
        "backups are not available: the node is closing",
      );
    }
    if (this.#settings.directory === null) {
      try {
        // Created 0700 when missing; an existing folder's mode is left as its owner set it.
        mkdirSync(this.directory, { recursive: true, mode: PRIVATE_DIR_MODE });
      } catch (e) {
        this.#o.log?.warn("cannot create the default backup folder", { error: reasonOf(e) });
      }
    }
    return this.#serviceFor().start({ backupPact: options.includeState });
  }

  /**
   * A job's progress or result.
   * @throws {BackupError} BACKUP_BAD_ID, BACKUP_UNKNOWN_ID.
   */
  job(id: string): AppBackupJob {
    const m = this.#serviceFor().manifest(id);
    const done = m.databases.reduce((s, d) => s + d.pages.done, 0);
    const total = m.databases.reduce((s, d) => s + d.pages.total, 0);
    let secondsLeft: number | null = null;
    const started = Date.parse(m.startedAt);
    if (
      m.status === BackupStatus.InProgress &&
      done > 0 &&
      total > done &&
      !Number.isNaN(started)
    ) {
      const elapsed = (this.#now() - started) / 1000;
      secondsLeft = Math.max(0, Math.round((elapsed * (total - done)) / done));
    }
    return {
      id: m.id,
      status: m.status,
      startedAt: m.startedAt,
      finishedAt: m.finishedAt,
      databases: m.databases.map((d) => ({ name: d.name, pages: d.pages, bytes: d.bytes })),
      bytes: m.status === BackupStatus.Done ? manifestBytes(m) : 0,
      cutHeight: m.cut?.height ?? null,
      secondsLeft,
      error: m.error,
    };
  }

  /** The folder's backups, newest first. */
  list(): BackupListEntry[] {
    if (!existsSync(this.directory)) return [];
    return listBackups(this.directory, this.#now()).reverse();
  }

  /**
   * Deletes a backup folder.
   * @throws {BackupError} BACKUP_BAD_ID, BACKUP_UNKNOWN_ID, BACKUP_RUNNING.
   */
  delete(idText: string): void {
    const id = parseBackupId(idText);
    if (this.#service?.runningId === id) {
      throw new BackupError(
        { code: BackupErrorCode.Running, id },
        `backup ${id} is running; it can be deleted once it has finished`,
      );
    }
    const folder = join(this.directory, id);
    if (!existsSync(folder)) {
      throw new BackupError({ code: BackupErrorCode.UnknownId, id }, `no such backup: ${id}`);
    }
    rmSync(folder, { recursive: true, force: true });
    this.#o.log?.info("backup deleted", { id });
  }

  /** The expected size and time of a backup now. */
  estimate(): AppBackupEstimate {
    const parts: Record<string, number> = {};
    for (const s of this.sources()) {
      const key = s.name.startsWith("wallet/")
        ? "wallet"
        : s.name.startsWith("private")
          ? "private"
          : s.name;
      // A database's copy is its pages (the files' sizes overstate it: a WAL file keeps its
      // size after a checkpoint); a plain file's copy is the file.
      parts[key] =
        (parts[key] ?? 0) + (isBackupFile(s) ? fileSize(s.sourcePath) : s.db.sizeBytes());
    }
    const bytes = Object.values(parts).reduce((a, b) => a + b, 0);
    const withoutState = bytes - (parts.state ?? 0);
    const rate = this.#measuredRate() ?? DEFAULT_RATE;
    return {
      parts,
      bytes,
      seconds: Math.ceil(bytes / rate),
      bytesWithoutState: withoutState,
      secondsWithoutState: Math.ceil(withoutState / rate),
    };
  }

  /** Bytes per second of the newest finished backup, if it took measurable time. */
  #measuredRate(): number | undefined {
    const last = this.list().find((b) => b.status === BackupStatus.Done);
    if (last?.startedAt == null || last.finishedAt == null) return undefined;
    const seconds = (Date.parse(last.finishedAt) - Date.parse(last.startedAt)) / 1000;
    return seconds > 0.5 && last.bytes > 0 ? last.bytes / seconds : undefined;
  }

  /**
   * Whether a fresh backup is due: the wallet has a keystore and the newest finished
   * backup holds no copy of it, or another one (compared by SHA-256).
   */
  async freshBackupDue(): Promise<boolean> {
    const path = join(this.#o.networkDir, KEYSTORE_FILE);
    let current: string;
    try {
      current = createHash("sha256")
        .update(await readFile(path))
        .digest("hex");
    } catch {
      return false;
    }
    const last = this.list().find((b) => b.status === BackupStatus.Done);
    if (last === undefined) return true;
    const manifest = readManifest(last.folder);
    const copy = manifest?.databases.find((d) => d.file === KEYSTORE_FILE);
    return copy?.sha256 !== current;
  }

  /** When the next automatic backup is due (ms), or null when off. */
  nextAutomatic(): number | null {
    return nextSlot(this.#settings.schedule, this.#now());
  }

  /** Starts the schedule: looks now (a missed time runs at once) and every minute. */
  startSchedule(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.runDue();
    this.#timer = setInterval(() => this.runDue(), this.#o.checkEveryMs ?? 60_000);
    this.#timer.unref();
  }

  /**
   * Starts an automatic backup if one is due; after it finishes, applies the retention.
   * Returns the id started, if any.
   */
  runDue(): string | undefined {
    const s = this.#settings;
    if (this.#closed || this.#autoJob !== undefined) return undefined;
    if (!isDue(s.schedule, this.#now(), s.lastAutoRunAt, s.scheduleSetAt)) return undefined;
    try {
      this.#save({ lastAutoRunAt: this.#now() });
      const id = this.start({ includeState: s.includeState });
      this.#autoJob = id;
      this.#o.log?.info("automatic backup started", { id });
      void this.#serviceFor()
        .settled()
        .then((m) => {
          this.#autoJob = undefined;
          if (m?.status === BackupStatus.Done) this.prune();
        });
      return id;
    } catch (e) {
      this.#autoJob = undefined;
      this.#o.log?.warn("automatic backup could not start", { error: reasonOf(e) });
      return undefined;
    }
  }

  /** Removes the finished backups beyond the schedule's `keep`; returns their ids. */
  prune(): string[] {
    const oldestFirst = this.list().reverse();
    const ids = idsToPrune(oldestFirst, this.#settings.schedule.keep);
    for (const id of ids) {
      try {
        rmSync(join(this.directory, id), { recursive: true, force: true });
      } catch (e) {
        this.#o.log?.warn("cannot remove an old backup", { id, error: reasonOf(e) });
      }
    }
    if (ids.length > 0) this.#o.log?.info("old backups removed (retention)", { ids });
    return ids;
  }

  /** Resolves when the running job (if any) ends. */
  async settled(): Promise<BackupManifest | undefined> {
    return this.#service?.settled();
  }

  /** Stops the schedule and a running job. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#service?.close();
  }
}
