/**
 * `SqlDatabase`: one open better-sqlite3 database with the node's settings
 * (WAL journal, foreign keys on, NORMAL sync), a statement cache keyed by the
 * `sql` call site (so each statement is prepared once per database), and
 * transactions, and attempts: savepoints that a returned failure takes back without a
 * throw ({@link SqlDatabase.attempt}). Rows come back as `unknown`; the caller's mapper parses them.
 * It also copies itself with SQLite's online backup API ({@link SqlDatabase.backup})
 * and runs SQLite's integrity check (the backup area uses both).
 * @module
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { Result } from "../errors/result.ts";
import { StoreError, StoreErrorCode } from "./errors.ts";
import { makePrivateFile, PRIVATE_DIR_MODE, touchPrivateFile } from "./privateFiles.ts";
import { type SqlQuery, sql, sqlText } from "./sql.ts";

export type OpenDatabaseOptions = {
  /** Path of better_sqlite3.node for this process's ABI (Electron passes its own build). */
  readonly nativeBinding?: string | undefined;
  /**
   * Open an existing database for reading only (an execution worker's
   * connection beside the node's writer; WAL lets it read a consistent
   * snapshot while the writer commits).
   */
  readonly readOnly?: boolean | undefined;
  /**
   * Page size of a database this opening creates (SQLite ignores it for an
   * existing WAL database; {@link SqlDatabase.vacuum} changes that one).
   */
  readonly pageSize?: number | undefined;
};

/** Page sizes SQLite takes: powers of two from 512 to 65,536. */
function checkedPageSize(n: number): number {
  if (!Number.isSafeInteger(n) || n < 512 || n > 65536 || (n & (n - 1)) !== 0) {
    throw new StoreError(
      { code: StoreErrorCode.Invariant, reason: `bad page size ${n}` },
      `block store: bad page size ${n}`,
    );
  }
  return n;
}

type Statement = Database.Statement<unknown[], unknown>;

/** Where an online backup stands after a step. */
export type BackupProgress = { readonly totalPages: number; readonly remainingPages: number };

export type OnlineBackupOptions = {
  /** Pages copied per step (default 256); other work runs between steps. */
  readonly pagesPerStep?: number | undefined;
  /**
   * Called after each step but the last; a number returned becomes the step
   * size from then on; a throw stops the backup with that error.
   */
  readonly onProgress?: ((progress: BackupProgress) => number | undefined) | undefined;
};

const DEFAULT_PAGES_PER_STEP = 256;

/** Whether `path` names a file (not `:memory:`, a temporary database or a `file:` URI). */
function isFilePath(path: string): boolean {
  return path !== "" && path !== ":memory:" && !path.startsWith("file:");
}

export class SqlDatabase {
  readonly path: string;
  readonly #db: Database.Database;
  readonly #statements = new WeakMap<TemplateStringsArray, Statement>();
  /**
   * better-sqlite3's transaction function, made once: making one per call
   * (four wrapped functions and their properties) cost more than the
   * SAVEPOINT it runs, and a block's insert runs several.
   */
  readonly #inTransaction: (fn: () => unknown) => unknown;
  #closed = false;

  private constructor(path: string, db: Database.Database) {
    this.path = path;
    this.#db = db;
    this.#inTransaction = db.transaction((fn: () => unknown) => fn());
  }

  /**
   * Opens (creating when missing) the database file and its directory.
   * @throws {StoreError} STORE_OPEN_FAILED when the file cannot be opened or is not a database.
   */
  static open(path: string, options: OpenDatabaseOptions = {}): SqlDatabase {
    try {
      const readonly = options.readOnly === true;
      if (!readonly) {
        // Folders it makes are 0700; the file 0600 before SQLite opens it, so
        // that its -wal and -shm files get the same mode (privateFiles.ts).
        mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
        if (isFilePath(path)) {
          touchPrivateFile(path);
          for (const side of ["-wal", "-shm"]) makePrivateFile(`${path}${side}`);
        }
      }
      const db = new Database(path, {
        ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
        ...(readonly ? { readonly: true, fileMustExist: true } : {}),
      });
      try {
        // Before WAL: a new file takes its page size from its first write.
        if (!readonly && options.pageSize !== undefined)
          db.pragma(`page_size = ${checkedPageSize(options.pageSize)}`);
        // The journal mode is the file's: a reader finds WAL set by the writer.
        if (!readonly) db.pragma("journal_mode = WAL");
        db.pragma("foreign_keys = ON");
        // WAL + NORMAL: a crash of the process loses nothing committed; a power
        // loss may lose the last transactions but never corrupts the file.
        if (!readonly) db.pragma("synchronous = NORMAL");
        db.pragma("busy_timeout = 5000");
      } catch (e) {
        db.close();
        throw e;
      }
      return new SqlDatabase(path, db);
    } catch (e) {
      throw new StoreError(
        {
          code: StoreErrorCode.OpenFailed,
          path,
          reason: e instanceof Error ? e.message : String(e),
        },
        `cannot open database ${path}: ${e instanceof Error ? e.message : String(e)}`,
        { cause: e },
      );
    }
  }

  get isOpen(): boolean {
    return !this.#closed;
  }

  #requireOpen(): void {
    if (this.#closed) {
      throw new StoreError(
        { code: StoreErrorCode.Closed, path: this.path },
        `database ${this.path} is closed`,
      );
    }
  }

  #statement(query: SqlQuery): Statement {
    this.#requireOpen();
    let s = this.#statements.get(query.strings);
    if (s === undefined) {
      s = this.#db.prepare(sqlText(query));
      this.#statements.set(query.strings, s);
    }
    return s;
  }

  /** The first row, mapped, or undefined. */
  get<T>(query: SqlQuery, map: (row: unknown) => T): T | undefined {
    const row = this.#statement(query).get(...query.values);
    return row === undefined ? undefined : map(row);
  }

  /** Every row, mapped. */
  all<T>(query: SqlQuery, map: (row: unknown) => T): T[] {
    return this.#statement(query)
      .all(...query.values)
      .map(map);
  }

  /** The first column of every row (statements selecting one column). */
  column<T>(query: SqlQuery, map: (value: unknown) => T): T[] {
    return this.#statement(query)
      .raw(true)
      .all(...query.values)
      .map((row) => map((row as unknown[])[0]));
  }

  /** Every row as an array of its columns in selected order, mapped (hot paths: no row objects). */
  tuples<T>(query: SqlQuery, map: (row: readonly unknown[]) => T): T[] {
    return this.#statement(query)
      .raw(true)
      .all(...query.values)
      .map((row) => map(row as unknown[]));
  }

  /**
   * Every row as SQLite gives it, an array of its columns in selected order
   * (the page writers read them without a mapped object per row).
   */
  rows(query: SqlQuery): (readonly unknown[])[] {
    return this.#statement(query)
      .raw(true)
      .all(...query.values) as unknown[][];
  }

  /**
   * SQLite's plan of a statement (EXPLAIN QUERY PLAN, each step's detail):
   * for tests that pin a plan a statement's result depends on, such as an
   * order taken from an index.
   */
  queryPlan(query: SqlQuery): string[] {
    this.#requireOpen();
    return this.#db
      .prepare(`EXPLAIN QUERY PLAN ${sqlText(query)}`)
      .all(...query.values)
      .map((row) => String((row as { detail: unknown }).detail));
  }

  /** Runs a statement; returns the number of rows changed. */
  run(query: SqlQuery): number {
    return this.#statement(query).run(...query.values).changes;
  }

  /** Runs DDL or several statements (no parameters allowed). */
  exec(query: SqlQuery): void {
    if (query.values.length > 0) {
      throw new StoreError(
        { code: StoreErrorCode.Invariant, reason: "exec takes no parameters" },
        "block store: exec takes no parameters",
      );
    }
    this.#requireOpen();
    this.#db.exec(sqlText(query));
  }

  /** Runs `fn` in one transaction (nested calls become savepoints). */
  transaction<T>(fn: () => T): T {
    this.#requireOpen();
    return this.#inTransaction(fn) as T;
  }

  /**
   * Runs `fn` in a savepoint (a transaction when none is open) that keeps what `fn` wrote
   * when it returns a success and takes it back when it returns a failure: an expected
   * rejection rolls back without a throw. When `fn` throws (a bug, a failed statement),
   * what it wrote is taken back and the throw goes on.
   */
  attempt<T, E>(fn: () => Result<T, E>): Result<T, E> {
    return this.#savepoint(fn, (r) => r.ok);
  }

  /** Runs `fn` in a savepoint that is always taken back (a trial); returns what `fn` returned. */
  rolledBack<T>(fn: () => T): T {
    return this.#savepoint(fn, () => false);
  }

  #savepoint<T>(fn: () => T, keep: (out: T) => boolean): T {
    this.run(sql`SAVEPOINT weft_attempt`);
    let out: T;
    try {
      out = fn();
      if (keep(out)) {
        this.run(sql`RELEASE weft_attempt`);
        return out;
      }
    } catch (e) {
      this.#undoSavepoint();
      throw e;
    }
    this.#undoSavepoint();
    return out;
  }

  #undoSavepoint(): void {
    // A failed statement may have ended the whole transaction already (SQLite rolls back
    // on some errors, e.g. a full disk); then no savepoint is left to go back to.
    if (!this.#db.inTransaction) return;
    this.run(sql`ROLLBACK TO weft_attempt`);
    this.run(sql`RELEASE weft_attempt`);
  }

  /** `PRAGMA user_version`: the schema version migrations have reached. */
  userVersion(): number {
    const v = this.#db.pragma("user_version", { simple: true });
    return typeof v === "number" ? v : 0;
  }

  /** Sets `PRAGMA user_version` (inside a migration's transaction). */
  setUserVersion(version: number): void {
    if (!Number.isSafeInteger(version) || version < 0) {
      throw new StoreError(
        { code: StoreErrorCode.Invariant, reason: `bad schema version ${version}` },
        `block store: bad schema version ${version}`,
      );
    }
    // PRAGMA takes no bound parameters; the value is a checked integer.
    this.#db.pragma(`user_version = ${version}`);
  }

  /** `PRAGMA page_size`: the file's page size in bytes. */
  pageSize(): number {
    this.#requireOpen();
    const v = this.#db.pragma("page_size", { simple: true });
    return typeof v === "number" ? v : 0;
  }

  /**
   * The bytes an online backup of this database writes: its pages (free ones too) times the
   * page size, as this connection sees them (changes still in the WAL included). The files'
   * sizes are no estimate of it: a WAL file keeps its size after a checkpoint.
   */
  sizeBytes(): number {
    this.#requireOpen();
    const pages = this.#db.pragma("page_count", { simple: true });
    return typeof pages === "number" ? pages * this.pageSize() : 0;
  }

  /**
   * Rebuilds the file (SQLite's VACUUM), with `pageSize` when given: the free
   * pages go back to the file system. WAL cannot change the page size, so the
   * journal is switched to DELETE for the rebuild and back to WAL after it.
   * Blocks the thread for the whole copy (about a second per 100 MB); no
   * other connection may be open on the file.
   */
  vacuum(pageSize?: number): void {
    this.#requireOpen();
    if (pageSize === undefined) {
      this.#db.exec("VACUUM");
      return;
    }
    const n = checkedPageSize(pageSize);
    this.#db.pragma("journal_mode = DELETE");
    try {
      this.#db.pragma(`page_size = ${n}`);
      this.#db.exec("VACUUM");
    } finally {
      this.#db.pragma("journal_mode = WAL");
    }
  }

  /**
   * Copies the database into the new file `destination` with SQLite's online
   * backup API, `pagesPerStep` pages at a time, letting the event loop run
   * between steps. Writes made through this connection while it runs are
   * copied as well, so the file holds the database as it is when the promise
   * resolves (the same turn of the event loop). The copy is made 0600. Writes through another
   * connection restart the copy (SQLite's rule), so pass the connection the
   * database is written through.
   * @returns the number of pages copied.
   * @throws the SQLite or file-system error that stopped it (a missing folder,
   *   no permission, a full disk), or the error `onProgress` threw; a new
   *   destination file is removed then.
   */
  async backup(destination: string, options: OnlineBackupOptions = {}): Promise<number> {
    this.#requireOpen();
    let pages = options.pagesPerStep ?? DEFAULT_PAGES_PER_STEP;
    const onProgress = options.onProgress;
    const result = await this.#db.backup(destination, {
      progress: (p) => {
        const next = onProgress?.(p);
        if (next !== undefined && Number.isSafeInteger(next) && next > 0) pages = next;
        return pages;
      },
    });
    // Made by SQLite with the umask's mode; the folder it is in is already 0700.
    makePrivateFile(destination);
    return result.totalPages;
  }

  /**
   * SQLite's `PRAGMA integrity_check`: `["ok"]`, or the problems found (a
   * file too damaged to check gives SQLite's error message). Slow on large files.
   */
  integrityCheck(): string[] {
    this.#requireOpen();
    let rows: unknown;
    try {
      rows = this.#db.pragma("integrity_check");
    } catch (e) {
      return [e instanceof Error ? e.message : String(e)];
    }
    if (!Array.isArray(rows)) return [`unexpected answer ${String(rows)}`];
    return rows.map((row: unknown) =>
      typeof row === "object" && row !== null ? String(Object.values(row)[0]) : String(row),
    );
  }

  /** Closes the database (idempotent); the WAL is checkpointed into the file. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}
