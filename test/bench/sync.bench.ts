/**
 * Sync between two nodes on loopback (docs/p2p.md), both in this process
 * (so they share one event loop: figures are lower bounds of two processes):
 * - `blocks_per_s`: a source node mines WEFT_BENCH_SYNC_BLOCKS empty blocks
 *   (default 2,000 × WEFT_BENCH_SCALE) through its mining service; a late
 *   node with an empty data folder and the source as its peer starts; blocks
 *   over the seconds from its listening to holding the source's cut.
 *   `cpu_blocks_per_s`: the same blocks over the CPU seconds this process
 *   used meanwhile (both nodes; what the work costs, less sensitive than the
 *   wall clock to a machine shared with other runs).
 * - `propagation_ms`: with both in step, a block mined on the source until it
 *   is on the late node's cut (pushed with `PUT /cut`, fetched, executed),
 *   median of WEFT_BENCH_ROUNDS (default 20) blocks.
 * - `full_blocks_per_s`, `full_txs_per_s`: the same catch-up over blocks full
 *   of coin transfers (250 each, the block gas limit): another source mines
 *   WEFT_BENCH_SYNC_FULL_BLOCKS (default 40 × WEFT_BENCH_SCALE) of them
 *   (transfers signed and sent to its mempool first, untimed), another late
 *   node catches up; every block is executed there as a mined one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { MINER, signedCommand, transferCaps } from "../support/execChain.ts";
import { PER_BLOCK } from "./support/transferBlock.ts";

const scale = Number(process.env.WEFT_BENCH_SCALE ?? "1");
const blocks = Math.max(20, Math.round(Number(process.env.WEFT_BENCH_SYNC_BLOCKS ?? 2000 * scale)));
const rounds = Math.max(1, Number(process.env.WEFT_BENCH_ROUNDS ?? "20"));
const fullBlocks = Math.max(
  2,
  Math.round(Number(process.env.WEFT_BENCH_SYNC_FULL_BLOCKS ?? 40 * scale)),
);

function report(metric: string, value: number, unit: string): void {
  console.log(`BENCH sync ${metric}=${Math.round(value)} ${unit}`);
}

async function mineOne(node: WeftNode, chainId?: number): Promise<BlockHeader> {
  const work = await node.mining.work(MINER, chainId);
  return node.mining.submit(work.bytes.subarray(36)).header;
}

/** Mines a block of PER_BLOCK transfers (sent to the mempool first); returns its transactions. */
async function mineFull(node: WeftNode, b: number): Promise<number> {
  const chainId = b % node.version.chainIds.length;
  const cmds = [];
  for (let i = 0; i < PER_BLOCK; i++) {
    const from = i % 9;
    const to = (from + 1 + (b % 8)) % 9;
    const sender = `sender0${from}`;
    const receiver = `sender0${to === from ? 9 : to}`;
    cmds.push(
      signedCommand({
        code: `(coin.transfer "${sender}" "${receiver}" 0.01)`,
        sender,
        chainId,
        gasLimit: 600,
        signers: [{ key: from, caps: transferCaps(sender, receiver, "0.01") }],
        nonce: `bench-sync-${b}-${i}`,
      }),
    );
  }
  node.commands.send(chainId, JSON.parse(JSON.stringify(cmds)) as unknown[]);
  const header = await mineOne(node, chainId);
  return node.blocks.payload(header.payloadHash)?.transactions.length ?? 0;
}

/** Starts a late node with an empty folder and `source` as its peer; resolves once it holds `target`. */
async function catchUp(
  name: string,
  source: WeftNode,
  target: number,
): Promise<{ node: WeftNode; seconds: number; cpuSeconds: number }> {
  const node = await createNode({
    ...common,
    dataDir: join(dir, name),
    p2p: { peers: [new URL(source.origin).host] },
    peerPollIntervalMs: 200,
  });
  // From the moment it listens (its databases open): the first poll of its peer starts the sync.
  const started = performance.now();
  const cpu = process.cpuUsage();
  await new Promise<void>((resolve) => {
    const check = () => {
      if (cutHeight(node.blocks.cut()) >= target) resolve();
      else setTimeout(check, 5);
    };
    check();
  });
  const used = process.cpuUsage(cpu);
  return {
    node,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

const dir = mkdtempSync(join(tmpdir(), "weft-bench-sync-"));
const common = { network: "test-singleton", port: 0, executionWorkers: 0 } as const;
const source = await createNode({ ...common, dataDir: join(dir, "source") });
const opened: WeftNode[] = [source];
try {
  for (let i = 0; i < blocks; i++) await mineOne(source);
  const target = cutHeight(source.blocks.cut());
  const { node: l, seconds, cpuSeconds } = await catchUp("late", source, target);
  opened.push(l);
  report("blocks_per_s", target / seconds, "blocks/s");
  report("cpu_blocks_per_s", target / cpuSeconds, "blocks/s");

  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const arrived = new Promise<void>((resolve) => {
      const off = l.blocks.onCutChange(({ added }) => {
        if (added.some((h) => h.hash === hash)) {
          off();
          resolve();
        }
      });
    });
    const hash = (await mineOne(source)).hash;
    await arrived;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  report("propagation_ms", times[Math.floor(times.length / 2)] ?? 0, "ms");
  await l.close();
  await source.close();

  const fullSource = await createNode({ ...common, dataDir: join(dir, "full-source") });
  opened.push(fullSource);
  let txs = 0;
  for (let b = 0; b < fullBlocks; b++) txs += await mineFull(fullSource, b);
  if (txs !== fullBlocks * PER_BLOCK) {
    throw new Error(`${txs} transfers mined, not ${fullBlocks * PER_BLOCK}`);
  }
  const full = await catchUp("late-full", fullSource, cutHeight(fullSource.blocks.cut()));
  opened.push(full.node);
  report("full_blocks_per_s", fullBlocks / full.seconds, "blocks/s");
  report("full_cpu_blocks_per_s", fullBlocks / full.cpuSeconds, "blocks/s");
  report("full_txs_per_s", txs / full.seconds, "1/s");
} finally {
  for (const n of opened.reverse()) await n.close();
  rmSync(dir, { recursive: true, force: true });
}
