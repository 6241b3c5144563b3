/**
 * The backup page's routes `/app/api/backup/*` through `inject()` (docs/backup.md "The app's
 * backups"): the overview and its defaults; settings checked (folder, schedule) with the
 * codes of docs/errors.md; "Back up now" into a chosen folder with the wallet's files and
 * the contract state (or without it), progress to `backup-done`; the list; a fresh backup
 * due when the keystore changes; delete; check; restore refused without a restarter, and
 * with one: 202, then the step restores the data and the keystore while the node is stopped.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { NodeRestartRequest } from "../../src-node/api/nodeRestart.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const open: TestNode[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function node(options: Parameters<typeof openTestNode>[0] = {}): Promise<TestNode> {
  const t = await openTestNode(options);
  open.push(t);
  return t;
}

function folder(): string {
  const d = tempDir("weft-app-backups-");
  dirs.push(d);
  return d;
}

const H = (t: TestNode) => ({ host: "127.0.0.1:1848", "x-weft-app-token": t.node.appToken });

async function get(t: TestNode, path: string) {
  const r = await t.request("GET", `/app/api/backup${path}`, { headers: H(t) });
  return { status: r.statusCode, body: JSON.parse(r.body) as Record<string, unknown> };
}

async function post(t: TestNode, path: string, body: unknown) {
  const r = await t.request("POST", `/app/api/backup${path}`, { headers: H(t), body });
  return { status: r.statusCode, body: JSON.parse(r.body) as Record<string, unknown> };
}

function writeKeystore(t: TestNode, text: string): string {
  const path = join(t.dir, "test-singleton", "wallet", "keystore.json");
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

async function backUp(t: TestNode, includeState: boolean): Promise<Record<string, unknown>> {
  const started = await post(t, "/start", { includeState });
  expect(started.status).toBe(200);
  const id = started.body.id as string;
  for (let i = 0; i < 400; i++) {
    const job = await get(t, `/jobs/${id}`);
    expect(job.status).toBe(200);
    if (job.body.status !== "backup-in-progress") return job.body;
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error("the backup did not finish");
}

describe("[api] /app/api/backup", () => {
  it("gives the overview with the default folder beside the data folder", async () => {
    const t = await node();
    const o = await get(t, "");
    expect(o.status).toBe(200);
    expect(o.body).toMatchObject({
      directory: join(dirname(t.dir), "backups"),
      chosen: false,
      includeState: true,
      schedule: { every: "off", hour: 3, weekday: 0, keep: 7 },
      nextAutomatic: null,
      runningId: null,
      freshBackupDue: false,
      lastRestore: null,
      restartable: false,
    });
    const estimate = o.body.estimate as { bytes: number; parts: Record<string, number> };
    expect(estimate.parts.blocks).toBeGreaterThan(0);
    expect(estimate.parts.state).toBeGreaterThan(0);
  });

  it("checks the settings: folder, schedule, unknown fields", async () => {
    const t = await node();
    const relative = await post(t, "/settings", { directory: "backups" });
    expect(relative.status).toBe(422);
    expect(relative.body.code).toBe("BACKUP_FOLDER_UNUSABLE");
    const missing = await post(t, "/settings", { directory: join(t.dir, "nope") });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toMatch(/no such folder/);
    const hour = await post(t, "/settings", {
      schedule: { every: "daily", hour: 24, weekday: 0, keep: 3 },
    });
    expect(hour.status).toBe(400);
    expect(hour.body).toMatchObject({ code: "APP_BAD_REQUEST", message: /schedule\.hour/ });
    const unknown = await post(t, "/settings", { when: "now" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/when/);

    const dir = folder();
    const ok = await post(t, "/settings", {
      directory: dir,
      includeState: false,
      schedule: { every: "weekly", hour: 4, weekday: 2, keep: 3 },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ directory: dir, chosen: true, includeState: false });
    expect(typeof ok.body.nextAutomatic).toBe("string");
    // Remembered in the data folder.
    const saved = JSON.parse(
      readFileSync(join(t.dir, "test-singleton", "app-backup.json"), "utf8"),
    );
    expect(saved).toMatchObject({ directory: dir, schedule: { every: "weekly", keep: 3 } });
    const reset = await post(t, "/settings", { directory: null });
    expect(reset.body.chosen).toBe(false);
  });

  it("backs up the databases and the wallet's files, lists, deletes; says when one is due", async () => {
    const t = await node();
    const dir = folder();
    await post(t, "/settings", { directory: dir });
    writeKeystore(t, '{"encrypted":"first"}\n');
    expect((await get(t, "")).body.freshBackupDue).toBe(true);
    const estimate = (await get(t, "")).body.estimate as { bytes: number };

    const job = await backUp(t, true);
    expect(job.status).toBe("backup-done");
    expect((job.bytes as number) > 0).toBe(true);
    // The estimate is what the copy writes (the databases' pages, not their files and WAL
    // files, which kept it three times too high), give or take what changed meanwhile.
    expect(estimate.bytes / (job.bytes as number)).toBeGreaterThan(0.9);
    expect(estimate.bytes / (job.bytes as number)).toBeLessThan(1.1);
    expect(job.cutHeight).toBe(0);
    const names = (job.databases as { name: string }[]).map((d) => d.name);
    expect(names).toEqual(["state", "mempool", "blocks", "wallet/keystore.json"]);
    const id = job.id as string;
    expect(readFileSync(join(dir, id, "wallet", "keystore.json"), "utf8")).toBe(
      '{"encrypted":"first"}\n',
    );
    expect((await get(t, "")).body.freshBackupDue).toBe(false);
    writeKeystore(t, '{"encrypted":"second"}\n');
    expect((await get(t, "")).body.freshBackupDue).toBe(true);

    const small = await backUp(t, false);
    expect((small.databases as { name: string }[]).map((d) => d.name)).toEqual([
      "blocks",
      "wallet/keystore.json",
    ]);
    const list = await get(t, "/list");
    const backups = list.body.backups as { id: string; status: string; databases: string[] }[];
    expect(backups.map((b) => b.id)).toEqual([small.id, id]);
    expect(backups.every((b) => b.status === "backup-done")).toBe(true);

    expect((await post(t, "/delete", { id: "../x" })).status).toBe(400);
    expect((await post(t, "/delete", { id: "123" })).body.code).toBe("BACKUP_UNKNOWN_ID");
    const deleted = await post(t, "/delete", { id: small.id });
    expect(deleted).toEqual({ status: 200, body: { deleted: small.id } });
    expect(((await get(t, "/list")).body.backups as unknown[]).length).toBe(1);
    expect((await get(t, "/jobs/bad id")).status).toBe(400);
  });

  it("checks a backup and refuses what cannot be restored", async () => {
    const t = await node();
    const dir = folder();
    await post(t, "/settings", { directory: dir });
    const job = await backUp(t, true);
    const check = await post(t, "/check", { id: job.id });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({
      id: job.id,
      network: "test-singleton",
      cutHeight: 0,
      contents: ["state", "mempool", "blocks"],
    });
    const elsewhere = await post(t, "/check", { folder: join(dir, job.id as string) });
    expect(elsewhere.body.id).toBe(job.id);
    expect((await post(t, "/check", { folder: "relative/x" })).status).toBe(400);
    expect((await post(t, "/check", {})).status).toBe(400);
    const notBackup = await post(t, "/check", { folder: dir });
    expect(notBackup.status).toBe(422);
    expect(notBackup.body.code).toBe("BACKUP_NOT_RESTORABLE");
    writeFileSync(join(dir, job.id as string, "blocks.sqlite"), "damaged");
    const damaged = await post(t, "/check", { id: job.id });
    expect(damaged.body.message).toMatch(/BACKUP_CHECKSUM_MISMATCH/);
    const noRestart = await post(t, "/restore", { id: job.id });
    expect(noRestart.status).toBe(409);
    expect(noRestart.body.code).toBe("APP_RESTART_UNAVAILABLE");
  });

  it("restores through the host's restart: the keystore and the data come back", async () => {
    const asked: NodeRestartRequest[] = [];
    const dataDir = tempDir("weft-restore-data-");
    dirs.push(dataDir);
    const t = await node({ dir: dataDir, restart: (r) => asked.push(r) });
    const dir = folder();
    await post(t, "/settings", { directory: dir });
    const keystore = writeKeystore(t, '{"encrypted":"at backup"}\n');
    const job = await backUp(t, true);
    writeKeystore(t, '{"encrypted":"after"}\n');

    const r = await post(t, "/restore", { id: job.id });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ restarting: true, backup: { id: job.id, cutHeight: 0 } });
    await new Promise((done) => setImmediate(done));
    expect(asked.map((a) => a.reason)).toEqual(["restore"]);
    // What the host does: close, run the step, start again.
    await t.node.close();
    await asked[0]?.whileStopped?.();
    expect(readFileSync(keystore, "utf8")).toBe('{"encrypted":"at backup"}\n');
    const again = await node({ dir: dataDir });
    const o = await get(again, "");
    const last = o.body.lastRestore as { ok: boolean; id: string; replacedDir: string };
    expect(last).toMatchObject({ ok: true, id: job.id, cutHeight: 0 });
    expect(readFileSync(join(last.replacedDir, "wallet", "keystore.json"), "utf8")).toBe(
      '{"encrypted":"after"}\n',
    );
    const cut = await again.request("GET", `${again.base}/cut`);
    expect(cut.statusCode).toBe(200);
  });
});
