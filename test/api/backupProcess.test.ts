/**
 * Backups of real `weft node` processes: a node killed (SIGKILL) in the
 * middle of a backup leaves a job that every reader sees as backup-failed
 * (interrupted), and the next node on that data starts (the dead node's
 * lock is stale), records it as failed and removes the partial copy; a
 * backup directory the node may not write, and a write that fails half-way
 * (a file size limit, as a full disk), end as backup-failed with the reason
 * in the manifest or the log while the node keeps answering.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BackupManifest } from "../../src-node/backup/backupManifest.ts";
import { addBlocksFiller } from "../support/blocksFiller.ts";
import { openTestNode, tempDir } from "../support/testNode.ts";
import { runWeft } from "../unit/cliHarness.ts";

const bin = resolve(import.meta.dirname, "..", "..", "bin", "weft.js");
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0))
    if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dir(): string {
  const d = tempDir("weft-backup-process-");
  dirs.push(d);
  return d;
}

type Child = { child: ChildProcess; url: string; stderr: () => string };

/** Starts `weft node` (through a shell when `shell` prefixes the command) and waits for its URL. */
async function startNode(
  args: string[],
  options: { uid?: number; shellPrefix?: string } = {},
): Promise<Child> {
  const argv = [bin, "node", "--network", "test-singleton", "--port", "0", ...args];
  const child =
    options.shellPrefix === undefined
      ? spawn(process.execPath, argv, {
          stdio: ["ignore", "pipe", "pipe"],
          ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
        })
      : spawn(
          "/bin/sh",
          ["-c", `${options.shellPrefix}; exec "$0" "$@"`, process.execPath, ...argv],
          { stdio: ["ignore", "pipe", "pipe"] },
        );
  children.push(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString();
  });
  for (let i = 0; i < 3000 && !out.includes("\n") && child.exitCode === null; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const url = out.trim();
  expect(url, err).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ledger\/0\.0\/test-singleton$/);
  return { child, url, stderr: () => err };
}

async function post(url: string): Promise<{ status: number; body: string }> {
  const r = await fetch(url, { method: "POST" });
  return { status: r.status, body: await r.text() };
}

async function get(url: string): Promise<{ status: number; body: string }> {
  const r = await fetch(url);
  return { status: r.status, body: await r.text() };
}

function readManifest(folder: string): BackupManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as BackupManifest;
  } catch {
    return undefined;
  }
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((r) => child.once("exit", r));
}

describe("[backup] a node killed in the middle of a backup", () => {
  it("leaves a job read back as backup-failed (interrupted); the next node settles it", async () => {
    const d = dir();
    const backups = join(d, "backups");
    mkdirSync(backups);
    await addBlocksFiller(d, 200);
    const node = await startNode([
      "--data-dir",
      d,
      "--enable-backup-api",
      "--backup-directory",
      backups,
    ]);
    const made = await post(`${node.url}/make-backup`);
    expect(made.status).toBe(200);
    const id = made.body;
    const folder = join(backups, id);
    // Killed once the copy has started (its progress is in the manifest), long before it ends.
    let m: BackupManifest | undefined;
    for (let i = 0; i < 2000; i++) {
      m = readManifest(folder);
      if ((m?.databases.at(-1)?.pages.total ?? 0) > 0) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    expect((await get(`${node.url}/check-backup/${id}`)).body).toBe("backup-in-progress");
    node.child.kill("SIGKILL");
    await exited(node.child);

    const left = readManifest(folder);
    expect(left?.status).toBe("backup-in-progress");
    expect(left?.owner.pid).toBe(node.child.pid);
    const blocks = left?.databases.find((x) => x.name === "blocks");
    expect(blocks?.pages.done).toBeLessThan(blocks?.pages.total ?? 0);
    expect(existsSync(join(d, "test-singleton", "node.lock"))).toBe(true);

    // Any reader (here weft backup list, another process than the dead owner) sees it failed.
    const list = await runWeft(["backup", "list", "--backup-directory", backups, "--json"]);
    const entries = JSON.parse(list.stdout) as {
      id: string;
      status: string;
      error: { code: string };
    }[];
    expect(entries).toMatchObject([
      { id, status: "backup-failed", error: { code: "BACKUP_INTERRUPTED" } },
    ]);

    // The next node takes over the stale lock, and answers backup-failed.
    const next = await openTestNode({ dir: d, backup: { apiEnabled: true, directory: backups } });
    try {
      const r = await next.request("GET", `${next.base}/check-backup/${id}`);
      expect(r.body).toBe("backup-failed");
      const settled = readManifest(folder);
      expect(settled?.status).toBe("backup-failed");
      expect(settled?.error?.code).toBe("BACKUP_INTERRUPTED");
      expect(readdirSync(folder)).toEqual(["manifest.json"]);
      // Its data is intact, and a new backup works.
      expect((await next.request("GET", `${next.base}/cut`)).statusCode).toBe(200);
      const again = await next.request("POST", `${next.base}/make-backup`);
      expect(again.body).not.toBe(id);
      await next.node.backup?.settled();
      expect((await next.request("GET", `${next.base}/check-backup/${again.body}`)).body).toBe(
        "backup-done",
      );
    } finally {
      await next.cleanup();
    }
  });
});

describe("[backup] failures of a running node", () => {
  it("a backup directory the node may not write: backup-failed, the reason logged, the node keeps running", async () => {
    const d = dir();
    const data = join(d, "data");
    const backups = join(d, "backups");
    mkdirSync(data);
    // Root may write anywhere: then the node runs as nobody, for whom the folder is read-only.
    mkdirSync(backups, { mode: 0o555 });
    if (isRoot) {
      chmodSync(d, 0o755);
      chownSync(data, NOBODY, NOBODY);
    }
    const node = await startNode(
      ["--data-dir", data, "--enable-backup-api", "--backup-directory", backups],
      isRoot ? { uid: NOBODY } : {},
    );
    const made = await post(`${node.url}/make-backup?backupPact`);
    expect(made.status).toBe(200);
    expect(await get(`${node.url}/check-backup/${made.body}`)).toEqual({
      status: 200,
      body: "backup-failed",
    });
    expect(readdirSync(backups)).toEqual([]);
    for (let i = 0; i < 200 && !node.stderr().includes("backup failed"); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(node.stderr()).toMatch(/error: backup failed .*BACKUP_DIRECTORY_UNUSABLE.*EACCES/);
    expect((await get(`${node.url}/health-check`)).status).toBe(200);
    expect((await get(`${node.url}/cut`)).status).toBe(200);
    node.child.kill("SIGTERM");
    await exited(node.child);
    expect(node.child.exitCode).toBe(0);
  });

  it("a write that fails half-way (file size limit, as a full disk): backup-failed with the reason, partial copy removed", async () => {
    const d = dir();
    const backups = join(d, "backups");
    mkdirSync(backups);
    await addBlocksFiller(d, 40);
    // 20 MiB per file: the live files stay below it as long as nothing is mined.
    const node = await startNode(
      ["--data-dir", d, "--enable-backup-api", "--backup-directory", backups],
      { shellPrefix: "ulimit -f 20480" },
    );
    const made = await post(`${node.url}/make-backup`);
    const id = made.body;
    let status = "backup-in-progress";
    for (let i = 0; i < 1000 && status === "backup-in-progress"; i++) {
      status = (await get(`${node.url}/check-backup/${id}`)).body;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(status).toBe("backup-failed");
    const m = readManifest(join(backups, id));
    expect(m?.status).toBe("backup-failed");
    expect(m?.error?.code).toBe("BACKUP_WRITE_FAILED");
    expect(m?.error?.message).toMatch(/blocks|I\/O|full|large/i);
    expect(readdirSync(join(backups, id))).toEqual(["manifest.json"]);
    expect(node.stderr()).toMatch(/error: backup failed .*BACKUP_WRITE_FAILED/);
    expect((await get(`${node.url}/cut`)).status).toBe(200);
    node.child.kill("SIGTERM");
    await exited(node.child);
    expect(node.child.exitCode).toBe(0);
  });
});
