/**
 * `StateDb`: the contract-state database of one network (state.sqlite), the
 * only place with its SQL. State of every chain is versioned by (chain,
 * block height, transaction id) as architecture §2.4 says: each write is a
 * new row version, a read takes the newest version below a transaction-id
 * bound (the state after some block), and a rewind deletes every version
 * above a height. It also keeps, per chain, which blocks the state holds
 * (`state_blocks`: one branch, the one executed last) and the command
 * results of those blocks by request key (/poll, duplicate checks).
 *
 * Contract code reaches the state only through {@link SqliteContractStorage}
 * (sqliteContractStorage.ts), which buffers a transaction's writes and
 * writes them here on commit. A block's execution is one SQLite transaction
 * ({@link StateDb.transaction}); building a payload or a failed validation
 * runs in one that is rolled back ({@link StateDb.rolledBack}), each candidate command in a
 * savepoint its rejection takes back ({@link StateDb.attempt}).
 *
 * History below a chain's compaction horizon may have been compacted
 * (stateCompaction.ts): {@link StateDb.compaction} says from which height
 * the state is exact, and a rewind below it is refused.
 * @module
 */
import type { Hash32 } from "../encoding/hash32.ts";
import type { Result } from "../errors/result.ts";
import { StoreError, StoreErrorCode, storeInvariant } from "./errors.ts";
import { runMigrations } from "./migration.ts";
import { sql } from "./sql.ts";
import { type OpenDatabaseOptions, SqlDatabase } from "./sqlDatabase.ts";
import { SqliteContractStorage, type SqliteStorageOptions } from "./sqliteContractStorage.ts";
import { stateMigrations } from "./stateMigrations.ts";

/** A block whose execution the state holds. `endTxId`: the first transaction id after it. */
export type StateBlock = {
  readonly chainId: number;
  readonly height: number;
  readonly hash: Hash32;
  readonly endTxId: number;
};

/** A command result of a block the state holds. */
export type StoredResult = {
  readonly requestKey: string;
  readonly height: number;
  readonly blockHash: Hash32;
  /** Index of the command in its block. */
  readonly position: number;
  /** The command result JSON text, as in the payload. */
  readonly output: string;
};

/** A stored version of a row: its value text and the (txid, seq) that wrote it. */
export type VersionRow = { readonly txid: number; readonly seq: number; readonly value: string };

/** Every row a chain's state holds (to copy a computed genesis state). */
export type ChainRows = {
  readonly versions: readonly (VersionRow & {
    readonly tbl: string;
    readonly key: string;
    readonly height: number;
  })[];
  readonly tables: readonly {
    readonly tbl: string;
    readonly module: string;
    readonly txid: number;
    readonly height: number;
  }[];
};

/**
 * How far a chain's history was compacted (store/stateCompaction.ts): the
 * state is exact at the blocks held at or above `horizonHeight`.
 */
export type Compaction = {
  readonly chainId: number;
  readonly horizonHeight: number;
  readonly horizonEndTxId: number;
  /** Versions below it are compacted against `horizonEndTxId` (the round is over at it). */
  readonly cursorTxId: number;
};

/** Every transaction id is below this; a read bounded by it sees everything. */
export const NO_TXID_LIMIT = Number.MAX_SAFE_INTEGER;

function corrupt(path: string, reason: string): never {
  throw new StoreError({ code: StoreErrorCode.Corrupt, path, reason }, `${path}: ${reason}`);
}

function rec(path: string, row: unknown): Record<string, unknown> {
  if (typeof row !== "object" || row === null) corrupt(path, "a row is not an object");
  return row as Record<string, unknown>;
}

function int(path: string, v: unknown, column: string): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v))
    corrupt(path, `${column} is not an integer`);
  return v;
}

function text(path: string, v: unknown, column: string): string {
  if (typeof v !== "string") corrupt(path, `${column} is not text`);
  return v;
}

export type StateDbOptions = OpenDatabaseOptions & {
  /** The state.sqlite file (`:memory:` for a throw-away database). */
  readonly path: string;
};

export class StateDb {
  readonly db: SqlDatabase;
  readonly path: string;
  /**
   * Decoded system records by chain, `tbl\0key` → the version they were
   * decoded from (modules are large; decoding them per read is the hot path).
   * `newest`: on the writer, no later version of the row exists, so a read
   * bounded above it needs no statement at all (every block reads the coin
   * module; that query was a SQLite statement per record and block). Every
   * write of the row drops its entry (insertVersion); a rewind, a reset or a
   * rollback clears them; compaction never deletes a row's newest version.
   */
  readonly #decoded = new Map<
    number,
    Map<string, { txid: number; seq: number; value: unknown; newest: boolean }>
  >();
  /**
   * On the writer, each chain's user tables as the database holds them
   * (null: none), read once: every block's coin call asked SQLite for its
   * table's module. Written by insertTable; forgotten on a rewind, a reset
   * or a rollback.
   */
  readonly #tables = new Map<number, Map<string, { module: string; txid: number } | null>>();
  /**
   * On the writer, the newest version of recently read or written user rows
   * by chain, `tbl\0key` (null: no version): a miner's account is read by
   * every block's coinbase right after the previous block wrote it. Same
   * rule as {@link #decoded}'s `newest`; texts only (decoded by the reader,
   * as a row read from SQLite is).
   */
  readonly #rows = new Map<number, Map<string, VersionRow | null>>();
  /** Each chain's head (null: none), as last read or written; forgotten on any rollback. */
  readonly #heads = new Map<number, StateBlock | null>();
  /** A reader's heads move under it (another connection writes): never cached. */
  readonly #cacheHeads: boolean;

  private constructor(db: SqlDatabase, cacheHeads = true) {
    this.db = db;
    this.path = db.path;
    this.#cacheHeads = cacheHeads;
  }

  /**
   * Opens (creating when new) state.sqlite and brings its schema up to date.
   * @throws {StoreError} STORE_OPEN_FAILED, STORE_SCHEMA_TOO_NEW.
   */
  static open(options: StateDbOptions): StateDb {
    const db = SqlDatabase.open(options.path, options);
    try {
      runMigrations(db, stateMigrations);
    } catch (e) {
      db.close();
      throw e;
    }
    return new StateDb(db);
  }

  /**
   * Opens an existing state.sqlite read-only, beside the node's writer (an
   * execution worker). Heads are read afresh each time; decoded system
   * records are kept, and the reader forgets a chain's with
   * {@link StateDb.forgetDecoded} when the writer rewound it.
   * @throws {StoreError} STORE_OPEN_FAILED
   */
  static openReader(options: StateDbOptions): StateDb {
    return new StateDb(SqlDatabase.open(options.path, { ...options, readOnly: true }), false);
  }

  /**
   * Runs `fn` on one consistent snapshot of the database (a read
   * transaction: another connection's commits meanwhile stay invisible).
   */
  snapshot<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }

  /** Forgets the decoded system records of `chainId` (its rows were rewritten elsewhere). */
  forgetDecoded(chainId: number): void {
    this.#decoded.get(chainId)?.clear();
  }

  close(): void {
    this.#forget();
    this.db.close();
  }

  /**
   * Forgets what this connection remembers of `chainId`'s rows, tables and
   * head (of every chain when undefined): on a rewind, a reset or a rollback.
   */
  #forget(chainId?: number): void {
    if (chainId === undefined) {
      this.#decoded.clear();
      this.#rows.clear();
      this.#tables.clear();
      this.#heads.clear();
      return;
    }
    this.#decoded.get(chainId)?.clear();
    this.#rows.delete(chainId);
    this.#tables.delete(chainId);
    this.#heads.delete(chainId);
  }

  get isOpen(): boolean {
    return this.db.isOpen;
  }

  // ---- meta

  meta(key: string): string | undefined {
    return this.db.get(sql`SELECT value FROM meta WHERE key = ${key}`, (r) =>
      text(this.path, rec(this.path, r).value, "value"),
    );
  }

  setMeta(key: string, value: string): void {
    this.db.run(
      sql`INSERT INTO meta (key, value) VALUES (${key}, ${value})
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
  }

  // ---- transactions

  /** Runs `fn` in one transaction; a throw rolls everything back. */
  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn);
    } catch (e) {
      // Rows written inside may have been decoded and cached.
      this.#forget();
      throw e;
    }
  }

  /**
   * Runs `fn` in a savepoint that keeps its writes when it returns a success and takes them
   * back when it returns a failure; a throw takes them back too and goes on.
   */
  attempt<T, E>(fn: () => Result<T, E>): Result<T, E> {
    let r: Result<T, E>;
    try {
      r = this.db.attempt(fn);
    } catch (e) {
      this.#forget();
      throw e;
    }
    // Rows written inside may have been decoded and cached.
    if (!r.ok) this.#forget();
    return r;
  }

  /** Runs `fn` in a transaction that is always rolled back (trial execution). */
  rolledBack<T>(fn: () => T): T {
    try {
      return this.db.rolledBack(fn);
    } finally {
      this.#forget();
    }
  }

  // ---- blocks held

  #blockRow = (row: unknown): StateBlock => {
    const r = rec(this.path, row);
    return {
      chainId: int(this.path, r.chain_id, "chain_id"),
      height: int(this.path, r.height, "height"),
      hash: text(this.path, r.hash, "hash") as Hash32,
      endTxId: int(this.path, r.end_txid, "end_txid"),
    };
  };

  /** The highest block the state of `chainId` holds. */
  head(chainId: number): StateBlock | undefined {
    const known = this.#heads.get(chainId);
    if (known !== undefined) return known ?? undefined;
    const head = this.db.get(
      sql`SELECT chain_id, height, hash, end_txid FROM state_blocks
          WHERE chain_id = ${chainId} ORDER BY height DESC LIMIT 1`,
      this.#blockRow,
    );
    if (this.#cacheHeads) this.#heads.set(chainId, head ?? null);
    return head;
  }

  /** The block the state of `chainId` holds at `height`. */
  blockAt(chainId: number, height: number): StateBlock | undefined {
    const head = this.#heads.get(chainId);
    if (head !== undefined && head !== null && head.height === height) return head;
    return this.db.get(
      sql`SELECT chain_id, height, hash, end_txid FROM state_blocks
          WHERE chain_id = ${chainId} AND height = ${height}`,
      this.#blockRow,
    );
  }

  /** The blocks held for `chainId`, highest first, at most `limit`. */
  blocksDescending(chainId: number, limit: number): StateBlock[] {
    return this.db.all(
      sql`SELECT chain_id, height, hash, end_txid FROM state_blocks
          WHERE chain_id = ${chainId} ORDER BY height DESC LIMIT ${limit}`,
      this.#blockRow,
    );
  }

  /** Records that the state now holds `block` (its writes are already in). */
  recordBlock(block: StateBlock): void {
    this.db.run(
      sql`INSERT INTO state_blocks (chain_id, height, hash, end_txid)
          VALUES (${block.chainId}, ${block.height}, ${block.hash}, ${block.endTxId})`,
    );
    const head = this.#heads.get(block.chainId);
    if (head === undefined || head === null || head.height < block.height) {
      this.#heads.set(block.chainId, block);
    }
  }

  /**
   * Discards everything of `chainId` above `height`: blocks held, row
   * versions, tables and results. Run it inside a transaction with the
   * re-execution that follows.
   * @throws {StoreError} STORE_INVARIANT below the compaction horizon (the
   *   state there is not exact; the caller starts the chain again instead).
   */
  rewind(chainId: number, height: number): void {
    const compaction = this.compaction(chainId);
    if (compaction !== undefined && height < compaction.horizonHeight) {
      storeInvariant(
        `rewinding chain ${chainId} to ${height}, below its compaction horizon ${compaction.horizonHeight}`,
      );
    }
    const keep = this.blockAt(chainId, height);
    const fromTxId = keep?.endTxId ?? 0;
    this.db.run(sql`DELETE FROM versions WHERE chain_id = ${chainId} AND txid >= ${fromTxId}`);
    this.db.run(sql`DELETE FROM user_tables WHERE chain_id = ${chainId} AND txid >= ${fromTxId}`);
    this.db.run(sql`DELETE FROM results WHERE chain_id = ${chainId} AND height > ${height}`);
    this.db.run(sql`DELETE FROM state_blocks WHERE chain_id = ${chainId} AND height > ${height}`);
    this.#forget(chainId);
  }

  /** Discards the whole state of `chainId` (before running its genesis again). */
  resetChain(chainId: number): void {
    this.db.run(sql`DELETE FROM versions WHERE chain_id = ${chainId}`);
    this.db.run(sql`DELETE FROM user_tables WHERE chain_id = ${chainId}`);
    this.db.run(sql`DELETE FROM results WHERE chain_id = ${chainId}`);
    this.db.run(sql`DELETE FROM state_blocks WHERE chain_id = ${chainId}`);
    this.db.run(sql`DELETE FROM state_compaction WHERE chain_id = ${chainId}`);
    this.#forget(chainId);
  }

  // ---- compaction (the steps themselves: stateCompaction.ts)

  /** How far the history of `chainId` was compacted; undefined: never (all of it is kept). */
  compaction(chainId: number): Compaction | undefined {
    return this.db.get(
      sql`SELECT chain_id, horizon_height, horizon_end_txid, cursor_txid FROM state_compaction
          WHERE chain_id = ${chainId}`,
      (row) => {
        const r = rec(this.path, row);
        return {
          chainId: int(this.path, r.chain_id, "chain_id"),
          horizonHeight: int(this.path, r.horizon_height, "horizon_height"),
          horizonEndTxId: int(this.path, r.horizon_end_txid, "horizon_end_txid"),
          cursorTxId: int(this.path, r.cursor_txid, "cursor_txid"),
        };
      },
    );
  }

  /** Records where compaction of `chainId` stands. */
  setCompaction(c: Compaction): void {
    this.db.run(
      sql`INSERT INTO state_compaction (chain_id, horizon_height, horizon_end_txid, cursor_txid)
          VALUES (${c.chainId}, ${c.horizonHeight}, ${c.horizonEndTxId}, ${c.cursorTxId})
          ON CONFLICT (chain_id) DO UPDATE SET horizon_height = excluded.horizon_height,
            horizon_end_txid = excluded.horizon_end_txid, cursor_txid = excluded.cursor_txid`,
    );
  }

  /** How many row versions `chainId` keeps (tests, benchmarks). */
  versionCount(chainId: number): number {
    return (
      this.db.get(sql`SELECT count(*) AS n FROM versions WHERE chain_id = ${chainId}`, (row) =>
        int(this.path, rec(this.path, row).n, "n"),
      ) ?? 0
    );
  }

  /**
   * The newest value of every row of `chainId` below transaction id `limit`,
   * `tbl\0key` → value text: the whole state after a block (to compare states).
   */
  valuesAt(chainId: number, limit: number): Map<string, string> {
    const out = new Map<string, string>();
    for (const r of this.db.all(
      sql`SELECT tbl, key, value FROM versions AS v
          WHERE chain_id = ${chainId} AND txid < ${limit} AND NOT EXISTS (
            SELECT 1 FROM versions AS w
            WHERE w.chain_id = v.chain_id AND w.tbl = v.tbl AND w.key = v.key
              AND w.txid < ${limit} AND (w.txid, w.seq) > (v.txid, v.seq))
          ORDER BY tbl, key`,
      (row) => {
        const r = rec(this.path, row);
        return {
          id: `${text(this.path, r.tbl, "tbl")}\u0000${text(this.path, r.key, "key")}`,
          value: text(this.path, r.value, "value"),
        };
      },
    )) {
      out.set(r.id, r.value);
    }
    return out;
  }

  /** Every row version and table of `chainId` (its genesis state, when read right after genesis). */
  chainRows(chainId: number): ChainRows {
    const versions = this.db.all(
      sql`SELECT tbl, key, txid, seq, height, value FROM versions
          WHERE chain_id = ${chainId} ORDER BY txid, seq`,
      (row) => {
        const r = rec(this.path, row);
        return {
          tbl: text(this.path, r.tbl, "tbl"),
          key: text(this.path, r.key, "key"),
          txid: int(this.path, r.txid, "txid"),
          seq: int(this.path, r.seq, "seq"),
          height: int(this.path, r.height, "height"),
          value: text(this.path, r.value, "value"),
        };
      },
    );
    const tables = this.db.all(
      sql`SELECT tbl, module, txid, height FROM user_tables WHERE chain_id = ${chainId}`,
      (row) => {
        const r = rec(this.path, row);
        return {
          tbl: text(this.path, r.tbl, "tbl"),
          module: text(this.path, r.module, "module"),
          txid: int(this.path, r.txid, "txid"),
          height: int(this.path, r.height, "height"),
        };
      },
    );
    return { versions, tables };
  }

  /** Writes rows read with {@link chainRows} as the state of `chainId`. */
  insertChainRows(chainId: number, rows: ChainRows): void {
    for (const v of rows.versions) this.insertVersion(chainId, v.tbl, v.key, v);
    for (const t of rows.tables) this.insertTable(chainId, t.tbl, t.module, t.txid, t.height);
  }

  // ---- results

  insertResult(chainId: number, r: StoredResult): void {
    this.db.run(
      sql`INSERT INTO results (chain_id, request_key, height, block_hash, position, output)
          VALUES (${chainId}, ${r.requestKey}, ${r.height}, ${r.blockHash}, ${r.position}, ${r.output})`,
    );
  }

  #resultRow = (row: unknown): StoredResult => {
    const r = rec(this.path, row);
    return {
      requestKey: text(this.path, r.request_key, "request_key"),
      height: int(this.path, r.height, "height"),
      blockHash: text(this.path, r.block_hash, "block_hash") as Hash32,
      position: int(this.path, r.position, "position"),
      output: text(this.path, r.output, "output"),
    };
  };

  /** The result of `requestKey` on `chainId`, if a block held at or below `maxHeight` has it. */
  result(chainId: number, requestKey: string, maxHeight = NO_TXID_LIMIT): StoredResult | undefined {
    return this.db.get(
      sql`SELECT request_key, height, block_hash, position, output FROM results
          WHERE chain_id = ${chainId} AND request_key = ${requestKey} AND height <= ${maxHeight}`,
      this.#resultRow,
    );
  }

  /** True when a block held on `chainId` has a command with this request key. */
  hasResult(chainId: number, requestKey: string): boolean {
    return (
      this.db.get(
        sql`SELECT 1 AS x FROM results WHERE chain_id = ${chainId} AND request_key = ${requestKey}`,
        () => true,
      ) ?? false
    );
  }

  // ---- row versions (used by SqliteContractStorage)

  /** A storage over the state of `chainId` (see sqliteContractStorage.ts). */
  storage(chainId: number, options: SqliteStorageOptions): SqliteContractStorage {
    return new SqliteContractStorage(this, chainId, options);
  }

  #versionRow = (row: unknown): VersionRow => {
    const r = rec(this.path, row);
    return {
      txid: int(this.path, r.txid, "txid"),
      seq: int(this.path, r.seq, "seq"),
      value: text(this.path, r.value, "value"),
    };
  };

  /** The newest version of a row written below transaction id `limit`. */
  readVersion(chainId: number, tbl: string, key: string, limit: number): VersionRow | undefined {
    return this.db.get(
      sql`SELECT txid, seq, value FROM versions
          WHERE chain_id = ${chainId} AND tbl = ${tbl} AND key = ${key} AND txid < ${limit}
          ORDER BY txid DESC, seq DESC LIMIT 1`,
      this.#versionRow,
    );
  }

  /**
   * {@link readVersion} through the writer's memory of rows' newest versions
   * (a reader always asks SQLite).
   */
  readNewest(chainId: number, tbl: string, key: string, limit: number): VersionRow | undefined {
    if (!this.#cacheHeads) return this.readVersion(chainId, tbl, key, limit);
    const rows = ofChain(this.#rows, chainId);
    const k = `${tbl}\u0000${key}`;
    const known = rows.get(k);
    if (known === null) return undefined;
    if (known !== undefined && known.txid < limit) return known;
    const row = this.readVersion(chainId, tbl, key, limit);
    // Unbounded: what it found (or that there is none) is the row's newest version.
    if (limit === NO_TXID_LIMIT) this.#rememberRow(rows, k, row ?? null);
    return row;
  }

  #rememberRow(rows: Map<string, VersionRow | null>, k: string, row: VersionRow | null): void {
    rows.delete(k);
    rows.set(k, row);
    if (rows.size > 4096) rows.delete(rows.keys().next().value as string);
  }

  /**
   * Like {@link readVersion}, decoding the value with `decode` and keeping
   * the decoded value for the next read of the same version.
   */
  readDecoded<T>(
    chainId: number,
    tbl: string,
    key: string,
    limit: number,
    decode: (text: string) => T,
  ): T | undefined {
    const cache = ofChain(this.#decoded, chainId);
    const k = `${tbl}\u0000${key}`;
    const hit = cache.get(k);
    if (hit?.newest === true && hit.txid < limit) return hit.value as T;
    const id = this.db.get(
      sql`SELECT txid, seq FROM versions
          WHERE chain_id = ${chainId} AND tbl = ${tbl} AND key = ${key} AND txid < ${limit}
          ORDER BY txid DESC, seq DESC LIMIT 1`,
      (row) => {
        const r = rec(this.path, row);
        return { txid: int(this.path, r.txid, "txid"), seq: int(this.path, r.seq, "seq") };
      },
    );
    if (id === undefined) return undefined;
    // Unbounded, on the writer: what it found is the row's newest version.
    const newest = this.#cacheHeads && limit === NO_TXID_LIMIT;
    if (hit !== undefined && hit.txid === id.txid && hit.seq === id.seq) {
      if (newest) hit.newest = true;
      return hit.value as T;
    }
    const row = this.readVersion(chainId, tbl, key, id.txid + 1);
    if (row === undefined) return undefined;
    const value = decode(row.value);
    cache.set(k, { txid: row.txid, seq: row.seq, value, newest });
    if (cache.size > 1024) cache.delete(cache.keys().next().value as string);
    return value;
  }

  insertVersion(
    chainId: number,
    tbl: string,
    key: string,
    v: VersionRow & { readonly height: number },
  ): void {
    this.db.run(
      sql`INSERT INTO versions (chain_id, tbl, key, txid, seq, height, value)
          VALUES (${chainId}, ${tbl}, ${key}, ${v.txid}, ${v.seq}, ${v.height}, ${v.value})`,
    );
    const k = `${tbl}\u0000${key}`;
    const decoded = this.#decoded.get(chainId);
    if (decoded !== undefined && decoded.size > 0) decoded.delete(k);
    if (this.#cacheHeads && !tbl.startsWith("SYS:")) {
      const rows = ofChain(this.#rows, chainId);
      // The writer writes above everything it holds (rewound first): this is the row's newest.
      this.#rememberRow(rows, k, { txid: v.txid, seq: v.seq, value: v.value });
    }
  }

  /** Keys of a table with a version below `limit`, in code-point (UTF-8 byte) order. */
  keysOf(chainId: number, tbl: string, limit: number): string[] {
    return this.db.column(
      sql`SELECT DISTINCT key FROM versions
          WHERE chain_id = ${chainId} AND tbl = ${tbl} AND txid < ${limit} ORDER BY key`,
      (v) => text(this.path, v, "key"),
    );
  }

  /** Transaction ids in [since, limit) that wrote to the table, ascending. */
  txidsOf(chainId: number, tbl: string, since: number, limit: number): number[] {
    return this.db.column(
      sql`SELECT DISTINCT txid FROM versions
          WHERE chain_id = ${chainId} AND tbl = ${tbl} AND txid >= ${since} AND txid < ${limit}
          ORDER BY txid`,
      (v) => int(this.path, v, "txid"),
    );
  }

  /** The writes of transaction `txid` to the table, in write order. */
  txlogOf(chainId: number, tbl: string, txid: number): { key: string; value: string }[] {
    return this.db.all(
      sql`SELECT key, value, seq FROM versions
          WHERE chain_id = ${chainId} AND tbl = ${tbl} AND txid = ${txid} ORDER BY seq`,
      (row) => {
        const r = rec(this.path, row);
        return { key: text(this.path, r.key, "key"), value: text(this.path, r.value, "value") };
      },
    );
  }

  /** The versions of one row in [since, limit), ascending. */
  keylogOf(chainId: number, tbl: string, key: string, since: number, limit: number): VersionRow[] {
    return this.db.all(
      sql`SELECT txid, seq, value FROM versions
          WHERE chain_id = ${chainId} AND tbl = ${tbl} AND key = ${key}
            AND txid >= ${since} AND txid < ${limit}
          ORDER BY txid, seq`,
      this.#versionRow,
    );
  }

  /** The module that created a user table below `limit`, or undefined. */
  tableModule(chainId: number, tbl: string, limit: number): string | undefined {
    if (this.#cacheHeads) {
      const tables = ofChain(this.#tables, chainId);
      let t = tables.get(tbl);
      if (t === undefined) {
        t =
          this.db.get(
            sql`SELECT module, txid FROM user_tables WHERE chain_id = ${chainId} AND tbl = ${tbl}`,
            (row) => {
              const r = rec(this.path, row);
              return {
                module: text(this.path, r.module, "module"),
                txid: int(this.path, r.txid, "txid"),
              };
            },
          ) ?? null;
        if (tables.size >= 4096) tables.clear();
        tables.set(tbl, t);
      }
      return t !== null && t.txid < limit ? t.module : undefined;
    }
    return this.db.get(
      sql`SELECT module FROM user_tables
          WHERE chain_id = ${chainId} AND tbl = ${tbl} AND txid < ${limit}`,
      (row) => text(this.path, rec(this.path, row).module, "module"),
    );
  }

  insertTable(chainId: number, tbl: string, module: string, txid: number, height: number): void {
    this.db.run(
      sql`INSERT INTO user_tables (chain_id, tbl, module, txid, height)
          VALUES (${chainId}, ${tbl}, ${module}, ${txid}, ${height})`,
    );
    this.#tables.get(chainId)?.set(tbl, { module, txid });
  }
}

/** `chainId`'s map of a per-chain cache, made on first use. */
function ofChain<V>(byChain: Map<number, Map<string, V>>, chainId: number): Map<string, V> {
  let m = byChain.get(chainId);
  if (m === undefined) {
    m = new Map();
    byChain.set(chainId, m);
  }
  return m;
}
