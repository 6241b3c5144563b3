/**
 * The backup API (spec "Backup endpoints", "States and transitions"):
 * absent unless enabled (404 with the common headers), make-backup answers
 * the job id as text/plain and the running job's id while one runs,
 * check-backup answers every status (in progress, done, failed) as
 * text/plain, 404 for unknown ids and 400 for malformed ones; backupPact adds
 * the contract-state database; failures (missing or unusable directory) end
 * as backup-failed while the node keeps answering; closing the node stops a
 * running job.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BackupManifest } from "../../src-node/backup/backupManifest.ts";
import { cutToJson } from "../../src-node/chain/cutJson.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { minerInfoOf } from "../../src-node/mining/minerInfo.ts";
import { createNode } from "../../src-node/node.ts";
import { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { addBlocksFiller } from "../support/blocksFiller.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const MINER = minerInfoOf(`k:${"c".repeat(64)}`);

const open: TestNode[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dir(): string {
  const d = tempDir("weft-backup-api-");
  dirs.push(d);
  return d;
}

/** A test-singleton data folder whose blocks.sqlite carries `mb` MiB of extra rows (slow to copy). */
async function dataWithFiller(mb: number): Promise<string> {
  const d = dir();
  await addBlocksFiller(d, mb);
  return d;
}

async function node(
  backup: { apiEnabled?: boolean; directory?: string } | undefined,
  d = dir(),
): Promise<TestNode> {
  const t = await openTestNode({ dir: d, ...(backup === undefined ? {} : { backup }) });
  open.push(t);
  return t;
}

function backupsOf(d: string): string {
  const b = join(d, "backups");
  mkdirSync(b, { recursive: true });
  return b;
}

async function makeBackup(t: TestNode, query = ""): Promise<string> {
  const r = await t.request("POST", `${t.base}/make-backup${query}`);
  expect(r.statusCode, r.body).toBe(200);
  expect(r.headers["content-type"]).toBe("text/plain; charset=utf-8");
  return r.body;
}

async function check(t: TestNode, id: string): Promise<{ status: number; body: string }> {
  const r = await t.request("GET", `${t.base}/check-backup/${id}`);
  return { status: r.statusCode, body: r.body };
}

async function untilNot(t: TestNode, id: string, status: string): Promise<string> {
  for (let i = 0; i < 3000; i++) {
    const r = await check(t, id);
    if (r.body !== status) return r.body;
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error(`backup ${id} still ${status}`);
}

function manifestOf(backupDir: string, id: string): BackupManifest {
  return JSON.parse(readFileSync(join(backupDir, id, "manifest.json"), "utf8")) as BackupManifest;
}

function expectCommonHeaders(headers: Record<string, unknown>): void {
  expect(headers["x-peer-addr"]).toBeDefined();
  expect(headers["x-server-timestamp"]).toMatch(/^[0-9]+$/);
  expect(headers["x-ledger-node-version"]).toBeDefined();
}

describe("[api] backup endpoints exist only when enabled", () => {
  for (const [what, backup] of [
    ["no backup options", undefined],
    ["a directory without backup.api.enabled", { directory: "/tmp" }],
  ] as const) {
    it(`answer 404 like unknown routes, with the common headers (${what})`, async () => {
      const t = await node(backup);
      for (const [method, path] of [
        ["POST", "/make-backup"],
        ["POST", "/make-backup?backupPact"],
        ["GET", "/check-backup/1732572000"],
      ] as const) {
        const r = await t.request(method, `${t.base}${path}`);
        expect(r.statusCode).toBe(404);
        expect(r.headers["content-type"]).toMatch(/^text\/plain/);
        expect(r.body).toMatch(new RegExp(`^no route for ${method} `));
        expectCommonHeaders(r.headers);
      }
    });
  }

  it("backup.api.enabled without backup.directory is refused at start, naming the key", async () => {
    let error: unknown;
    try {
      await createNode({
        network: "test-singleton",
        dataDir: dir(),
        listen: false,
        backup: { apiEnabled: true },
      });
    } catch (e) {
      error = e;
    }
    expect(isNodeError(error, "CONFIG_BAD_VALUE")).toBe(true);
    expect((error as Error).message).toMatch(
      /^backup\.directory: needed with backup\.api\.enabled/,
    );
  });
});

describe("[api] make-backup and check-backup", () => {
  it("a job: backup-in-progress, the same id while it runs, then backup-done", async () => {
    const d = await dataWithFiller(48);
    const backupDir = backupsOf(d);
    const t = await node({ apiEnabled: true, directory: backupDir }, d);
    const id = await makeBackup(t);
    expect(id).toMatch(/^[0-9]{10}$/);
    expect(Math.abs(Number(id) - Date.now() / 1000)).toBeLessThan(5);
    const running = await check(t, id);
    expect(running).toEqual({ status: 200, body: "backup-in-progress" });
    expect(await makeBackup(t, "?backupPact")).toBe(id);
    expect(await untilNot(t, id, "backup-in-progress")).toBe("backup-done");
    const r = await t.request("GET", `${t.base}/check-backup/${id}`);
    expect(r.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expectCommonHeaders(r.headers);
    expect(r.body).toBe("backup-done");
    const m = manifestOf(backupDir, id);
    expect(m.status).toBe("backup-done");
    expect(m.backupPact).toBe(false);
    expect(m.cut).toEqual(cutToJson(t.node.blocks.cut(), t.node.version));
    expect(m.databases.map((x) => x.name)).toEqual(["blocks"]);
    // A new job once the first is done.
    const next = await makeBackup(t);
    expect(next).not.toBe(id);
    expect(await untilNot(t, next, "backup-in-progress")).toBe("backup-done");
  });

  it("backupPact adds the contract-state database when the node has one; =false does not", async () => {
    const d = dir();
    const backupDir = backupsOf(d);
    const t = await node({ apiEnabled: true, directory: backupDir }, d);
    const hasState = existsSync(join(d, "test-singleton", "state.sqlite"));
    const withPact = await makeBackup(t, "?backupPact");
    expect(await untilNot(t, withPact, "backup-in-progress")).toBe("backup-done");
    const m = manifestOf(backupDir, withPact);
    expect(m.backupPact).toBe(true);
    expect(m.databases.map((x) => x.name)).toEqual(
      hasState ? ["state", "mempool", "blocks"] : ["blocks"],
    );
    for (const query of ["?backupPact=false", ""]) {
      const without = await makeBackup(t, query);
      expect(await untilNot(t, without, "backup-in-progress")).toBe("backup-done");
      expect(manifestOf(backupDir, without).backupPact).toBe(false);
      expect(manifestOf(backupDir, without).databases.map((x) => x.name)).toEqual(["blocks"]);
    }
    const withTrue = await makeBackup(t, "?backupPact=true");
    expect(await untilNot(t, withTrue, "backup-in-progress")).toBe("backup-done");
    expect(manifestOf(backupDir, withTrue).backupPact).toBe(true);
    const bad = await t.request("POST", `${t.base}/make-backup?backupPact=yes`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/^backupPact: expected no value, true or false/);
  });

  it("ignores request bodies of any content type", async () => {
    const d = dir();
    const t = await node({ apiEnabled: true, directory: backupsOf(d) }, d);
    for (const headers of [
      { "content-type": "application/json" },
      { "content-type": "application/octet-stream" },
      { "content-type": "text/plain" },
    ]) {
      const r = await t.request("POST", `${t.base}/make-backup`, { headers, rawBody: "{not json" });
      expect(r.statusCode).toBe(200);
      await untilNot(t, r.body, "backup-in-progress");
    }
  });

  it("404 for an id no job has, 400 for an id with characters outside a-zA-Z0-9_-", async () => {
    const d = dir();
    const t = await node({ apiEnabled: true, directory: backupsOf(d) }, d);
    const unknown = await t.request("GET", `${t.base}/check-backup/1732572000`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(unknown.body).toBe("no such backup: 1732572000\n");
    expectCommonHeaders(unknown.headers);
    expect((await check(t, "Ab_-9")).status).toBe(404);
    for (const id of ["a.b", "a%20b", "a/b", "..%2Fx", "%C3%A9", "x".repeat(65), "a+b"]) {
      const r = await t.request("GET", `${t.base}/check-backup/${id}`);
      expect(r.statusCode, id).toBe(400);
      expect(r.body).toMatch(/^backupId: /);
      expectCommonHeaders(r.headers);
    }
  });

  it("backup-failed for a missing backup directory; the node keeps answering", async () => {
    const d = dir();
    const missing = join(d, "unmounted");
    const t = await node({ apiEnabled: true, directory: missing }, d);
    const id = await makeBackup(t);
    expect(await check(t, id)).toEqual({ status: 200, body: "backup-failed" });
    expect(t.node.backup?.manifest(id).error?.code).toBe("BACKUP_DIRECTORY_UNUSABLE");
    expect(existsSync(missing)).toBe(false);
    expect((await t.request("GET", `${t.base}/cut`)).statusCode).toBe(200);
    // A second attempt is a new job (another id), failed as well.
    const again = await makeBackup(t);
    expect(again).not.toBe(id);
    expect((await check(t, again)).body).toBe("backup-failed");
  });

  it("backup-failed when the backup directory is a file", async () => {
    const d = dir();
    const file = join(d, "backups");
    writeFileSync(file, "not a folder");
    const t = await node({ apiEnabled: true, directory: file }, d);
    const id = await makeBackup(t);
    expect((await check(t, id)).body).toBe("backup-failed");
    expect((await t.request("GET", `${t.base}/health-check`)).statusCode).toBe(200);
  });

  it("closing the node stops a running job: backup-failed (stopped) after a restart", async () => {
    const d = await dataWithFiller(48);
    const backupDir = backupsOf(d);
    const first = await openTestNode({
      dir: d,
      backup: { apiEnabled: true, directory: backupDir },
    });
    const id = await makeBackup(first);
    expect((await check(first, id)).body).toBe("backup-in-progress");
    await first.node.close();
    expect(manifestOf(backupDir, id).error?.code).toBe("BACKUP_STOPPED");
    expect(readdirSync(join(backupDir, id))).toEqual(["manifest.json"]);
    const second = await node({ apiEnabled: true, directory: backupDir }, d);
    expect(await check(second, id)).toEqual({ status: 200, body: "backup-failed" });
  });

  it("copies blocks added while it runs up to its end, and the copy reads back as that cut", async () => {
    const d = await dataWithFiller(16);
    const backupDir = backupsOf(d);
    const t = await node({ apiEnabled: true, directory: backupDir }, d);
    const id = await makeBackup(t);
    let added = 0;
    while ((await check(t, id)).body === "backup-in-progress") {
      const work = await t.node.mining.work(MINER);
      t.node.mining.submit(work.bytes.slice(36));
      added++;
      // Let the event loop turn (the copy's steps are macrotasks).
      await new Promise((res) => setImmediate(res));
    }
    expect((await check(t, id)).body).toBe("backup-done");
    expect(added).toBeGreaterThan(0);
    const m = manifestOf(backupDir, id);
    expect(m.cut?.height).toBeGreaterThan(0);
    const copy = SqlDatabase.open(join(backupDir, id, "blocks.sqlite"));
    try {
      expect(copy.integrityCheck()).toEqual(["ok"]);
    } finally {
      copy.close();
    }
  });
});
