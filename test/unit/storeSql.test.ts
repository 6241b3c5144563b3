/**
 * The SQL layer: the `sql` template binds every interpolation as a
 * parameter and identifies its call site; SqlDatabase opens with WAL and
 * foreign keys, prepares each call site once, runs transactions atomically,
 * and attempts that a returned failure takes back without a throw;
 * migrations run in order, each with its user_version in one transaction.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { fail, ok } from "../../src-node/errors/result.ts";
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

  it("keeps an attempt's writes on a success and takes them back on a failure, with no throw", () => {
    const d = db();
    d.exec(sql`CREATE TABLE t (n INTEGER PRIMARY KEY) STRICT`);
    const numbers = () => d.all(sql`SELECT n FROM t ORDER BY n`, (r) => (r as { n: number }).n);
    const insert = (n: number) => d.run(sql`INSERT INTO t (n) VALUES (${n})`);
    const insertThenFail = (n: number, why: string) => () => {
      insert(n);
      return fail(why);
    };
    expect(d.attempt(() => ok(insert(1)))).toEqual({ ok: true, value: 1 });
    expect(d.attempt(insertThenFail(2, "rejected"))).toEqual({
      ok: false,
      error: "rejected",
    });
    expect(numbers()).toEqual([1]);
    // Inside a transaction: a failed attempt takes back its own writes only, and the
    // transaction goes on to commit the rest.
    d.transaction(() => {
      insert(3);
      expect(d.attempt(insertThenFail(4, "no")).ok).toBe(false);
      expect(d.attempt(() => ok(insert(5))).ok).toBe(true);
      // Nested attempts: the inner one's failure leaves the outer one's writes.
      const outer = d.attempt(() => {
        insert(6);
        d.attempt(insertThenFail(7, "inner"));
        return ok(null);
      });
      expect(outer.ok).toBe(true);
    });
    expect(numbers()).toEqual([1, 3, 5, 6]);
    expect(d.transaction(() => true)).toBe(true);
  });

  it("takes back an attempt that throws, and the throw goes on", () => {
    const d = db();
    d.exec(sql`CREATE TABLE t (n INTEGER PRIMARY KEY) STRICT`);
    const insert = (n: number) => d.run(sql`INSERT INTO t (n) VALUES (${n})`);
    expect(() =>
      d.attempt(() => {
        insert(1);
        insert(1);
        return ok(null);
      }),
    ).toThrow(/UNIQUE/);
    expect(() =>
      d.transaction(() => {
        insert(2);
        expect(() =>
          d.attempt(() => {
            insert(3);
            throw new Error("a bug");
          }),
        ).toThrow("a bug");
        insert(4);
      }),
    ).not.toThrow();
    expect(d.all(sql`SELECT n FROM t ORDER BY n`, (r) => (r as { n: number }).n)).toEqual([2, 4]);
  });

  it("rolledBack returns what the trial returned and keeps none of its writes", () => {
    const d = db();
    d.exec(sql`CREATE TABLE t (n INTEGER PRIMARY KEY) STRICT`);
    const count = () => d.get(sql`SELECT count(*) AS c FROM t`, (r) => (r as { c: number }).c);
    expect(
      d.rolledBack(() => {
        d.run(sql`INSERT INTO t (n) VALUES (${1})`);
        return count();
      }),
    ).toBe(1);
    expect(count()).toBe(0);
    expect(() =>
      d.rolledBack(() => {
        d.run(sql`INSERT INTO t (n) VALUES (${1})`);
        throw new Error("a bug");
      }),
    ).toThrow("a bug");
    expect(count()).toBe(0);
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
