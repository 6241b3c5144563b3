/**
 * The SQL layer: the `sql` template binds every interpolation as a
 * parameter and identifies its call site; SqlDatabase opens with WAL and
 * foreign keys, prepares each call site once, runs transactions atomically;
 * migrations run in order, each with its user_version in one transaction.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { type Migration, runMigrations } from "../../src-node/store/migration.ts";
import { sql, sqlText } from "../../src-node/store/sql.ts";
import { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
const open: SqlDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function db(): SqlDatabase {
  const dir = tempDir();
  dirs.push(dir);
  const d = SqlDatabase.open(join(dir, "sub", "t.sqlite"));
  open.push(d);
  return d;
}

const name = (r: unknown) => (r as { name: string }).name;

describe("[store] sql template", () => {
  it("turns interpolations into bound parameters", () => {
    const evil = "x'); DROP TABLE t; --";
    const q = sql`SELECT * FROM t WHERE a = ${1} AND b = ${evil}`;
    expect(sqlText(q)).toBe("SELECT * FROM t WHERE a = ? AND b = ?");
    expect(q.values).toEqual([1, evil]);
  });

  it("gives one call site the same strings object every time", () => {
    const make = (n: number) => sql`SELECT ${n}`;
    expect(make(1).strings).toBe(make(2).strings);
  });
});

describe("[store] SqlDatabase", () => {
  it("creates the folder, uses WAL and enforces foreign keys", () => {
    const d = db();
    expect(
      d.get(sql`PRAGMA journal_mode`, (r) => (r as { journal_mode: string }).journal_mode),
    ).toBe("wal");
    d.exec(sql`
      CREATE TABLE p (id INTEGER PRIMARY KEY) STRICT;
      CREATE TABLE c (p INTEGER NOT NULL REFERENCES p (id)) STRICT;`);
    expect(() => d.run(sql`INSERT INTO c (p) VALUES (${7})`)).toThrow(/FOREIGN KEY/);
  });

  it("keeps values safe and rejects values of the wrong type in STRICT tables", () => {
    const d = db();
    d.exec(sql`CREATE TABLE t (name TEXT NOT NULL, n INTEGER NOT NULL) STRICT`);
    d.run(sql`INSERT INTO t (name, n) VALUES (${"a'); DROP TABLE t; --"}, ${1})`);
    expect(d.all(sql`SELECT name FROM t`, name)).toEqual(["a'); DROP TABLE t; --"]);
    expect(() => d.run(sql`INSERT INTO t (name, n) VALUES (${"b"}, ${"not a number"})`)).toThrow();
  });

  it("binds byte arrays as blobs", () => {
    const d = db();
    d.exec(sql`CREATE TABLE b (v BLOB NOT NULL) STRICT`);
    d.run(sql`INSERT INTO b (v) VALUES (${new Uint8Array([1, 2, 3])})`);
    expect(d.column(sql`SELECT v FROM b`, (v) => [...(v as Buffer)])).toEqual([[1, 2, 3]]);
  });

  it("rolls a failed transaction back completely", () => {
    const d = db();
    d.exec(sql`CREATE TABLE t (n INTEGER PRIMARY KEY) STRICT`);
    expect(() =>
      d.transaction(() => {
        d.run(sql`INSERT INTO t (n) VALUES (${1})`);
        d.run(sql`INSERT INTO t (n) VALUES (${1})`);
      }),
    ).toThrow(/UNIQUE/);
    expect(d.all(sql`SELECT n FROM t`, (r) => r)).toEqual([]);
  });

  it("refuses parameters in exec and use after close", () => {
    const d = db();
    expect(() => d.exec(sql`SELECT ${1}`)).toThrow(/no parameters/);
    d.close();
    try {
      d.run(sql`SELECT 1`);
      expect.unreachable();
    } catch (e) {
      expect(isNodeError(e, "STORE_CLOSED")).toBe(true);
    }
  });
});

describe("[store] migrations", () => {
  const m1: Migration = {
    version: 1,
    name: "one",
    up: (d) => d.exec(sql`CREATE TABLE one (x INTEGER) STRICT`),
  };
  const m2: Migration = {
    version: 2,
    name: "two",
    up: (d) => d.exec(sql`CREATE TABLE two (x INTEGER) STRICT`),
  };
  const broken: Migration = {
    version: 2,
    name: "broken",
    up: (d) => {
      d.exec(sql`CREATE TABLE half (x INTEGER) STRICT`);
      d.exec(sql`THIS IS NOT SQL`);
    },
  };

  it("applies each pending migration once, in order", () => {
    const d = db();
    expect(runMigrations(d, [m1])).toEqual([1]);
    expect(runMigrations(d, [m1, m2])).toEqual([2]);
    expect(runMigrations(d, [m1, m2])).toEqual([]);
    expect(d.userVersion()).toBe(2);
  });

  it("leaves a failed migration's changes and version out", () => {
    const d = db();
    runMigrations(d, [m1]);
    expect(() => runMigrations(d, [m1, broken])).toThrow();
    expect(d.userVersion()).toBe(1);
    expect(d.all(sql`SELECT name FROM sqlite_master WHERE name = 'half'`, name)).toEqual([]);
  });

  it("refuses a database newer than the migrations", () => {
    const d = db();
    runMigrations(d, [m1, m2]);
    try {
      runMigrations(d, [m1]);
      expect.unreachable();
    } catch (e) {
      expect(isNodeError(e, "STORE_SCHEMA_TOO_NEW")).toBe(true);
    }
  });

  it("refuses a list with gaps (a bug)", () => {
    expect(() => runMigrations(db(), [m2])).toThrow(/version 2/);
  });
});
