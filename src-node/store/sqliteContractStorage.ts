/**
 * The contract language's {@link ContractStorage} over state.sqlite, for
 * one chain: reads see the versions written below a transaction-id bound
 * (`readLimit`: the state after some block, or everything), and a
 * transaction's writes are buffered in memory until commit, which writes
 * them as new versions at `writeHeight` under the transaction's id. So a
 * rollback costs nothing and a block's execution is a sequence of inserts
 * inside the block's one SQLite transaction (StateDb.transaction).
 *
 * With `persist: false` (/local), commits go to an in-memory layer over the
 * database instead, and the database is never written.
 *
 * Written and read values are kept decoded (the writer's own values are
 * immutable contract values): a block reads the same accounts and modules
 * again and again. {@link SqliteContractStorage.resetNextTxId} forgets them,
 * since it follows a rolled-back savepoint.
 *
 * Semantics follow the in-memory reference (contract/storage/
 * memoryStorage.ts), which every `.repl` file pins on both: transaction ids
 * from `nextTxId` upwards, a write outside a transaction commits at once
 * under the next id without consuming it, keys in code-point order.
 * @module
 */
import type {
  ContractStorage,
  KeyHistoryEntry,
  SysRecords,
  SysTable,
  TxLogEntry,
} from "../contract/storage/contractStorage.ts";
import {
  rowFromText,
  rowToText,
  sysRecordFromText,
  sysRecordToText,
} from "../contract/storage/storedValue.ts";
import { compareCodePoints, type PactValue } from "../contract/values/value.ts";
import { storeInvariant } from "./errors.ts";
import type { ChainRows, StateDb } from "./stateDb.ts";

export type SqliteStorageOptions = {
  /** Reads see versions with a transaction id below this (NO_TXID_LIMIT: all). */
  readonly readLimit: number;
  /** Block height new versions are written at. */
  readonly writeHeight: number;
  /** The id of the next transaction. */
  readonly nextTxId: number;
  /** False: commits stay in memory (default true). */
  readonly persist?: boolean | undefined;
};

type Write = { readonly tbl: string; readonly key: string; readonly text: string };
/** A written value: its stored text and the decoded value (a row or a system record). */
type Entry = { readonly text: string; readonly value: unknown };
type Layer = {
  readonly rows: Map<string, Map<string, Entry>>;
  readonly tables: Map<string, string>;
};
type LocalVersion = Write & Entry & { readonly txid: number; readonly seq: number };

/** Where a storage stood (see {@link SqliteContractStorage.mark}). */
export type StorageMark = {
  readonly nextTxId: number;
  readonly seq: number;
  readonly history: number;
  readonly tables: number;
};

const SYS_PREFIX = "SYS:";

function sysTbl(t: SysTable): string {
  return `${SYS_PREFIX}${t}`;
}

function newLayer(): Layer {
  return { rows: new Map(), tables: new Map() };
}

function layerRows(layer: Layer, tbl: string): Map<string, Entry> {
  let m = layer.rows.get(tbl);
  if (m === undefined) {
    m = new Map();
    layer.rows.set(tbl, m);
  }
  return m;
}

export class SqliteContractStorage implements ContractStorage {
  readonly chainId: number;
  readonly #state: StateDb;
  readonly #readLimit: number;
  readonly #writeHeight: number;
  readonly #persist: boolean;
  #nextTxId: number;
  #seq = 0;
  #current: number | null = null;
  #pending: Layer | null = null;
  #pendingLog: (Write & Entry)[] = [];
  /** Decoded committed values by `tbl\0key` (null: no such row). */
  readonly #cache = new Map<string, unknown>();
  /** Creating module of user tables (null: no such table). */
  readonly #tableCache = new Map<string, string | null>();
  /** Commits of a non-persisting storage, and their history. */
  readonly #local: Layer = newLayer();
  readonly #localHistory: LocalVersion[] = [];
  /** The tables of {@link #local}, in creation order (to take them back). */
  readonly #localTables: {
    readonly tbl: string;
    readonly module: string;
    readonly txid: number;
  }[] = [];

  constructor(state: StateDb, chainId: number, options: SqliteStorageOptions) {
    this.#state = state;
    this.chainId = chainId;
    this.#readLimit = options.readLimit;
    this.#writeHeight = options.writeHeight;
    this.#nextTxId = options.nextTxId;
    this.#persist = options.persist !== false;
  }

  /** The id the next transaction will get (a block records it as its end). */
  get nextTxId(): number {
    return this.#nextTxId;
  }

  /**
   * Takes back the transaction ids handed out since `next` (a command that
   * was tried and dropped while a block was built leaves no gap).
   */
  resetNextTxId(next: number): void {
    if (this.#current !== null) storeInvariant("resetNextTxId inside a transaction");
    this.#nextTxId = next;
    this.#cache.clear();
    this.#tableCache.clear();
  }

  /**
   * Where the storage stands now, between transactions: {@link restore}
   * takes back everything committed after it (a command tried and dropped
   * while a payload is built). On a persisting storage the database's own
   * savepoint takes the rows back; this takes back the transaction ids.
   */
  mark(): StorageMark {
    if (this.#current !== null) storeInvariant("mark inside a transaction");
    return {
      nextTxId: this.#nextTxId,
      seq: this.#seq,
      history: this.#localHistory.length,
      tables: this.#localTables.length,
    };
  }

  /** Goes back to `mark` (see {@link mark}). */
  restore(mark: StorageMark): void {
    this.resetNextTxId(mark.nextTxId);
    if (this.#persist) return;
    this.#seq = mark.seq;
    this.#localHistory.length = mark.history;
    this.#localTables.length = mark.tables;
    this.#local.rows.clear();
    this.#local.tables.clear();
    for (const v of this.#localHistory) layerRows(this.#local, v.tbl).set(v.key, v);
    for (const t of this.#localTables) this.#local.tables.set(t.tbl, t.module);
  }

  /**
   * What a non-persisting storage committed, as the rows a persisting one
   * would have written (a block executed in an execution worker, written by
   * the node with StateDb.insertChainRows).
   */
  committedRows(): ChainRows {
    if (this.#persist) storeInvariant("committedRows of a persisting storage");
    if (this.#current !== null) storeInvariant("committedRows inside a transaction");
    const height = this.#writeHeight;
    return {
      versions: this.#localHistory.map((v) => ({
        tbl: v.tbl,
        key: v.key,
        txid: v.txid,
        seq: v.seq,
        height,
        value: v.text,
      })),
      tables: this.#localTables.map((t) => ({
        tbl: t.tbl,
        module: t.module,
        txid: t.txid,
        height,
      })),
    };
  }

  beginTx(): number {
    if (this.#current !== null) storeInvariant("beginTx inside a transaction");
    this.#pending = newLayer();
    this.#pendingLog = [];
    this.#current = this.#nextTxId++;
    return this.#current;
  }

  commitTx(): number {
    const id = this.#current ?? this.#nextTxId;
    const pending = this.#pending;
    if (pending !== null) {
      for (const [tbl, module] of pending.tables) this.#commitTable(tbl, module, id);
      for (const w of this.#pendingLog) this.#commitWrite(w, id);
    }
    this.#pending = null;
    this.#pendingLog = [];
    this.#current = null;
    return id;
  }

  rollbackTx(): void {
    this.#pending = null;
    this.#pendingLog = [];
    this.#current = null;
  }

  inTx(): boolean {
    return this.#current !== null;
  }

  #commitWrite(w: Write & Entry, txid: number): void {
    const seq = this.#seq++;
    if (this.#persist) {
      this.#state.insertVersion(this.chainId, w.tbl, w.key, {
        txid,
        seq,
        height: this.#writeHeight,
        value: w.text,
      });
      this.#cache.set(`${w.tbl}\u0000${w.key}`, w.value);
    } else {
      layerRows(this.#local, w.tbl).set(w.key, w);
      this.#localHistory.push({ tbl: w.tbl, key: w.key, text: w.text, value: w.value, txid, seq });
    }
  }

  #commitTable(tbl: string, module: string, txid: number): void {
    if (this.#persist) {
      this.#state.insertTable(this.chainId, tbl, module, txid, this.#writeHeight);
      this.#tableCache.set(tbl, module);
    } else {
      this.#local.tables.set(tbl, module);
      this.#localTables.push({ tbl, module, txid });
    }
  }

  /**
   * The newest value of a row or record: the open transaction's, local
   * commits', the decoded cache's, then the database's (decoded with `decode`).
   */
  #read(tbl: string, key: string, decode: (text: string) => unknown): unknown {
    const p = this.#pending?.rows.get(tbl)?.get(key) ?? this.#local.rows.get(tbl)?.get(key);
    if (p !== undefined) return p.value;
    const id = `${tbl}\u0000${key}`;
    const hit = this.#cache.get(id);
    if (hit !== undefined) return hit;
    const row = this.#state.readNewest(this.chainId, tbl, key, this.#readLimit);
    const value = row === undefined ? null : decode(row.value);
    this.#cache.set(id, value);
    return value;
  }

  #write(tbl: string, key: string, text: string, value: unknown): void {
    const w = { tbl, key, text, value };
    if (this.#pending !== null) {
      layerRows(this.#pending, tbl).set(key, w);
      this.#pendingLog.push(w);
    } else {
      // Outside a transaction a write commits at once (as the in-memory reference does).
      this.#commitWrite(w, this.#nextTxId);
    }
  }

  #keys(tbl: string): string[] {
    const ks = new Set(this.#state.keysOf(this.chainId, tbl, this.#readLimit));
    for (const k of this.#local.rows.get(tbl)?.keys() ?? []) ks.add(k);
    for (const k of this.#pending?.rows.get(tbl)?.keys() ?? []) ks.add(k);
    return [...ks].sort(compareCodePoints);
  }

  createUserTable(table: string, module: string): boolean {
    if (this.userTableModule(table) !== null) return false;
    if (this.#pending !== null) this.#pending.tables.set(table, module);
    else this.#commitTable(table, module, this.#nextTxId);
    return true;
  }

  userTableModule(table: string): string | null {
    const own = this.#pending?.tables.get(table) ?? this.#local.tables.get(table);
    if (own !== undefined) return own;
    const hit = this.#tableCache.get(table);
    if (hit !== undefined) return hit;
    const module = this.#state.tableModule(this.chainId, table, this.#readLimit) ?? null;
    this.#tableCache.set(table, module);
    return module;
  }

  readRow(table: string, key: string): PactValue | null {
    return this.#read(table, key, rowFromText) as PactValue | null;
  }

  writeRow(table: string, key: string, row: PactValue): void {
    this.#write(table, key, rowToText(row), row);
  }

  keys(table: string): string[] {
    return this.#keys(table);
  }

  txids(table: string, since: number): number[] {
    const ids = new Set(this.#state.txidsOf(this.chainId, table, since, this.#readLimit));
    for (const v of this.#localHistory) if (v.tbl === table && v.txid >= since) ids.add(v.txid);
    return [...ids].sort((a, b) => a - b);
  }

  txlog(table: string, txId: number): TxLogEntry[] {
    const rows = txId < this.#readLimit ? this.#state.txlogOf(this.chainId, table, txId) : [];
    const local = this.#localHistory.filter((v) => v.tbl === table && v.txid === txId);
    return [...rows, ...local.map((v) => ({ key: v.key, value: v.text }))].flatMap((r) => {
      const value = rowFromText(r.value);
      return value === null ? [] : [{ key: r.key, value }];
    });
  }

  keylog(table: string, key: string, since: number): KeyHistoryEntry[] {
    const rows = this.#state.keylogOf(this.chainId, table, key, since, this.#readLimit);
    const local = this.#localHistory
      .filter((v) => v.tbl === table && v.key === key && v.txid >= since)
      .map((v) => ({ txid: v.txid, seq: v.seq, value: v.text }));
    return [...rows, ...local].flatMap((r) => {
      const value = rowFromText(r.value);
      return value === null ? [] : [{ txId: r.txid, value }];
    });
  }

  readSys<T extends SysTable>(table: T, key: string): SysRecords[T] | null {
    const tbl = sysTbl(table);
    const p = this.#pending?.rows.get(tbl)?.get(key) ?? this.#local.rows.get(tbl)?.get(key);
    if (p !== undefined) return p.value as SysRecords[T];
    const id = `${tbl}\u0000${key}`;
    const hit = this.#cache.get(id);
    if (hit !== undefined) return hit as SysRecords[T] | null;
    // Across storages (blocks, /local calls) the database's decoded cache helps.
    const v =
      this.#state.readDecoded(this.chainId, tbl, key, this.#readLimit, (t) =>
        sysRecordFromText(table, t),
      ) ?? null;
    this.#cache.set(id, v);
    return v;
  }

  writeSys<T extends SysTable>(table: T, key: string, value: SysRecords[T]): void {
    this.#write(sysTbl(table), key, sysRecordToText(table, value), value);
  }

  sysKeys(table: SysTable): string[] {
    return this.#keys(sysTbl(table));
  }
}
