/**
 * The app's automatic backups (src-node/backup/appBackups.ts) with an injected clock on a
 * real node's databases: nothing runs before the first slot after the schedule was set; a
 * slot passed (as when the node was stopped over it) runs once; the next slot runs again;
 * after each automatic backup only the newest `keep` finished ones stay; the last run is
 * remembered in the data folder, so a restarted service does not run the same slot twice.
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AppBackups } from "../../src-node/backup/appBackups.ts";
import { nodeBackupDatabases } from "../../src-node/backup/nodeDatabases.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const open: TestNode[] = [];
const dirs: string[] = [];
const services: AppBackups[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  for (const t of open.splice(0)) await t.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const at = (d: number, h: number) => new Date(2026, 10, d, h).getTime();

function service(t: TestNode, now: () => number): AppBackups {
  const s = new AppBackups({
    dataDir: t.dir,
    network: "test-singleton",
    networkDir: join(t.dir, "test-singleton"),
    softwareVersion: "0.0.0",
    databases: nodeBackupDatabases({
      version: t.node.version,
      blocks: t.node.blocks.store.db,
      state: t.node.state.db,
    }),
    now,
  });
  services.push(s);
  return s;
}

async function finish(s: AppBackups): Promise<void> {
  await s.settled();
  // The retention runs right after the job settles.
  await new Promise((done) => setTimeout(done, 10));
}

describe("[backup] the app's automatic backups", () => {
  it("runs each slot once, catches up a missed one, keeps the newest N", async () => {
    const t = await openTestNode();
    open.push(t);
    const folder = tempDir("weft-auto-backups-");
    dirs.push(folder);
    let now = at(20, 12);
    const s = service(t, () => now);
    s.setDirectory(folder);
    s.setSchedule({ every: "daily", hour: 3, weekday: 0, keep: 2 });
    expect(s.runDue()).toBeUndefined();
    now = at(21, 2);
    expect(s.runDue()).toBeUndefined();

    // 03:00 on the 21st passed while "stopped": runs at 09:00.
    now = at(21, 9);
    const first = s.runDue();
    expect(first).toBeDefined();
    expect(s.runDue()).toBeUndefined();
    await finish(s);
    now = at(21, 10);
    expect(s.runDue()).toBeUndefined();

    now = at(22, 3);
    expect(s.runDue()).toBeDefined();
    await finish(s);
    now = at(23, 4);
    expect(s.runDue()).toBeDefined();
    await finish(s);
    const kept = readdirSync(folder).sort();
    expect(kept).toHaveLength(2);
    expect(kept).not.toContain(first);
    expect(s.list().every((b) => b.status === "backup-done")).toBe(true);

    // Remembered: a new service (the node restarted) does not run the 23rd's slot again.
    await s.close();
    const again = service(t, () => now);
    expect(again.settings.lastAutoRunAt).toBe(at(23, 4));
    expect(again.runDue()).toBeUndefined();
    now = at(24, 3);
    expect(again.runDue()).toBeDefined();
    await finish(again);
  });
});
