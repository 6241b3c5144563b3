/**
 * state.sqlite (src-node/store/stateDb.ts, sqliteContractStorage.ts):
 * versions by (chain, height, txid), reads at an earlier height, rewinds,
 * chains kept apart, results, non-persisting storages, and a reopened file.
 * (Every .repl file also runs on this storage: test/contract/storageImplementations.ts.)
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeObject, type PactValue } from "../../src-node/contract/values/value.ts";
import type { Hash32 } from "../../src-node/encoding/hash32.ts";
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
