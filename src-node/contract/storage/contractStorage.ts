/**
 * The storage interface the contract language runs against (and the only way
 * it touches contract state). The in-memory implementation
 * (`memoryStorage.ts`) is the reference; the execution area implements the
 * same interface on SQLite, versioned by chain, block height and transaction.
 *
 * Two kinds of tables:
 * - *user tables*, created by `create-table`, addressed by their physical name
 *   (`<module incl. namespace>_<table>`, e.g. `coin_coin-table`), rows are
 *   contract objects;
 * - *system tables* ({@link SysTable}): keysets, modules, namespaces and
 *   defpact state, each with its record type ({@link SysRecords}).
 *
 * Writes made between {@link ContractStorage.beginTx} and
 * {@link ContractStorage.commitTx} are visible to reads in the same
 * transaction and discarded by {@link ContractStorage.rollbackTx}. A write
 * outside any transaction commits at once. Every committed transaction has a
 * transaction id (txId) that the history natives (`txids`, `txlog`, `keylog`)
 * report.
 * @module
 */
import type { PactValue } from "../values/value.ts";
import type { ModuleRecord } from "./moduleRecord.ts";
import type { PactExec } from "./pactExec.ts";

/** The system tables. */
export const SysTable = {
  KeySets: "keysets",
  Modules: "modules",
  Namespaces: "namespaces",
  Pacts: "pacts",
} as const;
export type SysTable = (typeof SysTable)[keyof typeof SysTable];

/** A keyset as stored (`define-keyset`): keys sorted and de-duplicated. */
export type KeysetRecord = { readonly keys: readonly string[]; readonly pred: string };

/** A namespace as stored (`define-namespace`); the guards are guard values. */
export type NamespaceRecord = {
  readonly name: string;
  readonly user: PactValue;
  readonly admin: PactValue;
};

/** Defpact state by pact id: the last step's state, or `null` once the defpact finished. */
export type PactRecord = { readonly exec: PactExec | null };

/** The record type of each system table. */
export type SysRecords = {
  readonly keysets: KeysetRecord;
  readonly modules: ModuleRecord;
  readonly namespaces: NamespaceRecord;
  readonly pacts: PactRecord;
};

/** One entry of a user table's history (`keylog`). */
export type KeyHistoryEntry = { readonly txId: number; readonly value: PactValue };
/** One write of a transaction to a user table (`txlog`). */
export type TxLogEntry = { readonly key: string; readonly value: PactValue };

export interface ContractStorage {
  /** Starts a transaction; returns the id it will commit under. */
  beginTx(): number;
  /** Makes the transaction's writes durable; returns its id. */
  commitTx(): number;
  /** Discards the transaction's writes. */
  rollbackTx(): void;
  /** True between beginTx and commitTx/rollbackTx. */
  inTx(): boolean;

  /** Creates an empty user table; false when it already exists. */
  createUserTable(table: string, module: string): boolean;
  /** The module that created a user table, or null when it does not exist. */
  userTableModule(table: string): string | null;
  /** The latest row (the transaction's own writes first), or null. */
  readRow(table: string, key: string): PactValue | null;
  /** Stores a whole row (callers merge for `update`/`write`). */
  writeRow(table: string, key: string, row: PactValue): void;
  /** Keys of a user table in code-point order. */
  keys(table: string): string[];
  /** Committed transaction ids at or after `since` that wrote to the table, ascending. */
  txids(table: string, since: number): number[];
  /** The writes committed to the table in transaction `txId`, in order. */
  txlog(table: string, txId: number): TxLogEntry[];
  /** The committed versions of one row at or after `since`, ascending by txId. */
  keylog(table: string, key: string, since: number): KeyHistoryEntry[];

  readSys<T extends SysTable>(table: T, key: string): SysRecords[T] | null;
  writeSys<T extends SysTable>(table: T, key: string, value: SysRecords[T]): void;
  /** Keys of a system table in code-point order. */
  sysKeys(table: SysTable): string[];
}
