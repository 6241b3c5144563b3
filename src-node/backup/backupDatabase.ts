/**
 * What a backup copies: a list of SQLite databases, each named, with the
 * connection it is written through (the online backup must run on that
 * connection, see SqlDatabase.backup) and, optionally, a reader that
 * describes a finished copy for the manifest. The node passes its block
 * database and, when it has one, its contract-state database; any other
 * database a later area adds joins the same list. Plain files (the wallet's
 * encrypted files, `wallet/*.json`) are copied as they are: {@link BackupFile}.
 * @module
 */
import type { CutJson } from "../chain/cutJson.ts";
import type { SqlDatabase } from "../store/sqlDatabase.ts";
import type { ChainHeads } from "./backupManifest.ts";

/** What a finished copy holds, read from the copy itself. */
export type CopyDescription = {
  /** Per chain, the newest block the copy holds. */
  readonly heads: ChainHeads;
  /** The best cut (the block database only). */
  readonly cut?: CutJson | undefined;
};

export type BackupDatabase = {
  /** `blocks`, `state`, … (the manifest's name for it). */
  readonly name: string;
  /** Its file name, the same in `dataDir/<network>/` and in the backup folder. */
  readonly file: string;
  /** The connection the node writes it through. */
  readonly db: SqlDatabase;
  /** Copied only when the job asks for the contract state (`backupPact`). */
  readonly pactOnly: boolean;
  /**
   * Reads a finished copy (a closed file at `copyPath`); small reads only, it
   * runs on the node's thread. Throwing fails the job.
   */
  readonly describe?: ((copyPath: string) => CopyDescription) | undefined;
};

/** A plain file copied byte for byte (the wallet's files; no SQLite, no read-back). */
export type BackupFile = {
  readonly name: string;
  /** Its path relative to `dataDir/<network>/` and to the backup folder: `wallet/<name>.json`. */
  readonly file: string;
  /** Where it is now (absolute). */
  readonly sourcePath: string;
  readonly pactOnly: false;
};

/** What a job copies: databases, then plain files. */
export type BackupSource = BackupDatabase | BackupFile;

export function isBackupFile(s: BackupSource): s is BackupFile {
  return "sourcePath" in s;
}
