/**
 * The Node page's app routes (src-node/api/routes/appNodeRoutes.ts):
 * `/app/api/node/status` (facts and what the node catches up on, with the
 * time left) and `/app/api/node/log` (recent lines, level filter, bounded).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { INDEX_REBUILD_TASK } from "../../src-node/index/chainIndex.ts";
import { minerInfoOf } from "../../src-node/mining/minerInfo.ts";
import { CatchUpStatus } from "../../src-node/runtime/catchUpStatus.ts";
import { RecentLog } from "../../src-node/runtime/recentLog.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

let t: TestNode | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

function headers(node: TestNode) {
  return { "x-weft-app-token": node.node.appToken, host: "127.0.0.1:1848" };
}

describe("[api] /app/api/node/status", () => {
  it("names the network, data folder, processors, and what the node catches up on", async () => {
    t = await openTestNode({ logFile: "/var/log/weft/node.log" });
    // A new data folder's index is built from the genesis blocks first (a task while it runs).
    await t.node.index.caughtUp();
    const empty = await t.request("GET", "/app/api/node/status", { headers: headers(t) });
    expect(empty.statusCode, empty.body).toBe(200);
    const s = JSON.parse(empty.body) as Record<string, unknown>;
    expect(s).toMatchObject({
      network: "test-singleton",
      dataDir: t.dir,
      logFile: "/var/log/weft/node.log",
      catchingUp: [],
    });
    expect(s.cpus).toBeGreaterThanOrEqual(1);

    const task = t.node.catchUp.begin("explorer index", 200);
    // The time left is a rate: it needs some time to have passed since the start.
    await new Promise((r) => setTimeout(r, 20));
    task.progress(50);
    const busy = await t.request("GET", "/app/api/node/status", { headers: headers(t) });
    const items = (JSON.parse(busy.body) as { catchingUp: unknown[] }).catchingUp;
    expect(items).toEqual([
      { what: "explorer index", done: 50, total: 200, etaS: expect.any(Number) },
    ]);
    task.end();
    const done = await t.request("GET", "/app/api/node/status", { headers: headers(t) });
    expect(JSON.parse(done.body)).toMatchObject({ catchingUp: [] });
  });

  it("shows the explorer index rebuilding while it runs (blocks stored, no index)", async () => {
    const dir = tempDir("weft-catchup-");
    try {
      // A data folder with blocks: mined on a test-singleton node (any nonce is valid there).
      const miner = minerInfoOf(`k:${"c".repeat(64)}`);
      const first = await openTestNode({ dir });
      for (let i = 0; i < 60; i++) {
        const work = await first.node.mining.work(miner);
        first.node.mining.submit(work.bytes.slice(36));
      }
      const blocks = first.node.blocks.store.headerCount();
      expect(blocks).toBeGreaterThan(60);
      await first.cleanup();
      for (const side of ["", "-wal", "-shm"]) {
        rmSync(join(dir, "test-singleton", `index.sqlite${side}`), { force: true });
      }

      // Opened again without the index: it rebuilds in small steps while the node serves.
      t = await openTestNode({ dir, indexStepBlocks: 4 });
      type Item = { what: string; done: number; total: number; etaS: number | null };
      const seen: Item[] = [];
      for (let i = 0; i < 1000; i++) {
        const r = await t.request("GET", "/app/api/node/status", { headers: headers(t) });
        expect(r.statusCode, r.body).toBe(200);
        const items = (JSON.parse(r.body) as { catchingUp: Item[] }).catchingUp;
        if (items.length === 0) break;
        seen.push(...items);
        // inject() answers without the event loop turning: let a step of the rebuild run.
        await new Promise((done) => setImmediate(done));
      }
      expect(seen.length).toBeGreaterThan(0);
      for (const item of seen) {
        expect(item).toMatchObject({ what: INDEX_REBUILD_TASK, total: blocks });
        expect(item.done).toBeLessThan(blocks);
      }
      // It advanced while it was shown, and it is gone once the index is complete.
      expect(Math.max(...seen.map((s) => s.done))).toBeGreaterThan(0);
      expect(t.node.index.status()).toMatchObject({ state: "ready", indexedBlocks: blocks });
      expect(t.node.catchUp.items()).toEqual([]);
    } finally {
      await t?.cleanup();
      t = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is guarded like every app route (no token: 403)", async () => {
    t = await openTestNode();
    const r = await t.request("GET", "/app/api/node/status", {
      headers: { host: "127.0.0.1:1848" },
    });
    expect(r.statusCode).toBe(403);
  });
});

describe("[api] catching-up time left", () => {
  it("applies the rate so far to what remains; unknown before any progress", () => {
    let now = 1_000_000;
    const status = new CatchUpStatus(() => now);
    const task = status.begin("state replay", 1000);
    expect(status.items()).toEqual([{ what: "state replay", done: 0, total: 1000, etaS: null }]);
    now += 10_000;
    task.progress(250);
    expect(status.items()[0]?.etaS).toBe(30);
    task.progress(2000); // clamped to the total
    expect(status.items()[0]).toMatchObject({ done: 1000, etaS: 0 });
    task.end();
    expect(status.items()).toEqual([]);
  });
});

describe("[api] /app/api/node/log", () => {
  it("answers the node's recent lines, filtered by level, oldest first", async () => {
    t = await openTestNode();
    const log = t.node.recentLog;
    log.add("info", "an info line", { n: 1n });
    log.add("warn", "a warning", { error: new Error("boom") });
    log.add("error", "an error");
    const all = await t.request("GET", "/app/api/node/log", { headers: headers(t) });
    expect(all.statusCode, all.body).toBe(200);
    const lines = (JSON.parse(all.body) as { lines: { level: string; message: string }[] }).lines;
    expect(lines.slice(-3).map((l) => l.message)).toEqual([
      "an info line",
      "a warning",
      "an error",
    ]);
    const warn = await t.request("GET", "/app/api/node/log?level=warn", { headers: headers(t) });
    const w = (JSON.parse(warn.body) as { lines: { level: string; fields?: unknown }[] }).lines;
    expect(w.map((l) => l.level)).toEqual(["warn", "error"]);
    expect(w[0]?.fields).toEqual({ error: "boom" });
    const last = await t.request("GET", "/app/api/node/log?limit=1", { headers: headers(t) });
    expect((JSON.parse(last.body) as { lines: unknown[] }).lines).toHaveLength(1);
  });

  it("refuses a bad level or limit with 400 naming it", async () => {
    t = await openTestNode();
    for (const [query, field] of [
      ["level=debug", "level"],
      ["limit=0", "limit"],
      ["limit=abc", "limit"],
      ["limit=1001", "limit"],
      ["since=1", "since"],
    ] as const) {
      const r = await t.request("GET", `/app/api/node/log?${query}`, { headers: headers(t) });
      expect(r.statusCode, query).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({ code: "APP_BAD_REQUEST" });
      expect((JSON.parse(r.body) as { message: string }).message).toMatch(new RegExp(`^${field}`));
    }
  });

  it("keeps a bounded number of lines and hands each on to the host's logger", () => {
    const seen: string[] = [];
    const recent = new RecentLog({ limit: 3 });
    const log = recent.wrap({
      info: (m) => seen.push(m),
      warn: (m) => seen.push(m),
      error: (m) => seen.push(m),
    });
    for (let i = 0; i < 5; i++) log.info(`line ${i}`);
    expect(recent.lines().map((l) => l.message)).toEqual(["line 2", "line 3", "line 4"]);
    expect(seen).toHaveLength(5);
  });
});
