/**
 * state.sqlite (src-node/store/stateDb.ts, sqliteContractStorage.ts):
 * versions by (chain, height, txid), reads at an earlier height, rewinds,
 * chains kept apart, results, non-persisting storages, and a reopened file.
 * (Every .repl file also runs on this storage: test/contract/storageImplementations.ts.)
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeObject, type PactValue } from "../../src-node/contract/values/value.ts";
import type { Hash32 } from "../../src-node/encoding/hash32.ts";
import { fail, ok } from "../../src-node/errors/result.ts";
import { NO_TXID_LIMIT, StateDb } from "../../src-node/store/stateDb.ts";
import { tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function int(n: number): PactValue {
  return makeObject([["balance", { kind: "integer", value: BigInt(n) }]]);
}

const hashOf = (n: number) => `${"A".repeat(42)}${"ABCDEFGHIJKLMNOP"[n % 16]}` as Hash32;

/** Executes a fake block on `chain` at `height`: one transaction writing `rows`. */
function block(db: StateDb, chain: number, height: number, rows: Record<string, number>): void {
  db.transaction(() => {
    const head = db.head(chain);
    const s = db.storage(chain, {
      readLimit: NO_TXID_LIMIT,
      writeHeight: height,
      nextTxId: head?.endTxId ?? 0,
    });
    s.beginTx();
    if (s.userTableModule("m_t") === null) s.createUserTable("m_t", "m");
    for (const [k, v] of Object.entries(rows)) s.writeRow("m_t", k, int(v));
    s.commitTx();
    db.recordBlock({ chainId: chain, height, hash: hashOf(height), endTxId: s.nextTxId });
  });
}

function balanceAt(db: StateDb, chain: number, key: string, height?: number): bigint | null {
  const limit = height === undefined ? NO_TXID_LIMIT : (db.blockAt(chain, height)?.endTxId ?? 0);
  const row = db
    .storage(chain, { readLimit: limit, writeHeight: 0, nextTxId: 0, persist: false })
    .readRow("m_t", key);
  if (row === null || row.kind !== "object") return null;
  const v = row.fields.get("balance");
  return v?.kind === "integer" ? v.value : null;
}

describe("[store] state.sqlite", () => {
  it("reads the newest version, or the version at an earlier height", () => {
    const db = StateDb.open({ path: ":memory:" });
    block(db, 0, 0, { a: 1 });
    block(db, 0, 1, { a: 2, b: 5 });
    block(db, 0, 2, { a: 3 });
    expect(balanceAt(db, 0, "a")).toBe(3n);
    expect(balanceAt(db, 0, "a", 1)).toBe(2n);
    expect(balanceAt(db, 0, "a", 0)).toBe(1n);
    expect(balanceAt(db, 0, "b", 0)).toBeNull();
    expect(balanceAt(db, 0, "b", 2)).toBe(5n);
    expect(db.head(0)).toMatchObject({ height: 2, endTxId: 3 });
    db.close();
  });

  it("keeps chains apart", () => {
    const db = StateDb.open({ path: ":memory:" });
    block(db, 0, 0, { a: 1 });
    block(db, 1, 0, { a: 7 });
    expect(balanceAt(db, 0, "a")).toBe(1n);
    expect(balanceAt(db, 1, "a")).toBe(7n);
    expect(balanceAt(db, 2, "a")).toBeNull();
    db.close();
  });

  it("rewinds to a height: versions, tables, results and blocks above it go", () => {
    const db = StateDb.open({ path: ":memory:" });
    block(db, 0, 0, { a: 1 });
    block(db, 0, 1, { a: 2 });
    block(db, 0, 2, { a: 3 });
    db.insertResult(0, {
      requestKey: "k2",
      height: 2,
      blockHash: hashOf(2),
      position: 0,
      output: "{}",
    });
    db.insertResult(0, {
      requestKey: "k1",
      height: 1,
      blockHash: hashOf(1),
      position: 0,
      output: "{}",
    });
    db.transaction(() => db.rewind(0, 1));
    expect(db.head(0)).toMatchObject({ height: 1 });
    expect(balanceAt(db, 0, "a")).toBe(2n);
    expect(db.hasResult(0, "k2")).toBe(false);
    expect(db.hasResult(0, "k1")).toBe(true);
    db.transaction(() => db.rewind(0, -1));
    expect(db.head(0)).toBeUndefined();
    const s = db.storage(0, { readLimit: NO_TXID_LIMIT, writeHeight: 0, nextTxId: 0 });
    expect(s.userTableModule("m_t")).toBeNull();
    expect(s.keys("m_t")).toEqual([]);
    db.close();
  });

  it("rolledBack leaves nothing behind and returns the value", () => {
    const db = StateDb.open({ path: ":memory:" });
    block(db, 0, 0, { a: 1 });
    const r = db.rolledBack(() => {
      block(db, 0, 1, { a: 9 });
      return balanceAt(db, 0, "a");
    });
    expect(r).toBe(9n);
    expect(balanceAt(db, 0, "a")).toBe(1n);
    expect(db.head(0)?.height).toBe(0);
    db.close();
  });

  it("an attempt keeps a success's writes and takes back a failure's, decoded records too", () => {
    const db = StateDb.open({ path: ":memory:" });
    block(db, 0, 0, { a: 1 });
    const r = db.attempt(() => {
      block(db, 0, 1, { a: 9 });
      return balanceAt(db, 0, "a") === 9n ? fail("rejected") : ok(null);
    });
    expect(r).toEqual({ ok: false, error: "rejected" });
    expect(balanceAt(db, 0, "a")).toBe(1n);
    expect(db.head(0)?.height).toBe(0);
    expect(db.attempt(() => ok(block(db, 0, 1, { a: 2 }))).ok).toBe(true);
    expect(balanceAt(db, 0, "a")).toBe(2n);
    expect(db.head(0)?.height).toBe(1);
    db.close();
  });

  it("a failed transaction rolls back", () => {
    const db = StateDb.open({ path: ":memory:" });
    block(db, 0, 0, { a: 1 });
    expect(() =>
      db.transaction(() => {
        block(db, 0, 1, { a: 9 });
        throw new Error("rejected");
      }),
    ).toThrow("rejected");
    expect(balanceAt(db, 0, "a")).toBe(1n);
    db.close();
  });

  it("a non-persisting storage commits in memory only", () => {
    const db = StateDb.open({ path: ":memory:" });
    block(db, 0, 0, { a: 1 });
    const s = db.storage(0, {
      readLimit: NO_TXID_LIMIT,
      writeHeight: 1,
      nextTxId: 1,
      persist: false,
    });
    s.beginTx();
    s.writeRow("m_t", "a", int(5));
    s.writeRow("m_t", "c", int(6));
    expect(s.commitTx()).toBe(1);
    expect(s.keys("m_t")).toEqual(["a", "c"]);
    expect(s.txids("m_t", 0)).toEqual([0, 1]);
    expect(s.keylog("m_t", "a", 0).map((e) => e.txId)).toEqual([0, 1]);
    expect(s.txlog("m_t", 1).map((e) => e.key)).toEqual(["a", "c"]);
    expect(balanceAt(db, 0, "a")).toBe(1n);
    db.close();
  });

  it("keeps a decoded record read without a bound until the row is written, rewound or rolled back", () => {
    const db = StateDb.open({ path: ":memory:" });
    const put = (height: number, txid: number, value: string) =>
      db.transaction(() => {
        db.insertVersion(0, "SYS:x", "k", { txid, seq: txid, height, value });
        db.recordBlock({ chainId: 0, height, hash: hashOf(height), endTxId: txid + 1 });
      });
    const read = (limit = NO_TXID_LIMIT) => db.readDecoded(0, "SYS:x", "k", limit, (t) => ({ t }));
    put(0, 0, "v0");
    const first = read();
    expect(first).toEqual({ t: "v0" });
    // The newest version, known: no statement, the same decoded value.
    const statements = vi.spyOn(db.db, "get");
    expect(read()).toBe(first);
    expect(statements).not.toHaveBeenCalled();
    statements.mockRestore();
    put(1, 1, "v1");
    expect(read()).toEqual({ t: "v1" });
    // A bounded read below the newest version sees the older one.
    expect(read(1)).toEqual({ t: "v0" });
    expect(read()).toEqual({ t: "v1" });
    db.transaction(() => db.rewind(0, 0));
    expect(read()).toEqual({ t: "v0" });
    expect(() =>
      db.transaction(() => {
        put(1, 1, "v2");
        expect(read()).toEqual({ t: "v2" });
        throw new Error("rejected");
      }),
    ).toThrow("rejected");
    expect(read()).toEqual({ t: "v0" });
    db.rolledBack(() => {
      put(1, 1, "v3");
      expect(read()).toEqual({ t: "v3" });
    });
    expect(read()).toEqual({ t: "v0" });
    db.close();
  });

  it("reads a row's newest version from memory once read or written, and from SQLite after a rewind or rollback", () => {
    const db = StateDb.open({ path: ":memory:" });
    expect(balanceAt(db, 0, "a")).toBeNull();
    block(db, 0, 0, { a: 1 });
    block(db, 0, 1, { a: 2 });
    const statements = vi.spyOn(db.db, "get");
    expect(db.readNewest(0, "m_t", "a", NO_TXID_LIMIT)?.txid).toBe(1);
    expect(statements).not.toHaveBeenCalled();
    statements.mockRestore();
    // Bounded below the newest version: the older one, from SQLite.
    expect(balanceAt(db, 0, "a", 0)).toBe(1n);
    db.rolledBack(() => {
      block(db, 0, 2, { a: 7 });
      expect(balanceAt(db, 0, "a")).toBe(7n);
    });
    expect(balanceAt(db, 0, "a")).toBe(2n);
    db.transaction(() => db.rewind(0, 0));
    expect(balanceAt(db, 0, "a")).toBe(1n);
    db.close();
  });

  it("knows a user table from its creation on, and not after a rollback or a rewind", () => {
    const db = StateDb.open({ path: ":memory:" });
    block(db, 0, 0, {});
    db.rolledBack(() => {
      db.insertTable(0, "n_t", "n", 1, 1);
      expect(db.tableModule(0, "n_t", NO_TXID_LIMIT)).toBe("n");
    });
    expect(db.tableModule(0, "n_t", NO_TXID_LIMIT)).toBeUndefined();
    db.transaction(() => {
      db.insertTable(0, "n_t", "n", 1, 1);
      db.recordBlock({ chainId: 0, height: 1, hash: hashOf(1), endTxId: 2 });
    });
    expect(db.tableModule(0, "n_t", NO_TXID_LIMIT)).toBe("n");
    // Read at the state after block 0 (ids below 1): not created yet.
    expect(db.tableModule(0, "n_t", 1)).toBeUndefined();
    expect(db.tableModule(0, "n_t", 2)).toBe("n");
    db.transaction(() => db.rewind(0, 0));
    expect(db.tableModule(0, "n_t", NO_TXID_LIMIT)).toBeUndefined();
    db.close();
  });

  it("a reader's decoded records are checked against the database every time", () => {
    const dir = tempDir();
    dirs.push(dir);
    const path = join(dir, "state.sqlite");
    const db = StateDb.open({ path });
    db.insertVersion(0, "SYS:x", "k", { txid: 0, seq: 0, height: 0, value: "v0" });
    const reader = StateDb.openReader({ path });
    const read = () => reader.readDecoded(0, "SYS:x", "k", NO_TXID_LIMIT, (t) => t);
    expect(read()).toBe("v0");
    // Written by another connection (the node's writer): the reader sees it.
    db.insertVersion(0, "SYS:x", "k", { txid: 1, seq: 1, height: 1, value: "v1" });
    expect(read()).toBe("v1");
    reader.close();
    db.close();
  });

  it("keeps state and results across a reopen", () => {
    const dir = tempDir();
    dirs.push(dir);
    const path = join(dir, "state.sqlite");
    const db = StateDb.open({ path });
    block(db, 3, 0, { a: 4 });
    db.insertResult(3, {
      requestKey: "rk",
      height: 0,
      blockHash: hashOf(0),
      position: 0,
      output: '{"gas":1}',
    });
    db.close();
    const again = StateDb.open({ path });
    expect(balanceAt(again, 3, "a")).toBe(4n);
    expect(again.result(3, "rk")).toMatchObject({ height: 0, output: '{"gas":1}' });
    expect(again.result(3, "rk", -1)).toBeUndefined();
    again.close();
  });
});
