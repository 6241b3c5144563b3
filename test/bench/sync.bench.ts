/**
 * Sync between two nodes on loopback (docs/p2p.md), both in this process
 * (so they share one event loop: figures are lower bounds of two processes):
 * - `blocks_per_s`: a source node mines WEFT_BENCH_SYNC_BLOCKS empty blocks
 *   (default 2,000 × WEFT_BENCH_SCALE) through its mining service; a late
 *   node with an empty data folder and the source as its peer starts; blocks
 *   over the seconds from its start to holding the source's cut.
 * - `propagation_ms`: with both in step, a block mined on the source until it
 *   is on the late node's cut (pushed with `PUT /cut`, fetched, executed),
 *   median of WEFT_BENCH_ROUNDS (default 20) blocks.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { MINER } from "../support/execChain.ts";

const scale = Number(process.env.WEFT_BENCH_SCALE ?? "1");
const blocks = Math.max(20, Math.round(Number(process.env.WEFT_BENCH_SYNC_BLOCKS ?? 2000 * scale)));
const rounds = Math.max(1, Number(process.env.WEFT_BENCH_ROUNDS ?? "20"));

function report(metric: string, value: number, unit: string): void {
  console.log(`BENCH sync ${metric}=${Math.round(value)} ${unit}`);
}

async function mineOne(node: WeftNode): Promise<string> {
  const work = await node.mining.work(MINER);
  return node.mining.submit(work.bytes.subarray(36)).header.hash;
}

const dir = mkdtempSync(join(tmpdir(), "weft-bench-sync-"));
const common = { network: "test-singleton", port: 0, executionWorkers: 0 } as const;
const source = await createNode({ ...common, dataDir: join(dir, "source") });
let late: WeftNode | undefined;
try {
  for (let i = 0; i < blocks; i++) await mineOne(source);
  const target = cutHeight(source.blocks.cut());
  const started = performance.now();
  late = await createNode({
    ...common,
    dataDir: join(dir, "late"),
    p2p: { peers: [new URL(source.origin).host] },
    peerPollIntervalMs: 200,
  });
  const l = late;
  await new Promise<void>((resolve) => {
    const check = () => {
      if (cutHeight(l.blocks.cut()) >= target) resolve();
      else setTimeout(check, 5);
    };
    check();
  });
  const seconds = (performance.now() - started) / 1000;
  report("blocks_per_s", target / seconds, "blocks/s");

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
    const hash = await mineOne(source);
    await arrived;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  report("propagation_ms", times[Math.floor(times.length / 2)] ?? 0, "ms");
} finally {
  await late?.close();
  await source.close();
  rmSync(dir, { recursive: true, force: true });
}
