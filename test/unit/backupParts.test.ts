/**
 * The small parts of the backup area: ids (characters, length, suffixes,
 * order), manifest parsing (every field checked, names the field), process
 * liveness records, the data folder lock (exclusive, stale locks taken over,
 * released on close), and the two SqlDatabase additions (online backup on
 * the writing connection, integrity check).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  backupIdCandidate,
  compareBackupIds,
  isBackupId,
  parseBackupId,
} from "../../src-node/backup/backupId.ts";
import {
  type BackupManifest,
  manifestText,
  parseManifest,
} from "../../src-node/backup/backupManifest.ts";
import { acquireDataLock, LOCK_FILE } from "../../src-node/backup/dataLock.ts";
import { BackupError } from "../../src-node/backup/errors.ts";
import {
  bootTime,
  newProcessRecord,
  pidExists,
  recordAlive,
  releaseRecord,
} from "../../src-node/backup/processLiveness.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { sql } from "../../src-node/store/sql.ts";
import { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
function dir(): string {
  const d = tempDir("weft-backup-parts-");
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return isNodeError(e) ? e.code : `not coded: ${String(e)}`;
  }
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "0"]);
  expect(r.status).toBe(0);
  return r.pid ?? 0;
}

describe("[backup] ids", () => {
  it("accepts a-zA-Z0-9_- up to 64 characters", () => {
    for (const id of ["1732572000", "1732572000_1", "a-B_9", "x".repeat(64)]) {
      expect(isBackupId(id)).toBe(true);
      expect(parseBackupId(id)).toBe(id);
    }
  });

  it("refuses anything else with BACKUP_BAD_ID naming backupId", () => {
    for (const id of ["", "a.b", "a b", "a/b", "..", "é", "a\n", "x".repeat(65), "1%2"]) {
      expect(isBackupId(id)).toBe(false);
      expect(codeOf(() => parseBackupId(id))).toBe("BACKUP_BAD_ID");
    }
    expect(() => parseBackupId("a.b")).toThrow(/^backupId: only the characters a-zA-Z0-9_-/);
  });

  it("makes the plain timestamp first, then _1, _2, …", () => {
    expect([0, 1, 2].map((n) => backupIdCandidate(1732572000, n))).toEqual([
      "1732572000",
      "1732572000_1",
      "1732572000_2",
    ]);
  });

  it("orders ids by time, then suffix, other names last", () => {
    const ids = ["1732572001", "zzz", "1732572000_10", "1732572000", "1732572000_2"];
    expect([...ids].sort(compareBackupIds)).toEqual([
      "1732572000",
      "1732572000_2",
      "1732572000_10",
      "1732572001",
      "zzz",
    ]);
  });
});

function sampleManifest(): BackupManifest {
  return {
    format: 1,
    id: "1732572000",
    status: "backup-done",
    network: "test-singleton",
    softwareVersion: "0.1.0",
    backupPact: true,
    startedAt: "2024-11-25T22:00:00.000Z",
    finishedAt: "2024-11-25T22:00:01.000Z",
    owner: { pid: 42, host: "h", bootTime: 1000, token: "t" },
    databases: [
      {
        name: "blocks",
        file: "blocks.sqlite",
        pages: { done: 3, total: 3 },
        bytes: 12288,
        sha256: "a".repeat(64),
        heads: { "0": { height: 2, hash: "h0" } },
      },
    ],
    cut: {
      hashes: { "0": { height: 2, hash: "h0" } },
      origin: null,
      weight: "w",
      height: 2,
      instance: "test-singleton",
      id: "c",
    },
    error: null,
  };
}

describe("[backup] manifest", () => {
  it("reads back what it writes", () => {
    const m = sampleManifest();
    expect(parseManifest(manifestText(m), "m.json")).toEqual(m);
    const failed: BackupManifest = {
      ...m,
      status: "backup-failed",
      cut: null,
      error: { code: "BACKUP_WRITE_FAILED", message: "disk full" },
      databases: [{ ...m.databases[0]!, bytes: null, sha256: null, heads: null }],
    };
    expect(parseManifest(manifestText(failed), "m.json")).toEqual(failed);
  });

  const bad: [string, (m: Record<string, unknown>) => unknown, RegExp][] = [
    ["not JSON", () => "{", /\(file\): not JSON/],
    ["an array", () => [], /\(file\): expected an object/],
    ["a newer format", (m) => ({ ...m, format: 2 }), /format: format 2 is not known/],
    ["an unknown status", (m) => ({ ...m, status: "done" }), /status: expected one of/],
    ["an id that is a path", (m) => ({ ...m, id: "../../x" }), /id: expected 1 to 64 of/],
    ["an id too long", (m) => ({ ...m, id: "1".repeat(65) }), /id: expected 1 to 64 of/],
    ["backupPact not boolean", (m) => ({ ...m, backupPact: "yes" }), /backupPact/],
    ["no owner pid", (m) => ({ ...m, owner: { host: "h" } }), /owner\.pid/],
    ["databases not an array", (m) => ({ ...m, databases: {} }), /databases: expected an array/],
    [
      "a file name with a path",
      (m) => ({ ...m, databases: [{ ...(m.databases as object[])[0], file: "../x.sqlite" }] }),
      /databases\[0\]\.file: expected a plain file name/,
    ],
    [
      "a wallet file name that climbs out",
      (m) => ({ ...m, databases: [{ ...(m.databases as object[])[0], file: "wallet/../x" }] }),
      /databases\[0\]\.file: expected a plain file name/,
    ],
    [
      "a kind other than file",
      (m) => ({ ...m, databases: [{ ...(m.databases as object[])[0], kind: "dir" }] }),
      /databases\[0\]\.kind/,
    ],
    [
      "a bad checksum",
      (m) => ({ ...m, databases: [{ ...(m.databases as object[])[0], sha256: "XY" }] }),
      /databases\[0\]\.sha256/,
    ],
    [
      "a negative size",
      (m) => ({ ...m, databases: [{ ...(m.databases as object[])[0], bytes: -1 }] }),
      /databases\[0\]\.bytes/,
    ],
    [
      "a bad chain key",
      (m) => ({ ...m, cut: { ...(m.cut as object), hashes: { x: { height: 1, hash: "a" } } } }),
      /cut\.hashes\.x: expected a chain id key/,
    ],
    ["a cut origin", (m) => ({ ...m, cut: { ...(m.cut as object), origin: "x" } }), /cut\.origin/],
    ["an error without code", (m) => ({ ...m, error: { message: "x" } }), /error\.code/],
  ];
  for (const [what, change, message] of bad) {
    it(`refuses ${what} with BACKUP_BAD_MANIFEST naming the field`, () => {
      const m = JSON.parse(manifestText(sampleManifest())) as Record<string, unknown>;
      const changed = change(m);
      const text = typeof changed === "string" ? changed : JSON.stringify(changed);
      let error: unknown;
      try {
        parseManifest(text, "/b/1/manifest.json");
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(BackupError);
      expect((error as BackupError).code).toBe("BACKUP_BAD_MANIFEST");
      expect((error as BackupError).message).toMatch(/^\/b\/1\/manifest\.json: /);
      expect((error as BackupError).message).toMatch(message);
    });
  }
});

describe("[backup] process liveness", () => {
  it("this process's records are alive until released", () => {
    const r = newProcessRecord();
    expect(r.pid).toBe(process.pid);
    expect(r.host).toBe(hostname());
    expect(recordAlive(r)).toBe(true);
    releaseRecord(r);
    expect(recordAlive(r)).toBe(false);
  });

  it("a record of this pid from an earlier process (unknown token) is dead", () => {
    expect(
      recordAlive({ pid: process.pid, host: hostname(), bootTime: bootTime(), token: "old" }),
    ).toBe(false);
  });

  it("another pid is alive while that process runs", () => {
    expect(
      recordAlive({ pid: process.ppid, host: hostname(), bootTime: bootTime(), token: "x" }),
    ).toBe(true);
    const gone = deadPid();
    expect(pidExists(gone)).toBe(false);
    expect(recordAlive({ pid: gone, host: hostname(), bootTime: bootTime(), token: "x" })).toBe(
      false,
    );
  });

  it("a record from before the last boot is dead; another host's is unknown", () => {
    expect(
      recordAlive({
        pid: process.ppid,
        host: hostname(),
        bootTime: bootTime() - 3_600_000,
        token: "x",
      }),
    ).toBe(false);
    expect(
      recordAlive({
        pid: process.pid,
        host: `${hostname()}-other`,
        bootTime: bootTime(),
        token: "x",
      }),
    ).toBeUndefined();
  });
});

describe("[backup] data folder lock", () => {
  it("is exclusive until released, and the file is removed on release", () => {
    const d = join(dir(), "test-singleton");
    const lock = acquireDataLock(d, "node");
    expect(lock.path).toBe(join(d, LOCK_FILE));
    const held = JSON.parse(readFileSync(lock.path, "utf8")) as Record<string, unknown>;
    expect(held).toMatchObject({ pid: process.pid, host: hostname(), purpose: "node" });
    let error: unknown;
    try {
      acquireDataLock(d, "restore");
    } catch (e) {
      error = e;
    }
    expect((error as BackupError).code).toBe("BACKUP_DATA_IN_USE");
    expect((error as BackupError).message).toMatch(
      new RegExp(`in use by a running node \\(pid ${process.pid} on `),
    );
    expect((error as BackupError).message).toContain(lock.path);
    lock.release();
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    acquireDataLock(d, "restore").release();
  });

  it("takes over a lock whose holder is gone (dead pid, earlier process with this pid, unreadable)", () => {
    const d = dir();
    const path = join(d, LOCK_FILE);
    const stale = [
      { pid: deadPid(), token: "a" },
      { pid: process.pid, token: "earlier-process" },
    ];
    for (const s of stale) {
      writeFileSync(
        path,
        JSON.stringify({
          ...s,
          host: hostname(),
          bootTime: bootTime(),
          purpose: "node",
          startedAt: "x",
        }),
      );
      const lock = acquireDataLock(d, "node");
      expect(JSON.parse(readFileSync(path, "utf8")).pid).toBe(process.pid);
      lock.release();
    }
    // Unreadable and old: a holder that died while writing it.
    writeFileSync(path, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    acquireDataLock(d, "node").release();
  });

  it("respects a live holder and another host's lock, and a fresh unreadable one", () => {
    const d = dir();
    const path = join(d, LOCK_FILE);
    const live = [
      { pid: process.ppid, host: hostname() },
      { pid: 1, host: `${hostname()}-elsewhere` },
    ];
    for (const s of live) {
      writeFileSync(
        path,
        JSON.stringify({ ...s, bootTime: bootTime(), token: "t", purpose: "node", startedAt: "x" }),
      );
      expect(codeOf(() => acquireDataLock(d, "node"))).toBe("BACKUP_DATA_IN_USE");
      expect(existsSync(path)).toBe(true);
    }
    writeFileSync(path, "");
    expect(codeOf(() => acquireDataLock(d, "node"))).toBe("BACKUP_DATA_IN_USE");
  });

  it("names an unusable folder with BACKUP_LOCK_FAILED", () => {
    const f = join(dir(), "file");
    writeFileSync(f, "x");
    expect(codeOf(() => acquireDataLock(join(f, "net"), "node"))).toBe("BACKUP_LOCK_FAILED");
  });
});

describe("[store] SqlDatabase online backup and integrity check", () => {
  it("copies writes made through the same connection while it runs, up to the end", async () => {
    const d = dir();
    const db = SqlDatabase.open(join(d, "src.sqlite"));
    try {
      db.exec(sql`CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB) STRICT`);
      db.transaction(() => {
        for (let i = 0; i < 2000; i++) db.run(sql`INSERT INTO t (v) VALUES (randomblob(2000))`);
      });
      let steps = 0;
      let countAtEnd = -1;
      const writer = setInterval(() => db.run(sql`INSERT INTO t (v) VALUES (randomblob(100))`), 0);
      const pages = await db
        .backup(join(d, "copy.sqlite"), {
          pagesPerStep: 16,
          onProgress: (p) => {
            steps++;
            expect(p.remainingPages).toBeLessThanOrEqual(p.totalPages);
            return undefined;
          },
        })
        .then((n) => {
          countAtEnd =
            db.get(sql`SELECT count(*) AS n FROM t`, (r) => (r as { n: number }).n) ?? -1;
          return n;
        });
      clearInterval(writer);
      expect(steps).toBeGreaterThan(10);
      expect(pages).toBeGreaterThan(900);
      expect(countAtEnd).toBeGreaterThan(2000);
      const copy = SqlDatabase.open(join(d, "copy.sqlite"));
      try {
        expect(copy.integrityCheck()).toEqual(["ok"]);
        expect(copy.get(sql`SELECT count(*) AS n FROM t`, (r) => (r as { n: number }).n)).toBe(
          countAtEnd,
        );
      } finally {
        copy.close();
      }
    } finally {
      db.close();
    }
  });

  it("takes the step size onProgress returns", async () => {
    const d = dir();
    const db = SqlDatabase.open(join(d, "src.sqlite"));
    try {
      db.exec(sql`CREATE TABLE t (v BLOB)`);
      db.transaction(() => {
        for (let i = 0; i < 100; i++) db.run(sql`INSERT INTO t (v) VALUES (randomblob(4000))`);
      });
      const remaining: number[] = [];
      await db.backup(join(d, "copy.sqlite"), {
        pagesPerStep: 1,
        onProgress: (p) => {
          remaining.push(p.remainingPages);
          return 10;
        },
      });
      // After the first step (which only measures the file), 10 pages at a time.
      const drops = remaining.slice(1).map((r, i) => (remaining[i] as number) - r);
      expect(drops.length).toBeGreaterThan(5);
      expect(new Set(drops)).toEqual(new Set([10]));
    } finally {
      db.close();
    }
  });

  it("stops with the error onProgress throws and removes the new file", async () => {
    const d = dir();
    const db = SqlDatabase.open(join(d, "src.sqlite"));
    try {
      db.exec(sql`CREATE TABLE t (v BLOB)`);
      db.transaction(() => {
        for (let i = 0; i < 200; i++) db.run(sql`INSERT INTO t (v) VALUES (randomblob(4000))`);
      });
      const stop = new BackupError({ code: "BACKUP_STOPPED", path: d, reason: "test" }, "stop");
      await expect(
        db.backup(join(d, "copy.sqlite"), {
          pagesPerStep: 10,
          onProgress: () => {
            throw stop;
          },
        }),
      ).rejects.toBe(stop);
      expect(existsSync(join(d, "copy.sqlite"))).toBe(false);
    } finally {
      db.close();
    }
  });

  it("reports what integrity_check finds in a damaged file", () => {
    const d = dir();
    const path = join(d, "x.sqlite");
    const db = SqlDatabase.open(path);
    db.exec(sql`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX tv ON t (v)`);
    db.transaction(() => {
      for (let i = 0; i < 3000; i++) db.run(sql`INSERT INTO t (v) VALUES (${`value ${i}`})`);
    });
    db.close();
    // Overwrite a page in the middle of the file (an index or table page).
    const bytes = readFileSync(path);
    bytes.fill(0x55, 4096 * 5, 4096 * 6);
    writeFileSync(path, bytes);
    const broken = SqlDatabase.open(path);
    try {
      const problems = broken.integrityCheck();
      expect(problems.length).toBeGreaterThan(0);
      expect(problems).not.toEqual(["ok"]);
    } finally {
      broken.close();
    }
  });
});
