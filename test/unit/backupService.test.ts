/**
 * BackupService over real databases: a block database (test-singleton, with
 * blocks) and the real contract-state database (StateDb, state.sqlite),
 * listed as the node lists them (nodeBackupDatabases). Jobs end done with a
 * full manifest, include the state only with backupPact, run one at a
 * time, get unique ids within a second, copy a consistent snapshot while
 * blocks keep arriving, report progress, fail with the reason (missing
 * directory, a file as directory, a source written through another
 * connection, a stop), and interrupted jobs read back as failed.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BackupManifest } from "../../src-node/backup/backupManifest.ts";
import { BackupService, type BackupServiceOptions } from "../../src-node/backup/backupService.ts";
import { nodeBackupDatabases } from "../../src-node/backup/nodeDatabases.ts";
import { bootTime } from "../../src-node/backup/processLiveness.ts";
import { cutToJson } from "../../src-node/chain/cutJson.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import type { Hash32 } from "../../src-node/encoding/hash32.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { BlockDb } from "../../src-node/store/blockDb.ts";
import { sql } from "../../src-node/store/sql.ts";
import { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { StateDb } from "../../src-node/store/stateDb.ts";
import { ChainBuilder } from "../support/chainBuilder.ts";
import { tempDir } from "../support/testNode.ts";

const version = testSingletonVersion;

let dir: string;
let backupDir: string;
let blocks: BlockDb;
let state: StateDb;
let builder: ChainBuilder;
const services: BackupService[] = [];

beforeEach(() => {
  dir = tempDir("weft-backup-service-");
  backupDir = join(dir, "backups");
  mkdirSync(backupDir);
  blocks = BlockDb.open({ path: join(dir, "data", "blocks.sqlite"), version });
  state = StateDb.open({ path: join(dir, "data", "state.sqlite") });
  builder = ChainBuilder.create(version, "main", blocks.genesis);
  for (const b of builder.rounds(3)) blocks.insertBlock(b);
  // The state holds the first block of each chain.
  state.transaction(() => {
    for (const [chainId, h] of blocks.cut()) {
      state.recordBlock({ chainId, height: h.height, hash: h.hash, endTxId: chainId + 1 });
    }
  });
});

afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  blocks.close();
  state.close();
  rmSync(dir, { recursive: true, force: true });
});

function service(options: Partial<BackupServiceOptions> = {}): BackupService {
  const s = new BackupService({
    directory: backupDir,
    network: version.name,
    softwareVersion: "9.9.9",
    databases: nodeBackupDatabases({ version, blocks: blocks.store.db, state: state.db }),
    ...options,
  });
  services.push(s);
  return s;
}

async function finished(s: BackupService, id: string): Promise<BackupManifest> {
  await s.settled();
  return s.manifest(id);
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    return isNodeError(e) ? e.code : `not coded: ${String(e)}`;
  }
}

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

describe("[backup] jobs", () => {
  it("copies the block database, with a manifest of network, cut, heads, size, checksum, version", async () => {
    const s = service();
    const id = s.start({ backupPact: false });
    expect(id).toMatch(/^[0-9]+$/);
    expect(Math.abs(Number(id) - Date.now() / 1000)).toBeLessThan(5);
    const m = await finished(s, id);
    expect(m.status).toBe("backup-done");
    expect(s.status(id)).toBe("backup-done");
    const folder = join(backupDir, id);
    expect(readdirSync(folder).sort()).toEqual(["blocks.sqlite", "manifest.json"]);
    expect(m).toMatchObject({
      format: 1,
      id,
      network: "test-singleton",
      softwareVersion: "9.9.9",
      backupPact: false,
      error: null,
      owner: { pid: process.pid, host: hostname() },
    });
    expect(m.cut).toEqual(cutToJson(blocks.cut(), version));
    const [db] = m.databases;
    expect(m.databases).toHaveLength(1);
    expect(db?.name).toBe("blocks");
    expect(db?.heads).toEqual(m.cut?.hashes);
    expect(db?.pages.done).toBe(db?.pages.total);
    expect(db?.pages.total).toBeGreaterThan(0);
    expect(db?.bytes).toBe(readFileSync(join(folder, "blocks.sqlite")).length);
    expect(db?.sha256).toBe(sha256(join(folder, "blocks.sqlite")));
    // What is on disk is what the service says.
    expect(JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8"))).toEqual(m);
    expect(Date.parse(m.finishedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(m.startedAt));
  });

  it("adds the contract-state database (state.sqlite) only with backupPact, copied before the blocks", async () => {
    const s = service();
    const id = s.start({ backupPact: true });
    const m = await finished(s, id);
    expect(m.status).toBe("backup-done");
    expect(m.backupPact).toBe(true);
    expect(m.databases.map((d) => d.name)).toEqual(["state", "blocks"]);
    const folder = join(backupDir, id);
    expect(readdirSync(folder).sort()).toEqual(["blocks.sqlite", "manifest.json", "state.sqlite"]);
    const stateCopy = m.databases[0];
    expect(stateCopy?.sha256).toBe(sha256(join(folder, "state.sqlite")));
    expect(stateCopy?.heads).toEqual(
      Object.fromEntries(
        [...blocks.cut()].map(([c, h]) => [String(c), { height: h.height, hash: h.hash }]),
      ),
    );
    // The copy is a working state database.
    const copy = StateDb.open({ path: join(folder, "state.sqlite") });
    try {
      expect(copy.head(3)?.hash).toBe(blocks.cut().get(3)?.hash);
    } finally {
      copy.close();
    }
  });

  it("runs one job at a time: a second start returns the running job's id", async () => {
    const s = service({ pagesPerStep: 1 });
    const id = s.start({ backupPact: false });
    expect(s.status(id)).toBe("backup-in-progress");
    expect(s.start({ backupPact: true })).toBe(id);
    expect(s.runningId).toBe(id);
    const m = await finished(s, id);
    expect(m.backupPact).toBe(false);
    expect(s.runningId).toBeUndefined();
    expect(readdirSync(backupDir)).toEqual([id]);
  });

  it("gives jobs started in the same second ids with _1, _2 suffixes", async () => {
    const second = 1_732_572_000;
    const s = service({ now: () => second * 1000 + 500 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = s.start({ backupPact: false });
      ids.push(id);
      expect((await finished(s, id)).status).toBe("backup-done");
    }
    expect(ids).toEqual(["1732572000", "1732572000_1", "1732572000_2"]);
    // A new service (a restarted node) does not reuse them either.
    const again = service({ now: () => second * 1000 });
    const next = again.start({ backupPact: false });
    expect(next).toBe("1732572000_3");
    await again.settled();
  });

  it("copies a consistent snapshot while blocks keep arriving: a cut the node had, intact", async () => {
    // Make the database large enough for many steps.
    for (const b of builder.rounds(30, { transactions: 20 })) blocks.insertBlock(b);
    const seen = new Set<string>([cutToJson(blocks.cut(), version).id]);
    blocks.onCutChange(({ cut }) => seen.add(cutToJson(cut, version).id));
    const s = service({ pagesPerStep: 2 });
    const id = s.start({ backupPact: false });
    let inserted = 0;
    const timer = setInterval(() => {
      for (const b of builder.round()) blocks.insertBlock(b);
      inserted++;
    }, 1);
    let cutWhenDone: string | undefined;
    const m = await s.settled().then((x) => {
      cutWhenDone = cutToJson(blocks.cut(), version).id;
      return x;
    });
    clearInterval(timer);
    expect(m?.error).toBeNull();
    expect(m?.status).toBe("backup-done");
    expect(inserted).toBeGreaterThan(2);
    expect(seen.has(m?.cut?.id ?? "")).toBe(true);
    // The copy is the database as it was when the copy finished (the checksum and
    // read-back after it take a few more turns of the event loop).
    expect(m?.cut?.height).toBeLessThanOrEqual(cutToJson(blocks.cut(), version).height);
    expect(cutWhenDone).toBeDefined();
    const copy = SqlDatabase.open(join(backupDir, id, "blocks.sqlite"));
    try {
      expect(copy.integrityCheck()).toEqual(["ok"]);
    } finally {
      copy.close();
    }
    // Every head of the copy's cut is a block of the live database.
    for (const { hash } of Object.values(m?.cut?.hashes ?? {})) {
      expect(blocks.header(hash as Hash32)).toBeDefined();
    }
  });

  it("shows progress (pages done of total) in the manifest while it runs", async () => {
    for (const b of builder.rounds(20, { transactions: 20 })) blocks.insertBlock(b);
    const s = service({ pagesPerStep: 1, heartbeatMs: 0 });
    const id = s.start({ backupPact: false });
    const samples: { done: number; total: number }[] = [];
    while (s.status(id) === "backup-in-progress") {
      const onDisk = JSON.parse(
        readFileSync(join(backupDir, id, "manifest.json"), "utf8"),
      ) as BackupManifest;
      const p = onDisk.databases[0]?.pages;
      if (p !== undefined && p.total > 0) samples.push(p);
      await new Promise((r) => setImmediate(r));
    }
    expect(samples.length).toBeGreaterThan(3);
    const partial = samples.filter((p) => p.done < p.total);
    expect(partial.length).toBeGreaterThan(0);
    expect(samples.map((p) => p.done)).toEqual(
      [...samples.map((p) => p.done)].sort((a, b) => a - b),
    );
  });
});

describe("[backup] failures end as backup-failed with the reason", () => {
  it("a missing backup directory (never created): failed at once, remembered, no folder", async () => {
    const missing = join(dir, "not-there");
    const logged: string[] = [];
    const s = service({
      directory: missing,
      log: {
        info: () => {},
        warn: () => {},
        error: (m, f) => logged.push(`${m} ${JSON.stringify(f)}`),
      },
    });
    const id = s.start({ backupPact: false });
    expect(s.status(id)).toBe("backup-failed");
    expect(s.manifest(id).error?.code).toBe("BACKUP_DIRECTORY_UNUSABLE");
    expect(s.manifest(id).error?.message).toMatch(/ENOENT/);
    expect(existsSync(missing)).toBe(false);
    expect(logged.join("\n")).toMatch(/backup failed.*BACKUP_DIRECTORY_UNUSABLE/);
    // The next job in the same second gets another id.
    expect(s.start({ backupPact: false })).not.toBe(id);
  });

  it("a backup directory that is a file", () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "x");
    const s = service({ directory: file });
    const id = s.start({ backupPact: true });
    expect(s.manifest(id)).toMatchObject({
      status: "backup-failed",
      error: { code: "BACKUP_DIRECTORY_UNUSABLE" },
    });
  });

  it("a database written through another connection meanwhile (the copy keeps restarting)", async () => {
    for (const b of builder.rounds(10, { transactions: 20 })) blocks.insertBlock(b);
    const other = SqlDatabase.open(blocks.store.db.path);
    try {
      other.exec(sql`CREATE TABLE IF NOT EXISTS scratch (v BLOB)`);
      const s = service({ pagesPerStep: 1, maxRestarts: 3 });
      // One write through the other connection between every two steps of the copy.
      let writing = true;
      const write = () => {
        if (!writing) return;
        other.run(sql`INSERT INTO scratch (v) VALUES (randomblob(10))`);
        setImmediate(write);
      };
      const id = s.start({ backupPact: false });
      write();
      const m = await finished(s, id);
      writing = false;
      expect(m.status).toBe("backup-failed");
      expect(m.error?.code).toBe("BACKUP_SOURCE_CHANGING");
      expect(readdirSync(join(backupDir, id))).toEqual(["manifest.json"]);
    } finally {
      other.close();
    }
  });

  it("(not a failure) writes through another connection only make the steps larger until the copy finishes", async () => {
    for (const b of builder.rounds(10, { transactions: 20 })) blocks.insertBlock(b);
    const other = SqlDatabase.open(blocks.store.db.path);
    try {
      other.exec(sql`CREATE TABLE IF NOT EXISTS scratch (v BLOB)`);
      const s = service({ pagesPerStep: 1 });
      let writing = true;
      const write = () => {
        if (!writing) return;
        other.run(sql`INSERT INTO scratch (v) VALUES (randomblob(10))`);
        setImmediate(write);
      };
      const id = s.start({ backupPact: false });
      write();
      const m = await finished(s, id);
      writing = false;
      expect(m.error).toBeNull();
      expect(m.status).toBe("backup-done");
    } finally {
      other.close();
    }
  });

  it("a stop (the node closing): failed with BACKUP_STOPPED, partial copies removed", async () => {
    for (const b of builder.rounds(10, { transactions: 20 })) blocks.insertBlock(b);
    const s = service({ pagesPerStep: 1 });
    const id = s.start({ backupPact: true });
    await new Promise((r) => setTimeout(r, 5));
    expect(s.status(id)).toBe("backup-in-progress");
    await s.close();
    const onDisk = JSON.parse(
      readFileSync(join(backupDir, id, "manifest.json"), "utf8"),
    ) as BackupManifest;
    expect(onDisk.status).toBe("backup-failed");
    expect(onDisk.error?.code).toBe("BACKUP_STOPPED");
    expect(readdirSync(join(backupDir, id))).toEqual(["manifest.json"]);
    expect(codeOf(() => s.start({ backupPact: false }))).toBe("BACKUP_STOPPED");
  });
});

describe("[backup] status after a restart", () => {
  function fakeJob(id: string, owner: Record<string, unknown>, status = "backup-in-progress") {
    const folder = join(backupDir, id);
    mkdirSync(folder);
    writeFileSync(join(folder, "blocks.sqlite"), "partial");
    writeFileSync(join(folder, "blocks.sqlite-journal"), "partial");
    writeFileSync(
      join(folder, "manifest.json"),
      JSON.stringify({
        format: 1,
        id,
        status,
        network: "test-singleton",
        softwareVersion: "0.1.0",
        backupPact: false,
        startedAt: "2024-11-25T22:00:00.000Z",
        finishedAt: null,
        owner: { host: hostname(), bootTime: bootTime(), token: "t", ...owner },
        databases: [
          {
            name: "blocks",
            file: "blocks.sqlite",
            pages: { done: 5, total: 10 },
            bytes: null,
            sha256: null,
            heads: null,
          },
        ],
        cut: null,
        error: null,
      }),
    );
    return folder;
  }

  function deadPid(): number {
    const r = spawnSync(process.execPath, ["-e", "0"]);
    return r.pid ?? 0;
  }

  it("a job whose process died reads back as backup-failed (interrupted), settled on start", () => {
    const folder = fakeJob("1700000000", { pid: deadPid() });
    const s = service();
    expect(s.status("1700000000")).toBe("backup-failed");
    const onDisk = JSON.parse(
      readFileSync(join(folder, "manifest.json"), "utf8"),
    ) as BackupManifest;
    expect(onDisk.status).toBe("backup-failed");
    expect(onDisk.error?.code).toBe("BACKUP_INTERRUPTED");
    expect(onDisk.finishedAt).not.toBeNull();
    expect(readdirSync(folder)).toEqual(["manifest.json"]);
  });

  it("an earlier process with this pid is dead too (containers reuse pids)", () => {
    fakeJob("1700000001", { pid: process.pid, token: "an-earlier-process" });
    expect(service().status("1700000001")).toBe("backup-failed");
  });

  it("a job of another live process stays in progress", () => {
    fakeJob("1700000002", { pid: process.ppid });
    expect(service().status("1700000002")).toBe("backup-in-progress");
  });

  it("another host's job: in progress while its manifest is fresh, failed once stale", () => {
    fakeJob("1700000003", { pid: 1, host: "elsewhere" });
    const s = service();
    expect(s.status("1700000003")).toBe("backup-in-progress");
    const later = service({ now: () => Date.now() + 61_000 });
    expect(later.status("1700000003")).toBe("backup-failed");
  });

  it("a folder without a manifest, or with a broken one, is failed; done stays done", () => {
    mkdirSync(join(backupDir, "1700000004"));
    mkdirSync(join(backupDir, "1700000005"));
    writeFileSync(join(backupDir, "1700000005", "manifest.json"), "{");
    fakeJob("1700000006", { pid: deadPid() }, "backup-done");
    const s = service();
    expect(s.status("1700000004")).toBe("backup-failed");
    expect(s.manifest("1700000004").error?.code).toBe("BACKUP_INTERRUPTED");
    expect(s.status("1700000005")).toBe("backup-failed");
    expect(s.manifest("1700000005").error?.code).toBe("BACKUP_BAD_MANIFEST");
    expect(s.status("1700000006")).toBe("backup-done");
  });

  it("unknown ids are BACKUP_UNKNOWN_ID, malformed ones BACKUP_BAD_ID", () => {
    const s = service();
    expect(codeOf(() => s.status("1700000099"))).toBe("BACKUP_UNKNOWN_ID");
    expect(codeOf(() => s.status("../data"))).toBe("BACKUP_BAD_ID");
    writeFileSync(join(backupDir, "1700000100"), "a file, not a backup folder");
    expect(codeOf(() => s.status("1700000100"))).toBe("BACKUP_UNKNOWN_ID");
  });
});
