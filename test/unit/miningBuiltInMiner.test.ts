/**
 * The built-in miner: with real worker threads on a `development` node (real
 * proof of work at its easy genesis difficulty, one thread) it mines blocks,
 * reports its hash rate and blocks found, stops and closes cleanly; with an
 * in-process pool it follows work updates, changes threads and miner at
 * runtime, refuses to start without a miner, and is held (the peer network
 * holds it while the node catches up) without its switch changing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { cutBraidingProblems } from "../../src-node/chain/cutBraiding.ts";
import { minerDataJson } from "../../src-node/chain/minerData.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { BuiltInMiner, type MinerPool } from "../../src-node/mining/builtInMiner.ts";
import { minerInfoOf } from "../../src-node/mining/minerInfo.ts";
import { searchNonce } from "../../src-node/mining/nonceSearch.ts";
import type { WorkerPoolOptions } from "../../src-node/mining/workerPool.ts";
import { signedCommand } from "../support/execChain.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const MINER = minerInfoOf(`k:${"d".repeat(64)}`);

let t: TestNode | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

async function until(cond: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * An in-process pool: remembers the work it is given and solves it when told
 * (a nonce search in this thread), so tests decide when blocks are found.
 */
class ManualPool implements MinerPool {
  static made: ManualPool[] = [];
  readonly options: WorkerPoolOptions;
  work: { id: string; bytes: Uint8Array }[] = [];
  state = "idle";
  constructor(options: WorkerPoolOptions) {
    this.options = options;
    ManualPool.made.push(this);
  }
  async start() {
    this.state = "running";
  }
  stop() {
    this.state = "stopped";
  }
  setWork(id: string, bytes: Uint8Array) {
    this.work.push({ id, bytes });
  }
  async close() {
    this.state = "closed";
  }
  get current() {
    return this.work.at(-1);
  }
  solve() {
    const w = this.current;
    if (w === undefined) throw new Error("no work");
    const header = w.bytes.slice(36);
    const { nonce } = searchNonce(header, w.bytes.slice(4, 36), 0n, 10_000_000);
    if (nonce === null) throw new Error("no nonce");
    new DataView(header.buffer).setBigUint64(278, nonce, true);
    this.options.onSolution({ workId: w.id, header, nonce, creationTime: 0n });
  }
}

describe("[mining] built-in miner, worker threads, development difficulty", () => {
  it("mines blocks with one thread, reports them, stops and closes cleanly", async () => {
    t = await openTestNode({ network: "development", mining: { threads: 1 } });
    const { miner, blocks } = t.node;
    expect(miner.status()).toEqual({
      enabled: false,
      threads: 1,
      account: null,
      hashRate: 0,
      blocksFound: 0,
      onDemand: false,
      onDemandAvailable: true,
      active: false,
      lastBlockAt: null,
      held: false,
      payee: "sender09",
      demand: [],
    });
    await miner.configure({ minerInfo: MINER });
    await miner.start();
    expect(miner.status().enabled).toBe(true);
    await until(() => miner.status().blocksFound >= 3, 50_000);
    await miner.stop();
    const found = miner.status().blocksFound;
    expect(miner.status()).toMatchObject({ enabled: false, hashRate: 0, account: MINER.account });
    expect(cutHeight(blocks.cut())).toBeGreaterThanOrEqual(found);
    expect(cutBraidingProblems(blocks.cut(), blocks.version)).toEqual([]);
    const mined = [...blocks.cut().values()].find((h) => h.height > 0);
    const payload = mined === undefined ? undefined : blocks.payload(mined.payloadHash);
    expect(new TextDecoder().decode(payload?.minerData)).toBe(minerDataJson(MINER));
    // Stopped means stopped: no block is added afterwards.
    const height = cutHeight(blocks.cut());
    await new Promise((r) => setTimeout(r, 300));
    expect(cutHeight(blocks.cut())).toBe(height);
    await miner.close();
    expect(isNodeError(await miner.start().catch((e) => e), "MINING_POOL_CLOSED")).toBe(true);
  }, 60_000);

  it("makes no fork blocks on its own: every block it finds extends the best cut", async () => {
    // test-singleton: any nonce solves, so blocks land as fast as work is made
    // and stale work would show up as blocks off the cut at once.
    // Two threads: both may solve the same work item; only one block may come of it.
    t = await openTestNode({ mining: { threads: 2 } });
    const { miner, blocks } = t.node;
    await miner.configure({ minerInfo: MINER });
    await miner.start();
    await until(() => miner.status().blocksFound >= 200, 50_000);
    await miner.stop();
    expect(cutHeight(blocks.cut())).toBe(miner.status().blocksFound);
  }, 60_000);

  it("reports a hash rate while running", async () => {
    t = await openTestNode({ network: "development" });
    const { miner } = t.node;
    await miner.configure({ minerInfo: MINER });
    // A slow progress report interval would make this test wait; 1 s is the default.
    await miner.start();
    await until(() => miner.status().hashRate > 0, 10_000);
    await miner.stop();
    expect(miner.status().hashRate).toBe(0);
  }, 30_000);
});

describe("[mining] built-in miner control", () => {
  afterEach(() => {
    ManualPool.made = [];
  });

  async function manual() {
    t = await openTestNode();
    const miner = new BuiltInMiner({
      service: t.node.mining,
      minerInfo: MINER,
      createPool: (o) => new ManualPool(o),
    });
    return { miner, node: t.node };
  }

  it("refuses to start without a miner where there is no development account to pay", async () => {
    t = await openTestNode({ network: "mainnet01" });
    const e = await t.node.miner.start().catch((x) => x);
    expect(isNodeError(e, "MINING_CANNOT_START")).toBe(true);
    expect(t.node.miner.status().enabled).toBe(false);
  });

  it("mines the node's work, fetches new work after each block and when its chain moves", async () => {
    const { miner, node } = await manual();
    await miner.start();
    await until(() => ManualPool.made[0]?.current !== undefined, 2000);
    const pool = ManualPool.made[0] as ManualPool;
    for (let i = 0; i < 5; i++) {
      const before = pool.work.length;
      pool.solve();
      await until(() => pool.work.length > before, 2000);
    }
    expect(miner.status().blocksFound).toBe(5);
    expect(cutHeight(node.blocks.cut())).toBe(5);
    // Another miner extends the chain this miner works on: its work is replaced.
    const current = pool.current as { bytes: Uint8Array };
    const chain = Buffer.from(current.bytes).readUInt32LE(0);
    const other = await node.mining.work(minerInfoOf(`k:${"e".repeat(64)}`), chain);
    expect(other.header.chainId).toBe(chain);
    const header = other.bytes.slice(36);
    const before = pool.work.length;
    node.mining.submit(header);
    await until(() => pool.work.length > before, 2000);
    expect(miner.status().blocksFound).toBe(5);
    await miner.close();
    expect(pool.state).toBe("closed");
  });

  it("takes new work when commands reach the mempool of its chain (no new block needed)", async () => {
    const { miner, node } = await manual();
    await miner.start();
    await until(() => ManualPool.made[0]?.current !== undefined, 2000);
    const pool = ManualPool.made[0] as ManualPool;
    const chain = Buffer.from((pool.current as { bytes: Uint8Array }).bytes).readUInt32LE(0);
    const before = pool.work.length;
    const cmd = signedCommand({ code: "(+ 1 2)", chainId: chain });
    node.commands.send(chain, [cmd]);
    // The refresh (merged for REFRESH_DELAY_MS) replaces the work; no block was found meanwhile.
    await until(() => pool.work.length > before, 3000);
    expect(miner.status().blocksFound).toBe(0);
    expect(cutHeight(node.blocks.cut())).toBe(0);
    pool.solve();
    await until(() => miner.status().blocksFound === 1, 2000);
    const polled = JSON.parse(node.commands.poll(chain, [cmd.hash], 0)) as Record<string, unknown>;
    expect(Object.keys(polled)).toEqual([cmd.hash]);
    await miner.close();
  });

  it("changes threads (a new pool) and miner at runtime", async () => {
    const { miner } = await manual();
    await miner.start();
    await until(() => ManualPool.made[0]?.current !== undefined, 2000);
    await miner.configure({ threads: 3 });
    expect(ManualPool.made.length).toBe(2);
    expect(ManualPool.made[0]?.state).toBe("closed");
    expect(ManualPool.made[1]?.options.threads).toBe(3);
    expect(miner.status()).toMatchObject({ enabled: true, threads: 3 });
    await until(() => ManualPool.made[1]?.current !== undefined, 2000);
    const other = minerInfoOf(`k:${"f".repeat(64)}`);
    const pool = ManualPool.made[1] as ManualPool;
    const before = pool.work.length;
    await miner.configure({ minerInfo: other });
    await until(() => pool.work.length > before, 2000);
    expect(miner.status().account).toBe(other.account);
    await expect(miner.configure({ threads: 0 })).rejects.toThrow(/threads/);
    await miner.stop();
    expect(pool.state).toBe("stopped");
    await miner.close();
  });

  it("a hold stops the threads without touching the switch; released, it runs only if still on", async () => {
    const { miner } = await manual();
    await miner.start();
    await until(() => ManualPool.made[0]?.current !== undefined, 2000);
    const pool = ManualPool.made[0] as ManualPool;
    await miner.hold(true);
    expect(pool.state).toBe("stopped");
    expect(miner.status()).toMatchObject({ enabled: true, active: false });
    expect(miner.wanted).toBe(true);
    await miner.hold(false);
    expect(pool.state).toBe("running");
    expect(miner.status()).toMatchObject({ enabled: true, active: true });
    // Switched off while held: released, it stays off.
    await miner.hold(true);
    await miner.stop();
    await miner.hold(false);
    expect(pool.state).toBe("stopped");
    expect(miner.status()).toMatchObject({ enabled: false, active: false });
    // Switched on while held: it waits for the release.
    await miner.hold(true);
    await miner.start();
    expect(pool.state).toBe("stopped");
    expect(miner.status().enabled).toBe(true);
    await miner.hold(false);
    expect(pool.state).toBe("running");
    await miner.close();
  });
});
