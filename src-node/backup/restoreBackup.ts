/**
 * Restoring a backup folder into a data directory (`weft restore`):
 *
 * 1. the manifest is read and must say `backup-done`, for a known network;
 * 2. every database file's size and SHA-256 must be the manifest's;
 * 3. the data folder `dataDir/<network>/` is locked (dataLock.ts): a running
 *    node there, or another restore, is refused (BACKUP_DATA_IN_USE);
 * 4. the files are copied into a staging folder inside the data, their
 *    checksums checked again (the copy itself), SQLite's integrity check run
 *    on each, the block database's network and cut and the contract state's
 *    newest blocks compared with the manifest's;
 * 5. only then are the network's current database files (blocks.sqlite,
 *    state.sqlite, index.sqlite, the backup's files, with their -wal/-shm/-journal files)
 *    moved aside into `dataDir/<network>/replaced-<time>/` (kept, never
 *    deleted: the operator removes them), and the staged files moved in.
 *
 * A database the backup does not hold (the contract state of a backup made
 * without `backupPact`) is moved aside too, never left to pair with the
 * restored blocks. A node started on the folder then serves the backup's cut.
 *
 * Plain files (`kind: "file"`: the wallet's files in `wallet/`, copied by the
 * app's backups as they are, still encrypted) are checked by checksum only
 * and restored to the same place; the current ones they replace are moved
 * aside with the databases. Wallet files the backup does not hold are left
 * where they are: keys made after the backup must not disappear.
 * @module
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { CutJson } from "../chain/cutJson.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import { runnableVersions } from "../chain/versions.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../store/privateFiles.ts";
import { SqlDatabase } from "../store/sqlDatabase.ts";
import {
  checkBackupContents,
  checkBackupEntries,
  checkPlainEntry,
  copyBackupFile,
  openBackupFile,
} from "./backupContents.ts";
import { type BackupManifest, BackupStatus, type ChainHeads } from "./backupManifest.ts";
import { readBlocksCopy } from "./blocksCopy.ts";
import { acquireDataLock } from "./dataLock.ts";
import { BackupError, BackupErrorCode, reasonOf } from "./errors.ts";
import { fileChecksum } from "./fileChecksum.ts";
import { manifestPath, readManifest } from "./manifestFile.ts";
import { readStateHeads } from "./stateCopy.ts";

/**
 * The database files of a network's data folder (besides those a backup
 * names). index.sqlite (the explorer's index) is never backed up: it is moved
 * aside with the others and the node rebuilds it from the restored blocks.
 */
export const NETWORK_DATABASE_FILES: readonly string[] = [
  "blocks.sqlite",
  "state.sqlite",
  "mempool.sqlite",
  "index.sqlite",
];

const SIDE_FILES = ["", "-wal", "-shm", "-journal"];

export type RestoreOptions = {
  /** The backup's folder (`<backup-directory>/<id>`). */
  readonly backupFolder: string;
  /** The data directory; files go to `dataDir/<network>/`. */
  readonly dataDir: string;
  /** Progress lines (one per step). */
  readonly progress?: ((line: string) => void) | undefined;
  /** ms since the UNIX epoch (names the replaced-… folder). */
  readonly now?: (() => number) | undefined;
};

export type RestoreResult = {
  readonly id: string;
  readonly network: string;
  /** `dataDir/<network>/` */
  readonly networkDir: string;
  readonly files: readonly string[];
  /** The cut a node started on the data serves. */
  readonly cut: CutJson | null;
  /** Where the folder's previous database files were moved, if it had any. */
  readonly replacedDir: string | undefined;
};

function restoreFailed(path: string, e: unknown, what: string): BackupError {
  return new BackupError(
    { code: BackupErrorCode.RestoreFailed, path, reason: reasonOf(e) },
    `${what} ${path}: ${reasonOf(e)}`,
    { cause: e },
  );
}

/**
 * Checks a backup folder's manifest and files without restoring it: the
 * folder, its manifest and its files plain (no symbolic links), the manifest
 * naming only files a backup holds (backupContents.ts), every checksum.
 * @throws {BackupError} BACKUP_BAD_MANIFEST, BACKUP_NOT_DONE, BACKUP_CHECKSUM_MISMATCH,
 *   BACKUP_UNSAFE_FILE, BACKUP_RESTORE_FAILED (a file cannot be read).
 */
export async function checkBackupFolder(
  folder: string,
): Promise<{ manifest: BackupManifest; version: NetworkVersion }> {
  checkPlainEntry(folder, "dir");
  checkPlainEntry(manifestPath(folder), "file");
  const manifest = readManifest(folder);
  if (manifest === undefined) {
    const path = manifestPath(folder);
    throw new BackupError(
      { code: BackupErrorCode.BadManifest, path, reason: "missing" },
      `${path}: no manifest: ${folder} is not a backup folder`,
    );
  }
  if (manifest.status !== BackupStatus.Done) {
    throw new BackupError(
      { code: BackupErrorCode.NotDone, path: folder, status: manifest.status },
      `${folder}: the backup's status is ${manifest.status}${manifest.error === null ? "" : ` (${manifest.error.message})`}; only a finished backup (backup-done) can be restored`,
    );
  }
  const version = runnableVersions.find((v) => v.name === manifest.network);
  if (version === undefined) {
    const path = manifestPath(folder);
    throw new BackupError(
      { code: BackupErrorCode.BadManifest, path, reason: `unknown network ${manifest.network}` },
      `${path}: network: ${manifest.network} is not a network this Weft runs`,
    );
  }
  if (!manifest.databases.some((d) => d.name === "blocks")) {
    const path = manifestPath(folder);
    throw new BackupError(
      { code: BackupErrorCode.BadManifest, path, reason: "no block database" },
      `${path}: databases: the backup has no block database`,
    );
  }
  checkBackupContents(manifest, manifestPath(folder));
  checkBackupEntries(
    folder,
    manifest.databases.map((d) => d.file),
  );
  for (const d of manifest.databases) await checkFile(join(folder, d.file), d, true);
  return { manifest, version };
}

/** @param inBackup a file of the backup (opened without following a link), else a staged copy. */
async function checkFile(
  path: string,
  d: BackupManifest["databases"][number],
  inBackup: boolean,
): Promise<void> {
  let sum: { sha256: string; bytes: number };
  try {
    sum = await fileChecksum(inBackup ? await openBackupFile(path) : path);
  } catch (e) {
    if (e instanceof BackupError) throw e;
    throw restoreFailed(path, e, "cannot read");
  }
  if (sum.bytes !== d.bytes || sum.sha256 !== d.sha256) {
    const expected = `${d.bytes} bytes, SHA-256 ${d.sha256}`;
    const actual = `${sum.bytes} bytes, SHA-256 ${sum.sha256}`;
    throw new BackupError(
      { code: BackupErrorCode.ChecksumMismatch, path, expected, actual },
      `${path}: the file is not the one the backup made (expected ${expected}, got ${actual})`,
    );
  }
}

function checkIntegrity(path: string): void {
  let db: SqlDatabase;
  try {
    db = SqlDatabase.open(path);
  } catch (e) {
    throw new BackupError(
      { code: BackupErrorCode.IntegrityFailed, path, reason: reasonOf(e) },
      `${path}: not a readable SQLite database: ${reasonOf(e)}`,
    );
  }
  try {
    const problems = db.integrityCheck();
    if (problems.length !== 1 || problems[0] !== "ok") {
      const reason = problems.slice(0, 5).join("; ");
      throw new BackupError(
        { code: BackupErrorCode.IntegrityFailed, path, reason },
        `${path}: SQLite's integrity check failed: ${reason}`,
      );
    }
  } finally {
    db.close();
  }
}

function checkBlocks(path: string, version: NetworkVersion, manifest: BackupManifest): void {
  let copy: ReturnType<typeof readBlocksCopy>;
  try {
    copy = readBlocksCopy(path, version, manifest.network);
  } catch (e) {
    if (e instanceof BackupError) throw e;
    throw new BackupError(
      { code: BackupErrorCode.IntegrityFailed, path, reason: reasonOf(e) },
      `${path}: not a block database: ${reasonOf(e)}`,
    );
  }
  if (manifest.cut !== null && !isDeepStrictEqual(copy.cut, manifest.cut)) {
    throw new BackupError(
      { code: BackupErrorCode.IntegrityFailed, path, reason: "cut differs from the manifest" },
      `${path}: its cut (height ${copy.cut.height}) is not the manifest's (height ${manifest.cut.height})`,
    );
  }
}

function checkState(path: string, version: NetworkVersion, heads: ChainHeads): void {
  let actual: ChainHeads;
  try {
    actual = readStateHeads(path, version);
  } catch (e) {
    throw new BackupError(
      { code: BackupErrorCode.IntegrityFailed, path, reason: reasonOf(e) },
      `${path}: not a contract-state database: ${reasonOf(e)}`,
    );
  }
  if (!isDeepStrictEqual(actual, heads)) {
    throw new BackupError(
      { code: BackupErrorCode.IntegrityFailed, path, reason: "heads differ from the manifest" },
      `${path}: the blocks its state holds are not the manifest's`,
    );
  }
}

function moveAside(
  networkDir: string,
  files: readonly string[],
  nowMs: number,
): string | undefined {
  const present = files.flatMap((f) =>
    SIDE_FILES.map((s) => `${f}${s}`).filter((name) => existsSync(join(networkDir, name))),
  );
  if (present.length === 0) return undefined;
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, "-");
  const dir = join(networkDir, `replaced-${stamp}`);
  try {
    mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
    for (const name of present) {
      mkdirSync(dirname(join(dir, name)), { recursive: true, mode: PRIVATE_DIR_MODE });
      renameSync(join(networkDir, name), join(dir, name));
    }
  } catch (e) {
    throw restoreFailed(dir, e, "cannot move the current databases aside into");
  }
  return dir;
}

/**
 * Restores a backup folder into `dataDir/<network>/`.
 * @throws {BackupError} BACKUP_BAD_MANIFEST, BACKUP_NOT_DONE, BACKUP_CHECKSUM_MISMATCH,
 *   BACKUP_INTEGRITY_FAILED, BACKUP_WRONG_NETWORK, BACKUP_DATA_IN_USE, BACKUP_RESTORE_FAILED.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const say =
    options.progress ??
    (() => {
      // No one asked to follow the progress.
    });
  const now = options.now ?? Date.now;
  const { backupFolder, dataDir } = options;

  say(`checking ${backupFolder}`);
  const { manifest, version } = await checkBackupFolder(backupFolder);
  const networkDir = join(dataDir, manifest.network);
  const lock = acquireDataLock(networkDir, "restore");
  // Named by this process and chance, never by the backup: a fresh folder of the network's
  // own data folder (which the lock above holds), created here and removed by this restore.
  const staging = join(networkDir, `.restore-${process.pid}-${randomBytes(8).toString("hex")}`);
  let created = false;
  try {
    try {
      mkdirSync(staging, { mode: PRIVATE_DIR_MODE });
      created = true;
    } catch (e) {
      throw restoreFailed(staging, e, "cannot create");
    }
    for (const d of manifest.databases) {
      const target = join(staging, d.file);
      say(`copying ${d.file} (${d.bytes} bytes)`);
      try {
        mkdirSync(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
        await copyBackupFile(join(backupFolder, d.file), target, PRIVATE_FILE_MODE);
      } catch (e) {
        if (e instanceof BackupError) throw e;
        throw restoreFailed(target, e, "cannot write");
      }
      await checkFile(target, d, false);
      if (d.kind === "file") continue;
      say(`checking ${d.file} (SQLite integrity check)`);
      checkIntegrity(target);
    }
    checkBlocks(join(staging, "blocks.sqlite"), version, manifest);
    for (const d of manifest.databases) {
      if (d.name === "state" && d.heads !== null)
        checkState(join(staging, d.file), version, d.heads);
    }

    const files = manifest.databases.map((d) => d.file);
    const replacedDir = moveAside(
      networkDir,
      [...new Set([...NETWORK_DATABASE_FILES, ...files])],
      now(),
    );
    if (replacedDir !== undefined) say(`moved the current databases to ${replacedDir}`);
    for (const f of files) {
      try {
        mkdirSync(dirname(join(networkDir, f)), { recursive: true, mode: PRIVATE_DIR_MODE });
        renameSync(join(staging, f), join(networkDir, f));
      } catch (e) {
        throw restoreFailed(join(networkDir, f), e, "cannot move the restored file to");
      }
    }
    say(`restored backup ${manifest.id} into ${networkDir}`);
    return {
      id: manifest.id,
      network: manifest.network,
      networkDir,
      files,
      cut: manifest.cut,
      replacedDir,
    };
  } finally {
    if (created) rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}
