/**
 * The in-memory {@link ContractStorage}: the reference implementation (the
 * repl's default and the tests'). A transaction buffers its writes in an
 * overlay that commit folds into the committed maps and history, and rollback
 * drops. With `serialize: true` every record and row is stored as text
 * through the lossless codec (storedValue.ts), as a text-based store would,
 * so tests can prove nothing depends on sharing live objects.
 * @module
 */
import { compareCodePoints, type PactValue } from "../values/value.ts";
import type {
  ContractStorage,
  KeyHistoryEntry,
  SysRecords,
  SysTable,
  TxLogEntry,
} from "./contractStorage.ts";
import { rowFromText, rowToText, sysRecordFromText, sysRecordToText } from "./storedValue.ts";

type Stored = { readonly live: unknown } | { readonly text: string };

type Space = Map<string, Map<string, Stored>>;

type HistoryEntry = { readonly txId: number; readonly key: string; readonly value: PactValue };

export type MemoryStorageOptions = { readonly serialize?: boolean };

function sub(m: Space, k: string): Map<string, Stored> {
  let x = m.get(k);
  if (x === undefined) {
    x = new Map();
    m.set(k, x);
  }
  return x;
}

export function createMemoryStorage(opts: MemoryStorageOptions = {}): ContractStorage {
  const serialize = opts.serialize === true;
  const committed: Space = new Map();
  const committedTables = new Map<string, string>();
  const history = new Map<string, HistoryEntry[]>();
  let pending: Space | null = null;
  let pendingTables: Map<string, string> | null = null;
  let pendingLog: { table: string; key: string; value: PactValue }[] = [];
  let nextTxId = 0;
  let currentTx: number | null = null;

  const userSpace = (t: string): string => `u:${t}`;
  const sysSpace = (t: SysTable): string => `s:${t}`;

  const read = (space: string, key: string): Stored | undefined =>
    pending?.get(space)?.get(key) ?? committed.get(space)?.get(key);

  const record = (table: string, key: string, value: PactValue, txId: number): void => {
    let h = history.get(table);
    if (h === undefined) {
      h = [];
      history.set(table, h);
    }
    h.push({ txId, key, value });
  };

  const spaceKeys = (space: string): string[] => {
    const ks = new Set([
      ...(committed.get(space)?.keys() ?? []),
      ...(pending?.get(space)?.keys() ?? []),
    ]);
    return [...ks].sort(compareCodePoints);
  };

  const storeRow = (row: PactValue): Stored =>
    serialize ? { text: rowToText(row) } : { live: row };
  const loadRow = (s: Stored): PactValue | null =>
    "text" in s ? rowFromText(s.text) : (s.live as PactValue);

  return {
    beginTx() {
      pending = new Map();
      pendingTables = new Map();
      pendingLog = [];
      currentTx = nextTxId++;
      return currentTx;
    },
    commitTx() {
      const id = currentTx ?? nextTxId;
      if (pending !== null) {
        for (const [space, rows] of pending)
          for (const [k, v] of rows) sub(committed, space).set(k, v);
      }
      if (pendingTables !== null) for (const [t, m] of pendingTables) committedTables.set(t, m);
      for (const w of pendingLog) record(w.table, w.key, w.value, id);
      pending = null;
      pendingTables = null;
      pendingLog = [];
      currentTx = null;
      return id;
    },
    rollbackTx() {
      pending = null;
      pendingTables = null;
      pendingLog = [];
      currentTx = null;
    },
    inTx() {
      return currentTx !== null;
    },
    createUserTable(table, module) {
      if (pendingTables?.has(table) === true || committedTables.has(table)) return false;
      (pendingTables ?? committedTables).set(table, module);
      return true;
    },
    userTableModule(table) {
      return pendingTables?.get(table) ?? committedTables.get(table) ?? null;
    },
    readRow(table, key) {
      const s = read(userSpace(table), key);
      return s === undefined ? null : loadRow(s);
    },
    writeRow(table, key, row) {
      const stored = storeRow(row);
      const kept = serialize ? (rowFromText(rowToText(row)) ?? row) : row;
      if (pending !== null) {
        sub(pending, userSpace(table)).set(key, stored);
        pendingLog.push({ table, key, value: kept });
      } else {
        // Outside a transaction a write commits at once (the reference's SQLite repl does).
        sub(committed, userSpace(table)).set(key, stored);
        record(table, key, kept, nextTxId);
      }
    },
    keys(table) {
      return spaceKeys(userSpace(table));
    },
    txids(table, since) {
      const ids = new Set<number>();
      for (const h of history.get(table) ?? []) if (h.txId >= since) ids.add(h.txId);
      return [...ids].sort((a, b) => a - b);
    },
    txlog(table, txId): TxLogEntry[] {
      return (history.get(table) ?? [])
        .filter((h) => h.txId === txId)
        .map((h) => ({ key: h.key, value: h.value }));
    },
    keylog(table, key, since): KeyHistoryEntry[] {
      return (history.get(table) ?? [])
        .filter((h) => h.key === key && h.txId >= since)
        .map((h) => ({ txId: h.txId, value: h.value }));
    },
    readSys<T extends SysTable>(table: T, key: string): SysRecords[T] | null {
      const s = read(sysSpace(table), key);
      if (s === undefined) return null;
      return "text" in s ? sysRecordFromText(table, s.text) : (s.live as SysRecords[T]);
    },
    writeSys<T extends SysTable>(table: T, key: string, value: SysRecords[T]): void {
      const stored: Stored = serialize ? { text: sysRecordToText(table, value) } : { live: value };
      sub(pending ?? committed, sysSpace(table)).set(key, stored);
    },
    sysKeys(table) {
      return spaceKeys(sysSpace(table));
    },
  };
}
