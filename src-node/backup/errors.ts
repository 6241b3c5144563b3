/**
 * Errors of the backup area: backup ids, the jobs' failure reasons (kept in
 * each backup's manifest), reading manifests, restoring, and the data folder
 * lock a running node holds.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const BackupErrorCode = {
  BadId: "BACKUP_BAD_ID",
  UnknownId: "BACKUP_UNKNOWN_ID",
  DirectoryUnusable: "BACKUP_DIRECTORY_UNUSABLE",
  WriteFailed: "BACKUP_WRITE_FAILED",
  SourceChanging: "BACKUP_SOURCE_CHANGING",
  Interrupted: "BACKUP_INTERRUPTED",
  Stopped: "BACKUP_STOPPED",
  BadManifest: "BACKUP_BAD_MANIFEST",
  NotDone: "BACKUP_NOT_DONE",
  ChecksumMismatch: "BACKUP_CHECKSUM_MISMATCH",
  IntegrityFailed: "BACKUP_INTEGRITY_FAILED",
  WrongNetwork: "BACKUP_WRONG_NETWORK",
  RestoreFailed: "BACKUP_RESTORE_FAILED",
  DataInUse: "BACKUP_DATA_IN_USE",
  LockFailed: "BACKUP_LOCK_FAILED",
  Invariant: "BACKUP_INVARIANT",
  NotRestorable: "BACKUP_NOT_RESTORABLE",
  FolderUnusable: "BACKUP_FOLDER_UNUSABLE",
  Running: "BACKUP_RUNNING",
  UnsafeFile: "BACKUP_UNSAFE_FILE",
} as const;

export type BackupErrorCodeValue = (typeof BackupErrorCode)[keyof typeof BackupErrorCode];

/** The codes a job can fail with (stored in its manifest). */
export type BackupFailureCode =
  | typeof BackupErrorCode.DirectoryUnusable
  | typeof BackupErrorCode.WriteFailed
  | typeof BackupErrorCode.SourceChanging
  | typeof BackupErrorCode.Interrupted
  | typeof BackupErrorCode.Stopped
  | typeof BackupErrorCode.Invariant;

export type BackupErrorType =
  /** `id`: the text given as a backup id. */
  | { code: typeof BackupErrorCode.BadId; id: string; reason: string }
  | { code: typeof BackupErrorCode.UnknownId; id: string }
  /** A job's failure; `path` is the folder or file it was about. */
  | { code: BackupFailureCode; path: string; reason: string }
  /** `path`: the manifest file. */
  | { code: typeof BackupErrorCode.BadManifest; path: string; reason: string }
  | { code: typeof BackupErrorCode.NotDone; path: string; status: string }
  | {
      code: typeof BackupErrorCode.ChecksumMismatch;
      path: string;
      expected: string;
      actual: string;
    }
  | { code: typeof BackupErrorCode.IntegrityFailed; path: string; reason: string }
  | { code: typeof BackupErrorCode.WrongNetwork; path: string; expected: string; actual: string }
  | { code: typeof BackupErrorCode.RestoreFailed; path: string; reason: string }
  /** `lockFile`: the lock of the data folder; `pid`, `host`: the process holding it. */
  | { code: typeof BackupErrorCode.DataInUse; lockFile: string; pid: number; host: string }
  | { code: typeof BackupErrorCode.LockFailed; lockFile: string; reason: string }
  /** The app's check or restore refused `path`; `cause`: the check's own code. */
  | { code: typeof BackupErrorCode.NotRestorable; path: string; cause: string }
  /** The folder chosen for the app's backups (`path`) cannot hold them. */
  | { code: typeof BackupErrorCode.FolderUnusable; path: string; reason: string }
  /** `id`: the job running, which the request would disturb. */
  | { code: typeof BackupErrorCode.Running; id: string }
  /** `path`: a backup folder, or a file or folder in it, that is a symbolic link or not a plain file. */
  | { code: typeof BackupErrorCode.UnsafeFile; path: string; reason: string };

export class BackupError extends NodeError<BackupErrorType> {}

/** The message of any thrown value (errors from the file system and SQLite). */
export function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Throws a BACKUP_INVARIANT error: a state the backup area's own writes cannot produce (a bug). */
export function backupInvariant(reason: string): never {
  throw new BackupError({ code: BackupErrorCode.Invariant, path: "", reason }, `backup: ${reason}`);
}
