/**
 * `npm run bench -- storage`: what the chain costs on disk, and what
 * keeping the mempool on disk costs /send.
 * - `bytes_per_tx`: blocks.sqlite pages of `payload_transactions` (and its
 *   indexes, overflow pages included; SQLite's dbstat) per stored
 *   transaction, beside `stored_bytes_per_tx` (the transaction and output
 *   bytes themselves) and their ratio `tx_disk_ratio` (goal ≤ 1.3);
 *   `tx_overflow_pages` counts the overflow pages. Blocks of 250 coin
 *   transfers built through the real executor (`WEFT_BENCH_BLOCKS`, default 20).
 * - `state_bytes_per_block`: growth of state.sqlite (pages in use, free
 *   pages excluded) per empty block mined on top (`WEFT_BENCH_HEIGHT`,
 *   default 300), and `state_bytes_per_transfer_block` over the transfer
 *   blocks, all history kept (an archive node).
 * - Compaction (exec/stateCompactor.ts) with a horizon of
 *   `WEFT_BENCH_HORIZON` blocks (default 20), the same state before and
 *   after compacting it: `state_row_mb_archive` and `state_row_mb_compacted`
 *   (bytes of the rows themselves, SQLite's dbstat payload),
 *   `state_used_mb_archive` and `state_used_mb_compacted` (pages in use:
 *   deleted rows leave room in pages that new rows fill, the file does not
 *   shrink); then `state_bytes_per_block_compacted` (growth of the pages in
 *   use per empty block mined with compaction keeping up, as many blocks
 *   again) and `compaction_step_ms_max` (the longest step: what the event
 *   loop waits at most; `compaction_step_cpu_ms_max` its CPU time, the
 *   figure a loaded machine does not inflate).
 * - `mempool_adds_per_s` (one command per add, written to mempool.sqlite
 *   before returning, as /send does) beside `mempool_adds_memory_per_s`
 *   (the mempool without its store).
 * - `rss_mb_after_10k_mined`: the process's resident memory (after a
 *   garbage collection) once a node (test-singleton, one execution worker)
 *   has mined `WEFT_BENCH_MINED` blocks (default 10,000) through its mining
 *   service, beside `rss_mb_before_mining` (the same process before the node
 *   opened) and `heap_mb_after_mined`; `mined_blocks` says how many.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { extendableChains } from "../../src-node/chain/cutExtension.ts";
import type { ReadyCommand } from "../../src-node/exec/chainExecutor.ts";
import { StateCompactor } from "../../src-node/exec/stateCompactor.ts";
import { Mempool } from "../../src-node/mempool/mempool.ts";
import { databaseSpace } from "../../src-node/store/databaseSpace.ts";
import { MempoolStore } from "../../src-node/store/mempoolStore.ts";
import type { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { type ExecChain, openExecChain } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, tempDir } from "../support/testNode.ts";
import { transferBlock } from "./support/transferBlock.ts";

const BLOCKS = Number(process.env.WEFT_BENCH_BLOCKS ?? "20");
const EMPTY = Number(process.env.WEFT_BENCH_HEIGHT ?? "300");
const MINED = Number(process.env.WEFT_BENCH_MINED ?? "10000");
const HORIZON = Number(process.env.WEFT_BENCH_HORIZON ?? "20");

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function report(metric: string, value: number, unit = ""): void {
  const v = Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
  console.log(`BENCH storage ${metric}=${v}${unit === "" ? "" : ` ${unit}`}`);
}

function nextChain(x: ExecChain): number {
  return extendableChains(x.blocks.cut(), x.version, (h) => x.blocks.header(h.parent))[0] as number;
}

/** Bytes of the pages in use (the file's pages less the free ones). */
function usedBytes(db: SqlDatabase): number {
  const s = databaseSpace(db);
  return (s.pageCount - s.freePages) * s.pageSize;
}

const x = openExecChain();
const all: ReadyCommand[] = [];
try {
  const stateBefore = usedBytes(x.state.db);
  for (let b = 0; b < BLOCKS; b++) {
    const chainId = nextChain(x);
    const candidates = transferBlock(chainId, b, "storage");
    all.push(...candidates);
    x.blocks.insertBlock(x.nextBlock(chainId, candidates));
  }
  const stateAfterTransfers = usedBytes(x.state.db);
  const space = databaseSpace(x.blocks.store.db);
  let disk = 0;
  let overflow = 0;
  for (const [name, o] of space.objects) {
    if (!name.includes("payload_transactions")) continue;
    disk += o.bytes;
    overflow += o.overflowPages;
  }
  const stored = x.blocks.store.transactionBytes();
  report("transactions", stored.count);
  report("page_size", space.pageSize, "B");
  report("bytes_per_tx", disk / stored.count, "B");
  report("stored_bytes_per_tx", stored.bytes / stored.count, "B");
  report("tx_disk_ratio", disk / stored.bytes);
  report("tx_overflow_pages", overflow);
  report("state_bytes_per_transfer_block", (stateAfterTransfers - stateBefore) / BLOCKS, "B");

  for (let b = 0; b < EMPTY; b++) x.blocks.insertBlock(x.nextBlock(nextChain(x), []));
  const archived = usedBytes(x.state.db);
  report("state_bytes_per_block", (archived - stateAfterTransfers) / EMPTY, "B");

  // ---- the same state compacted, then grown with compaction keeping up
  const rowBytes = (): number => {
    let n = 0;
    for (const o of databaseSpace(x.state.db).objects.values()) n += o.payload;
    return n;
  };
  const rowsArchived = rowBytes();
  const compactor = new StateCompactor({
    version: x.version,
    state: x.state,
    horizon: HORIZON,
    roundBlocks: 1,
  });
  let stepMax = 0;
  let stepCpuMax = 0;
  let steps = 0;
  const compact = (): void => {
    for (;;) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const worked = compactor.step();
      const cpu = process.cpuUsage(c0);
      stepCpuMax = Math.max(stepCpuMax, (cpu.user + cpu.system) / 1000);
      stepMax = Math.max(stepMax, performance.now() - t0);
      if (!worked) return;
      steps++;
    }
  };
  compact();
  const compacted = usedBytes(x.state.db);
  report("state_row_mb_archive", rowsArchived / 2 ** 20, "MB");
  report("state_row_mb_compacted", rowBytes() / 2 ** 20, "MB");
  report("state_used_mb_archive", archived / 2 ** 20, "MB");
  report("state_used_mb_compacted", compacted / 2 ** 20, "MB");
  for (let b = 0; b < EMPTY; b++) {
    x.blocks.insertBlock(x.nextBlock(nextChain(x), []));
    compact();
  }
  report("state_bytes_per_block_compacted", (usedBytes(x.state.db) - compacted) / EMPTY, "B");
  report("compaction_steps", steps);
  report("compaction_step_ms_max", stepMax, "ms");
  // CPU time of the longest step: what it costs without the machine's load.
  report("compaction_step_cpu_ms_max", stepCpuMax, "ms");

  // ---- the mempool's adds, with and without its store
  const perSecond = (m: Mempool): number => {
    const start = performance.now();
    for (const r of all) m.add(r.command.payload.meta.chainId === "0" ? 0 : 1, [r]);
    return all.length / ((performance.now() - start) / 1000);
  };
  const dir = tempDir("weft-bench-mempool-");
  const store = MempoolStore.open({ path: join(dir, "mempool.sqlite") });
  try {
    const limitPerChain = all.length + 1;
    report("mempool_adds_memory_per_s", perSecond(new Mempool({ limitPerChain })), "1/s");
    report("mempool_adds_per_s", perSecond(new Mempool({ limitPerChain, store })), "1/s");
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  x.close();
}

// ---- memory after mining through a node
{
  gc();
  report("rss_mb_before_mining", process.memoryUsage().rss / 2 ** 20, "MB");
  const t = await openTestNode({ executionWorkers: 1 });
  try {
    const { node } = t;
    for (let b = 0; b < MINED; b++) {
      const chainId = extendableChains(node.blocks.cut(), node.version, (h) =>
        node.blocks.header(h.parent),
      )[0] as number;
      await mineOn(node, chainId);
    }
    gc();
    const m = process.memoryUsage();
    report("mined_blocks", MINED);
    report("rss_mb_after_10k_mined", m.rss / 2 ** 20, "MB");
    report("heap_mb_after_mined", m.heapUsed / 2 ** 20, "MB");
  } finally {
    await t.cleanup();
  }
}
