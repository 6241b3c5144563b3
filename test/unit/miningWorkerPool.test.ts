/**
 * The worker-thread miner: real threads, easy targets so that every search
 * ends within milliseconds. Every pool is closed, and the tests check that
 * its threads have exited.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import type { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { CREATION_TIME_OFFSET, NONCE_OFFSET } from "../../src-node/mining/blake2sMidstate.ts";
import type { MiningError } from "../../src-node/mining/errors.ts";
import { MiningErrorCode } from "../../src-node/mining/errors.ts";
import { meetsTarget } from "../../src-node/mining/nonceSearch.ts";
import { parseFromWorker } from "../../src-node/mining/protocol.ts";
import { spawnMinerWorker } from "../../src-node/mining/spawnMinerWorker.ts";
import {
  type MiningSolution,
  WorkerPool,
  type WorkerPoolOptions,
} from "../../src-node/mining/workerPool.ts";

const repoRoot = resolve(import.meta.dirname, "..", "..");
const T0 = 1_700_000_000_000_000n;

/** 322 bytes of work: chain 3, a target with most significant byte `top`, a patterned header. */
function makeWork(top: number | "zero", seed = 1, time = T0): Uint8Array {
  const work = new Uint8Array(322);
  new DataView(work.buffer).setUint32(0, 3, true);
  if (top !== "zero") {
    work.fill(0xff, 4, 36);
    work[35] = top;
  }
  for (let i = 36; i < 322; i++) work[i] = (i * 31 + seed * 7) & 0xff;
  new DataView(work.buffer).setBigInt64(36 + CREATION_TIME_OFFSET, time, true);
  return work;
}

function blake2s(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("blake2s256").update(bytes).digest());
}

async function waitFor(what: string, ok: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const pools: WorkerPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function makePool(options: Partial<WorkerPoolOptions> = {}) {
  const solutions: MiningSolution[] = [];
  const errors: MiningError[] = [];
  const rates: number[] = [];
  const pool = new WorkerPool({
    onSolution: (s) => solutions.push(s),
    onError: (e) => errors.push(e),
    onHashRate: (r) => rates.push(r),
    ...options,
  });
  pools.push(pool);
  return { pool, solutions, errors, rates };
}

/** The solution is the work's header with a valid nonce; only nonce and time may differ. */
function expectSolves(s: MiningSolution, work: Uint8Array): void {
  const header = work.subarray(36);
  expect(s.header.length).toBe(286);
  expect(meetsTarget(blake2s(s.header), work.subarray(4, 36))).toBe(true);
  for (let i = 0; i < 286; i++) {
    const mutable = (i >= 8 && i < 16) || i >= NONCE_OFFSET;
    if (!mutable) expect(s.header[i], `byte ${i}`).toBe(header[i]);
  }
  const view = new DataView(s.header.buffer, s.header.byteOffset);
  expect(s.nonce).toBe(view.getBigUint64(NONCE_OFFSET, true));
  expect(s.creationTime).toBe(view.getBigInt64(CREATION_TIME_OFFSET, true));
}

describe("[mining] worker pool", () => {
  for (const threads of [1, 2]) {
    it(`finds a solution with ${threads} thread(s) and closes its threads`, async () => {
      const { pool, solutions, errors } = makePool({ threads, startNonce: () => 0n });
      await pool.start();
      expect(pool.liveThreads).toBe(threads);
      const work = makeWork(0x0f);
      pool.setWork("w1", work);
      await waitFor("a solution", () => solutions.length > 0);
      const [s] = solutions;
      expect(s?.workId).toBe("w1");
      expectSolves(s as MiningSolution, work);
      // Thread i starts at i·2^64/threads: a quick solution lies near one of those.
      const starts = Array.from(
        { length: threads },
        (_, i) => (BigInt(i) << 64n) / BigInt(threads),
      );
      expect(
        starts.some((st) => (s?.nonce ?? -1n) - st >= 0n && (s?.nonce ?? 0n) - st < 1n << 20n),
      ).toBe(true);
      // Done with this work: no second solution.
      await sleep(100);
      expect(solutions).toHaveLength(1);
      expect(errors).toEqual([]);
      await pool.close();
      expect(pool.liveThreads).toBe(0);
      expect(pool.state).toBe("closed");
    });
  }

  it("reports a hash rate while searching", async () => {
    const { pool, rates } = makePool({ threads: 2, progressIntervalMs: 50 });
    pool.setWork("hard", makeWork("zero"));
    await pool.start();
    await waitFor("hash rate reports", () => rates.length >= 4);
    expect(pool.hashRate()).toBeGreaterThan(0);
    expect(Math.max(...rates)).toBeGreaterThan(10_000);
  });

  it("replaces the work: the old is dropped, the new is solved", async () => {
    const { pool, solutions, rates } = makePool({ threads: 2, progressIntervalMs: 20 });
    await pool.start();
    pool.setWork("old", makeWork("zero", 1));
    await waitFor("the old work being searched", () => rates.length > 0);
    const fresh = makeWork(0x0f, 2);
    pool.setWork("new", fresh);
    expect(pool.workId).toBe("new");
    await waitFor("a solution", () => solutions.length > 0);
    expect(solutions.map((s) => s.workId)).toEqual(["new"]);
    expectSolves(solutions[0] as MiningSolution, fresh);
    // Once solved, new work is searched again.
    const third = makeWork(0x0f, 3);
    pool.setWork("third", third);
    await waitFor("a second solution", () => solutions.length > 1);
    expect(solutions[1]?.workId).toBe("third");
    expectSolves(solutions[1] as MiningSolution, third);
  });

  it("stops: nothing is searched until start()", async () => {
    const { pool, solutions, rates } = makePool({ threads: 1, progressIntervalMs: 20 });
    pool.setWork("hard", makeWork("zero"));
    await pool.start();
    await waitFor("searching", () => rates.length > 0);
    pool.stop();
    expect(pool.state).toBe("stopped");
    expect(pool.hashRate()).toBe(0);
    const reported = rates.length;
    pool.setWork("easy", makeWork(0x0f));
    await sleep(200);
    expect(solutions).toEqual([]);
    expect(rates.length).toBe(reported);
    expect(pool.liveThreads).toBe(1);
    await pool.start();
    await waitFor("a solution after start", () => solutions.length > 0);
    expect(solutions[0]?.workId).toBe("easy");
  });

  it("refreshes the creation time to max(now, previous + 1) with the given clock", async () => {
    let now = T0 - 1_000n; // a clock behind the work's time
    const { pool } = makePool({ clock: () => now, refreshIntervalMs: 5 });
    pool.setWork("hard", makeWork("zero", 1, T0));
    expect(pool.creationTime).toBe(T0);
    await pool.start();
    await waitFor("three refreshes", () => (pool.creationTime ?? 0n) >= T0 + 3n);
    now = T0 + 5_000_000n; // the clock jumps ahead
    await waitFor("the clock's time", () => pool.creationTime === now);
    pool.stop();
    const stopped = pool.creationTime;
    await sleep(30);
    expect(pool.creationTime).toBe(stopped);
  });

  it("solutions carry the refreshed time the threads were sent", async () => {
    const later = T0 + 60_000_000n;
    const { pool, solutions } = makePool({ clock: () => later, refreshIntervalMs: 1 });
    await pool.start();
    // About one nonce in 2^20 is valid, so the first refresh (1 ms) usually comes
    // before the solution; a few attempts make a run without one vanishingly rare.
    for (let attempt = 0; attempt < 8; attempt++) {
      const work = makeWork(0x00, 10 + attempt);
      work[34] = 0x00;
      work[33] = 0x0f;
      pool.setWork(`w${attempt}`, work);
      await waitFor("a solution", () => solutions.length > attempt, 20_000);
      expectSolves(solutions[attempt] as MiningSolution, work);
      const time = solutions[attempt]?.creationTime ?? 0n;
      expect(time === T0 || time >= later).toBe(true);
      if (time >= later) return;
    }
    expect.fail("no solution ever used a refreshed creation time");
  });

  it("rejects bad options and work, and use after close", async () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return isNodeError(e) ? e.code : String(e);
      }
      return undefined;
    };
    const noop = () => undefined;
    expect(code(() => new WorkerPool({ threads: 0, onSolution: noop }))).toBe(
      MiningErrorCode.BadArgument,
    );
    expect(code(() => new WorkerPool({ refreshIntervalMs: 0.5, onSolution: noop }))).toBe(
      MiningErrorCode.BadArgument,
    );
    const { pool } = makePool();
    expect(code(() => pool.setWork("x", new Uint8Array(321)))).toBe(MiningErrorCode.BadWork);
    await pool.close();
    await pool.close();
    expect(code(() => pool.setWork("x", makeWork(0x0f)))).toBe(MiningErrorCode.PoolClosed);
    await expect(pool.start()).rejects.toMatchObject({ code: MiningErrorCode.PoolClosed });
  });

  it("close() while starting leaves no thread behind", async () => {
    const { pool, solutions } = makePool({ threads: 2 });
    pool.setWork("w", makeWork(0x0f));
    const started = pool.start();
    await pool.close();
    await started;
    expect(pool.liveThreads).toBe(0);
    expect(solutions).toEqual([]);
  });
});

describe("[mining] miner worker thread", () => {
  it("answers bad messages with failed, solves work, and exits on close", async () => {
    const worker: Worker = spawnMinerWorker({ progressIntervalMs: 1000 });
    const received: unknown[] = [];
    worker.on("message", (m: unknown) => received.push(parseFromWorker(m)));
    const exited = new Promise<number>((r) => worker.once("exit", r));
    try {
      await waitFor("ready", () => received.length > 0);
      expect(received[0]).toEqual({ kind: "ready" });
      worker.postMessage({ kind: "work", generation: 1 });
      await waitFor("failed", () => received.length > 1);
      expect(received[1]).toMatchObject({ kind: "failed" });
      const header = makeWork(0x0f).slice(36);
      const target = new Uint8Array(32).fill(0xff);
      worker.postMessage({ kind: "work", generation: 7, header, target, startNonce: 99n });
      await waitFor("solved", () => received.length > 2);
      const solved = received[2] as { kind: string; generation: number; header: Uint8Array };
      expect(solved.kind).toBe("solved");
      expect(solved.generation).toBe(7);
      expect(new DataView(solved.header.buffer).getBigUint64(NONCE_OFFSET, true)).toBe(99n);
      worker.postMessage({ kind: "close" });
      expect(await exited).toBe(0);
    } finally {
      await worker.terminate();
    }
  });

  it("runs when sources are loaded the way bin/weft.js loads them (plain node + tsx register)", () => {
    const script = `
      import { register } from "tsx/esm/api";
      register();
      const { WorkerPool } = await import("./src-node/mining/workerPool.ts");
      const work = new Uint8Array(322);
      work.fill(0xff, 4, 36);
      work[35] = 0x0f;
      const pool = new WorkerPool({
        threads: 2,
        onSolution: (s) => {
          console.log("solved " + s.workId);
          void pool.close().then(() => console.log("closed " + pool.liveThreads));
        },
        onError: (e) => console.log("error " + e.message),
      });
      await pool.start();
      pool.setWork("cli", work);
    `;
    // The child must exit by itself: a leaked thread would keep it alive until the timeout.
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: repoRoot,
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("solved cli\nclosed 0\n");
    expect(r.status).toBe(0);
  });
});
