/**
 * Restore (`weft restore`, backup/restoreBackup.ts) and `weft backup list`:
 * a backup of the block and contract-state databases restores into a data
 * folder on which a node serves the same cut and the state holds the same
 * blocks; restore refuses a running node's data, a damaged file (checksum),
 * a file that fails SQLite's integrity check, a cut or state that is not the
 * manifest's, another network, a backup that is not done, a folder without
 * a manifest; it keeps the databases it replaces. The CLI commands report
 * with exit codes 0, 1 and 2.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BackupManifest, manifestText } from "../../src-node/backup/backupManifest.ts";
import { BackupService } from "../../src-node/backup/backupService.ts";
import { restoreBackup } from "../../src-node/backup/restoreBackup.ts";
import { cutToJson } from "../../src-node/chain/cutJson.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { minerInfoOf } from "../../src-node/mining/minerInfo.ts";
import type { WeftNode } from "../../src-node/node.ts";
import { sql } from "../../src-node/store/sql.ts";
import { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { StateDb } from "../../src-node/store/stateDb.ts";
import { openTestNode, tempDir } from "../support/testNode.ts";
import { runWeft } from "./cliHarness.ts";

const version = testSingletonVersion;
let dir: string;
let backupDir: string;

beforeEach(() => {
  dir = tempDir("weft-restore-");
  backupDir = join(dir, "backups");
  mkdirSync(backupDir);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const MINER = minerInfoOf(`k:${"b".repeat(64)}`);

/** Mines `n` blocks on a test-singleton node through its mining service (any nonce is valid there). */
async function mine(node: WeftNode, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const work = await node.mining.work(MINER);
    node.mining.submit(work.bytes.slice(36));
  }
}

/**
 * A node's data folder with mined blocks (and their contract state),
 * backed up through the node (with the state when `pact`); returns the
 * backup's folder and manifest.
 */
async function makeBackup(pact: boolean): Promise<{ folder: string; manifest: BackupManifest }> {
  const t = await openTestNode({ dir: join(dir, "live"), backup: { directory: backupDir } });
  try {
    await mine(t.node, 12);
    const service = t.node.backup;
    if (service === undefined) throw new Error("no backup service");
    const id = service.start({ backupPact: pact });
    await service.settled();
    const manifest = service.manifest(id);
    expect(manifest.error).toBeNull();
    expect(manifest.status).toBe("backup-done");
    return { folder: join(backupDir, id), manifest };
  } finally {
    await t.cleanup();
  }
}

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isNodeError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("expected a failure");
}

function rewriteManifest(folder: string, change: (m: BackupManifest) => BackupManifest): void {
  const path = join(folder, "manifest.json");
  const m = JSON.parse(readFileSync(path, "utf8")) as BackupManifest;
  writeFileSync(path, manifestText(change(m)));
}

describe("[backup] restore", () => {
  it("restores blocks and state: a node on the restored data serves the backup's cut", async () => {
    const { folder, manifest } = await makeBackup(true);
    const target = join(dir, "restored");
    const lines: string[] = [];
    const result = await restoreBackup({
      backupFolder: folder,
      dataDir: target,
      progress: (l) => lines.push(l),
    });
    expect(result).toMatchObject({
      id: manifest.id,
      network: "test-singleton",
      networkDir: join(target, "test-singleton"),
      files: ["state.sqlite", "mempool.sqlite", "blocks.sqlite"],
      replacedDir: undefined,
    });
    expect(lines.join("\n")).toMatch(/integrity check/);
    expect(readdirSync(join(target, "test-singleton")).sort()).toEqual([
      "blocks.sqlite",
      "mempool.sqlite",
      "state.sqlite",
    ]);
    const t = await openTestNode({ dir: target });
    try {
      const cut = JSON.parse((await t.request("GET", `${t.base}/cut`)).body) as unknown;
      expect(cut).toEqual(manifest.cut);
      expect(cutToJson(t.node.blocks.cut(), version)).toEqual(manifest.cut);
    } finally {
      await t.cleanup();
    }
    const stateHeads = manifest.databases.find((d) => d.name === "state")?.heads ?? {};
    expect(Object.keys(stateHeads).length).toBeGreaterThan(0);
    const state = StateDb.open({ path: join(target, "test-singleton", "state.sqlite") });
    try {
      for (const [chain, head] of Object.entries(stateHeads)) {
        expect(state.head(Number(chain))).toMatchObject(head);
      }
    } finally {
      state.close();
    }
  });

  it("keeps the databases it replaces; a backup without the state moves the current state aside too", async () => {
    const { folder, manifest } = await makeBackup(false);
    const target = join(dir, "restored");
    const net = join(target, "test-singleton");
    mkdirSync(net, { recursive: true });
    for (const f of [
      "blocks.sqlite",
      "blocks.sqlite-wal",
      "state.sqlite",
      "index.sqlite",
      "other.txt",
    ]) {
      writeFileSync(join(net, f), `old ${f}`);
    }
    const result = await restoreBackup({ backupFolder: folder, dataDir: target, now: () => 0 });
    expect(result.replacedDir).toBe(join(net, "replaced-1970-01-01T00-00-00-000Z"));
    expect(readdirSync(result.replacedDir ?? "").sort()).toEqual([
      "blocks.sqlite",
      "blocks.sqlite-wal",
      "index.sqlite",
      "state.sqlite",
    ]);
    expect(readFileSync(join(result.replacedDir ?? "", "state.sqlite"), "utf8")).toBe(
      "old state.sqlite",
    );
    expect(readdirSync(net).sort()).toEqual([
      "blocks.sqlite",
      "other.txt",
      "replaced-1970-01-01T00-00-00-000Z",
    ]);
    const t = await openTestNode({ dir: target });
    try {
      expect(cutToJson(t.node.blocks.cut(), version)).toEqual(manifest.cut);
      // The explorer's index is rebuilt from the restored blocks.
      await t.node.index.caughtUp();
      expect(t.node.index.store.blockCount()).toBe(t.node.blocks.store.headerCount());
    } finally {
      await t.cleanup();
    }
  });

  it("refuses to overwrite the data of a running node (BACKUP_DATA_IN_USE), changing nothing", async () => {
    const { folder } = await makeBackup(false);
    const target = join(dir, "running");
    const t = await openTestNode({ dir: target });
    try {
      const before = readFileSync(join(target, "test-singleton", "blocks.sqlite"));
      const f = await failure(restoreBackup({ backupFolder: folder, dataDir: target }));
      expect(f.code).toBe("BACKUP_DATA_IN_USE");
      expect(f.message).toMatch(new RegExp(`in use by a running node \\(pid ${process.pid} `));
      expect(readFileSync(join(target, "test-singleton", "blocks.sqlite"))).toEqual(before);
      const names = readdirSync(join(target, "test-singleton"));
      expect(names).toContain("node.lock");
      expect(names.filter((n) => n.startsWith("replaced-") || n.startsWith(".restore-"))).toEqual(
        [],
      );
    } finally {
      await t.cleanup();
    }
  });

  it("a node refuses to start on data another node (or a restore) holds", async () => {
    const target = join(dir, "shared");
    const t = await openTestNode({ dir: target });
    try {
      const f = await failure(openTestNode({ dir: target }));
      expect(f.code).toBe("BACKUP_DATA_IN_USE");
    } finally {
      await t.cleanup();
    }
    // Released on close: it starts now.
    const again = await openTestNode({ dir: target });
    await again.cleanup();
  });

  it("refuses a file that is not the one the backup made (BACKUP_CHECKSUM_MISMATCH)", async () => {
    const { folder } = await makeBackup(true);
    const path = join(folder, "state.sqlite");
    const bytes = readFileSync(path);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 1;
    writeFileSync(path, bytes);
    const target = join(dir, "restored");
    const f = await failure(restoreBackup({ backupFolder: folder, dataDir: target }));
    expect(f.code).toBe("BACKUP_CHECKSUM_MISMATCH");
    expect(f.message).toMatch(/state\.sqlite: the file is not the one the backup made/);
    expect(existsSync(join(target, "test-singleton", "blocks.sqlite"))).toBe(false);
    rmSync(path);
    expect((await failure(restoreBackup({ backupFolder: folder, dataDir: target }))).code).toBe(
      "BACKUP_RESTORE_FAILED",
    );
  });

  it("refuses a copy that fails SQLite's integrity check even when its checksum was recorded", async () => {
    const { folder } = await makeBackup(false);
    const path = join(folder, "blocks.sqlite");
    const bytes = readFileSync(path);
    bytes.fill(0x55, 4096 * 3, 4096 * 4);
    writeFileSync(path, bytes);
    const { createHash } = await import("node:crypto");
    rewriteManifest(folder, (m) => ({
      ...m,
      databases: m.databases.map((d) => ({
        ...d,
        sha256: createHash("sha256").update(bytes).digest("hex"),
        bytes: bytes.length,
      })),
    }));
    const target = join(dir, "restored");
    const f = await failure(restoreBackup({ backupFolder: folder, dataDir: target }));
    expect(f.code).toBe("BACKUP_INTEGRITY_FAILED");
    expect(readdirSync(join(target, "test-singleton"))).toEqual([]);
  });

  it("refuses a cut, state or network that is not the manifest's", async () => {
    const { folder, manifest } = await makeBackup(true);
    const target = join(dir, "restored");
    rewriteManifest(folder, (m) => ({
      ...m,
      cut: m.cut === null ? null : { ...m.cut, height: m.cut.height + 1 },
    }));
    const cut = await failure(restoreBackup({ backupFolder: folder, dataDir: target }));
    expect(cut.code).toBe("BACKUP_INTEGRITY_FAILED");
    expect(cut.message).toMatch(/is not the manifest's/);

    rewriteManifest(folder, (m) => ({
      ...m,
      cut: manifest.cut,
      databases: m.databases.map((d) =>
        d.name === "state" ? { ...d, heads: { "0": { height: 99, hash: "x" } } } : d,
      ),
    }));
    const state = await failure(restoreBackup({ backupFolder: folder, dataDir: target }));
    expect(state.code).toBe("BACKUP_INTEGRITY_FAILED");
    expect(state.message).toMatch(/state\.sqlite: the blocks its state holds/);

    rewriteManifest(folder, () => ({ ...manifest, network: "test-transition" }));
    const network = await failure(restoreBackup({ backupFolder: folder, dataDir: target }));
    expect(network.code).toBe("BACKUP_WRONG_NETWORK");
    expect(existsSync(join(target, "test-transition", "blocks.sqlite"))).toBe(false);

    rewriteManifest(folder, () => ({ ...manifest, network: "nonet" }));
    expect((await failure(restoreBackup({ backupFolder: folder, dataDir: target }))).code).toBe(
      "BACKUP_BAD_MANIFEST",
    );
  });

  it("refuses a backup that is not done, and a folder without a manifest", async () => {
    const { folder } = await makeBackup(false);
    for (const status of ["backup-failed", "backup-in-progress"] as const) {
      rewriteManifest(folder, (m) => ({ ...m, status }));
      const f = await failure(restoreBackup({ backupFolder: folder, dataDir: join(dir, "r") }));
      expect(f.code).toBe("BACKUP_NOT_DONE");
      expect(f.message).toContain(status);
    }
    const f = await failure(restoreBackup({ backupFolder: dir, dataDir: join(dir, "r") }));
    expect(f.code).toBe("BACKUP_BAD_MANIFEST");
    expect(f.message).toMatch(/is not a backup folder/);
  });
});

describe("[cli] weft restore, weft backup list", () => {
  it("weft restore restores and reports the cut; refuses with 1; usage errors are 2", async () => {
    const { folder, manifest } = await makeBackup(false);
    const target = join(dir, "cli");
    const ok = await runWeft(["restore", folder, "--data-dir", target]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe(
      `restored ${manifest.id}: network test-singleton, cut height ${manifest.cut?.height}, into ${join(target, "test-singleton")}\n`,
    );
    expect(ok.stderr).toMatch(/weft restore: checking /);
    const again = await runWeft(["restore", folder, `--data-dir=${target}`]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/previous databases kept in .*replaced-/);

    const t = await openTestNode({ dir: target });
    try {
      const busy = await runWeft(["restore", folder, "--data-dir", target]);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toMatch(/^weft restore: the data folder is in use by a running node/m);
    } finally {
      await t.cleanup();
    }
    expect((await runWeft(["restore", join(dir, "nope"), "--data-dir", target])).code).toBe(1);
    for (const args of [[], ["a", "b"], ["a", "--data-dir"], ["a", "--force"]]) {
      const r = await runWeft(["restore", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
    }
    const help = await runWeft(["restore", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: weft restore BACKUP_DIR/);
  });

  it("weft backup list shows status, network, size, cut height; --json for scripts", async () => {
    const { manifest } = await makeBackup(true);
    mkdirSync(join(backupDir, "1700000000"));
    const r = await runWeft(["backup", "list", "--backup-directory", backupDir]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+NETWORK\s+SIZE\s+CUT HEIGHT\s+DATABASES\s+STARTED$/);
    expect(lines[1]).toMatch(/^1700000000\s+backup-failed\s+\?\s+-\s+-\s+-\s+-$/);
    expect(lines[2]).toMatch(
      new RegExp(
        `^${manifest.id}\\s+backup-done\\s+test-singleton\\s+[0-9.]+ (KiB|MiB)\\s+${manifest.cut?.height}\\s+state,mempool,blocks\\s+${manifest.startedAt}$`,
      ),
    );
    expect(lines[3]).toMatch(/^1700000000: BACKUP_INTERRUPTED: interrupted/);
    // Listing changes nothing on disk.
    expect(readdirSync(join(backupDir, "1700000000"))).toEqual([]);

    const json = await runWeft(["backup", "list", `--backup-directory=${backupDir}`, "--json"]);
    const entries = JSON.parse(json.stdout) as { id: string; status: string; bytes: number }[];
    expect(entries.map((e) => [e.id, e.status])).toEqual([
      ["1700000000", "backup-failed"],
      [manifest.id, "backup-done"],
    ]);
    expect(entries[1]?.bytes).toBe(manifest.databases.reduce((s, d) => s + (d.bytes ?? 0), 0));

    const empty = join(dir, "empty");
    mkdirSync(empty);
    expect((await runWeft(["backup", "list", "--backup-directory", empty])).stdout).toBe(
      "no backups\n",
    );
    const missing = await runWeft(["backup", "list", "--backup-directory", join(dir, "nope")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/not a readable directory/);
    for (const args of [["list"], ["prune"], ["list", "--x"], []]) {
      expect((await runWeft(["backup", ...args])).code, args.join(" ")).toBe(2);
    }
    expect((await runWeft(["backup", "--help"])).code).toBe(0);
    const help = await runWeft(["help"]);
    expect(help.stdout).toMatch(/backup list --backup-directory DIR/);
    expect(help.stdout).toMatch(/restore BACKUP_DIR \[--data-dir DIR\]/);
  });

  it("lists a job in progress with its percentage", async () => {
    const live = join(dir, "live2");
    const db = SqlDatabase.open(join(live, "x.sqlite"));
    try {
      db.exec(sql`CREATE TABLE t (v BLOB)`);
      db.transaction(() => {
        for (let i = 0; i < 400; i++) db.run(sql`INSERT INTO t (v) VALUES (randomblob(4000))`);
      });
      const s = new BackupService({
        directory: backupDir,
        network: "test-singleton",
        softwareVersion: "0.1.0",
        databases: [{ name: "x", file: "x.sqlite", db, pactOnly: false }],
        pagesPerStep: 1,
        heartbeatMs: 0,
      });
      const id = s.start({ backupPact: false });
      for (let i = 0; i < 1000 && (s.manifest(id).databases[0]?.pages.done ?? 0) === 0; i++) {
        await new Promise((r) => setTimeout(r, 1));
      }
      expect(s.status(id)).toBe("backup-in-progress");
      const r = await runWeft(["backup", "list", "--backup-directory", backupDir]);
      expect(r.stdout).toMatch(new RegExp(`^${id}\\s+backup-in-progress [0-9]+%`, "m"));
      await s.close();
    } finally {
      db.close();
    }
  });
});
