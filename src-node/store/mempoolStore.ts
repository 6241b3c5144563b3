/**
 * `MempoolStore`: mempool.sqlite, the pending commands kept on disk (the
 * only place with its SQL). The mempool (mempool/mempool.ts) writes each
 * accepted batch here in one transaction before /send answers, and deletes
 * commands as they leave; with WAL and `synchronous = NORMAL` a committed
 * write survives the process being killed. At start the node reads every
 * row back in arrival order and checks each command again
 * (mempool/commandService.ts `restorePending`).
 * @module
 */
import { isNodeError } from "../errors/nodeError.ts";
import { StoreError, StoreErrorCode } from "./errors.ts";
import { mempoolMigrations } from "./mempoolMigrations.ts";
import { runMigrations } from "./migration.ts";
import { sql } from "./sql.ts";
import { type OpenDatabaseOptions, SqlDatabase } from "./sqlDatabase.ts";

/** One pending command: its chain, request key and wire JSON text. */
export type PendingRow = {
  readonly chainId: number;
  readonly requestKey: string;
  readonly command: string;
};

export type MempoolStoreOptions = OpenDatabaseOptions & {
  /** The mempool.sqlite file (`:memory:` for a throw-away database). */
  readonly path: string;
};

function pendingRow(path: string, row: unknown): PendingRow {
  const r = (typeof row === "object" && row !== null ? row : {}) as Record<string, unknown>;
  const { chain_id: chainId, request_key: requestKey, command } = r;
  if (
    typeof chainId !== "number" ||
    !Number.isSafeInteger(chainId) ||
    typeof requestKey !== "string" ||
    typeof command !== "string"
  ) {
    throw new StoreError(
      { code: StoreErrorCode.Corrupt, path, reason: "a pending row of the wrong shape" },
      `${path}: a pending row of the wrong shape`,
    );
  }
  return { chainId, requestKey, command };
}

export class MempoolStore {
  readonly db: SqlDatabase;
  readonly path: string;

  private constructor(db: SqlDatabase) {
    this.db = db;
    this.path = db.path;
  }

  /**
   * Opens (creating when new) mempool.sqlite and brings its schema up to date.
   * @throws {StoreError} STORE_OPEN_FAILED, STORE_SCHEMA_TOO_NEW.
   */
  static open(options: MempoolStoreOptions): MempoolStore {
    const db = SqlDatabase.open(options.path, options);
    try {
      runMigrations(db, mempoolMigrations);
    } catch (e) {
      db.close();
      throw e;
    }
    return new MempoolStore(db);
  }

  /** Runs a write; a refusal of SQLite (full disk, I/O error) becomes STORE_WRITE_FAILED. */
  #write(what: string, fn: () => void): void {
    try {
      this.db.transaction(fn);
    } catch (e) {
      if (isNodeError(e)) throw e;
      const reason = e instanceof Error ? e.message : String(e);
      throw new StoreError(
        { code: StoreErrorCode.WriteFailed, path: this.path, reason },
        `cannot ${what} in ${this.path}: ${reason}`,
        { cause: e },
      );
    }
  }

  /**
   * Adds commands of one chain in one transaction (a request key already
   * stored keeps its row and arrival).
   * @throws {StoreError} STORE_WRITE_FAILED.
   */
  add(chainId: number, rows: readonly { requestKey: string; command: string }[]): void {
    if (rows.length === 0) return;
    this.#write("store pending commands", () => {
      for (const r of rows) {
        this.db.run(
          sql`INSERT OR IGNORE INTO pending (chain_id, request_key, command)
              VALUES (${chainId}, ${r.requestKey}, ${r.command})`,
        );
      }
    });
  }

  /**
   * Deletes commands of one chain by request key, in one transaction.
   * @throws {StoreError} STORE_WRITE_FAILED.
   */
  remove(chainId: number, requestKeys: readonly string[]): void {
    if (requestKeys.length === 0) return;
    this.#write("delete pending commands", () => {
      for (const k of requestKeys) {
        this.db.run(sql`DELETE FROM pending WHERE chain_id = ${chainId} AND request_key = ${k}`);
      }
    });
  }

  /** Every stored command, in arrival order. */
  all(): PendingRow[] {
    return this.db.all(sql`SELECT chain_id, request_key, command FROM pending ORDER BY seq`, (r) =>
      pendingRow(this.path, r),
    );
  }

  /** How many commands are stored. */
  count(): number {
    return (
      this.db.get(sql`SELECT count(*) AS n FROM pending`, (r) => Number((r as { n: unknown }).n)) ??
      0
    );
  }

  close(): void {
    this.db.close();
  }

  get isOpen(): boolean {
    return this.db.isOpen;
  }
}
