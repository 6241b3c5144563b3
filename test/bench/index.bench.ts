/**
 * The explorer index (`npm run bench -- index`):
 *
 * - `blocks_per_s`: a rebuild (ChainIndex catching up, in its background
 *   steps) over empty blocks: test-singleton, WEFT_BENCH_HEIGHT rounds of 10
 *   chains (default 2,000: 20,000 blocks). Goal ≥ 5,000.
 * - `txs_per_s`: the same over blocks full of transfers (100 per block,
 *   WEFT_BENCH_ROUNDS rounds, default 20: 20,000 transactions, each with a
 *   TRANSFER event and its account counts). Goal ≥ 3,000.
 * - `search_ms`, `account_page_ms` (medians) at WEFT_BENCH_INDEX_TXS indexed
 *   transactions (default 1,000,000): the index is filled with synthetic
 *   rows (100 transactions per real block, a TRANSFER each, half of them
 *   from one busy account), then the Explorer's answers are timed, each
 *   with its writing by the exact-JSON writer (what the route sends):
 *   searches of request keys, heights and account-name prefixes; pages of 20
 *   transfers of the busy account and of quiet ones, from the newest and
 *   from cursors deep in the list. Goal ≤ 20 ms each.
 *
 * Block databases are written through the store directly (validation and
 * execution are measured elsewhere); the indexer reads them as a node's.
 */
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { stringifyJson } from "../../src-node/command/exactJson.ts";
import { ChainIndex, INDEX_FORMAT } from "../../src-node/index/chainIndex.ts";
import { Explorer } from "../../src-node/index/explorer.ts";
import { type Block, BlockDb } from "../../src-node/store/blockDb.ts";
import { IndexStore } from "../../src-node/store/indexStore.ts";
import { ChainBuilder } from "../support/chainBuilder.ts";
import { TransferPayloads } from "../support/indexPayloads.ts";
import { tempDir } from "../support/testNode.ts";

const HEIGHT = Number(process.env.WEFT_BENCH_HEIGHT ?? 2_000);
const ROUNDS = Number(process.env.WEFT_BENCH_ROUNDS ?? 20);
const INDEX_TXS = Number(process.env.WEFT_BENCH_INDEX_TXS ?? 1_000_000);
const TRANSFERS_PER_BLOCK = 100;
const QUERIES = 200;
const version = testSingletonVersion;

function report(metric: string, value: number, unit: string): void {
  const shown = value >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
  console.log(`BENCH index ${metric}=${shown} ${unit}`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** A block database of `rounds` rounds built by `builder`, written through the store. */
function blockDb(path: string, builder: ChainBuilder, rounds: number): BlockDb {
  const db = BlockDb.open({ path, version });
  for (let r = 0; r < rounds; r += 50) {
    const blocks: Block[] = builder.rounds(Math.min(50, rounds - r));
    db.store.transaction(() => {
      for (const b of blocks) {
        db.store.insertPayload(b.payload);
        db.store.insertHeader(b.header);
        db.store.setBestChain(b.header);
      }
      db.store.replaceCutHeads([...builder.cut.values()]);
    });
  }
  db.close();
  return BlockDb.open({ path, version });
}

/**
 * Seconds a rebuild of the index of `blocks` takes: wall clock, and the
 * process's CPU time (on a loaded machine the wall clock mostly measures
 * waiting for a core; the CPU time is what the rebuild costs).
 */
async function rebuildSeconds(
  blocks: BlockDb,
  path: string,
): Promise<{ wall: number; cpu: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const index = ChainIndex.open({ path, blocks });
  await index.caughtUp();
  const used = process.cpuUsage(cpu);
  const wall = (performance.now() - start) / 1000;
  index.close();
  return { wall, cpu: (used.user + used.system) / 1e6 };
}

const dir = tempDir("weft-bench-index-");
try {
  // ---- blocks_per_s: empty blocks
  {
    const builder = ChainBuilder.create(version, "empty", undefined, new TransferPayloads());
    const blocks = blockDb(join(dir, "empty", "blocks.sqlite"), builder, HEIGHT);
    const n = blocks.store.headerCount();
    const s = await rebuildSeconds(blocks, join(dir, "empty", "index.sqlite"));
    report("blocks", n, "blocks");
    report("blocks_per_s", n / s.wall, "1/s");
    report("blocks_per_cpu_s", n / s.cpu, "1/s");
    blocks.close();
  }

  // ---- txs_per_s: blocks of 100 transfers
  {
    let nonce = 0;
    const payloads = new TransferPayloads(() =>
      Array.from({ length: TRANSFERS_PER_BLOCK }, () => {
        nonce++;
        return {
          from: `sender${nonce % 50}`,
          to: `receiver${nonce % 997}`,
          amount: "1.25",
          nonce: String(nonce),
        };
      }),
    );
    const builder = ChainBuilder.create(version, "full", undefined, payloads);
    const blocks = blockDb(join(dir, "full", "blocks.sqlite"), builder, ROUNDS);
    const s = await rebuildSeconds(blocks, join(dir, "full", "index.sqlite"));
    report("txs", nonce, "transactions");
    report("txs_per_s", nonce / s.wall, "1/s");
    report("txs_per_cpu_s", nonce / s.cpu, "1/s");
    blocks.close();
  }

  // ---- search_ms, account_page_ms at INDEX_TXS indexed transactions
  {
    const t0 = performance.now();
    const perBlock = TRANSFERS_PER_BLOCK;
    const rounds = Math.max(1, Math.ceil(INDEX_TXS / perBlock / version.chainIds.length));
    const builder = ChainBuilder.create(version, "big", undefined, new TransferPayloads());
    const blocks = blockDb(join(dir, "big", "blocks.sqlite"), builder, rounds);
    const path = join(dir, "big", "index.sqlite");
    // A complete index of the block database, then synthetic transactions in its blocks.
    const first = ChainIndex.open({ path, blocks });
    await first.caughtUp();
    first.close();
    const store = IndexStore.open(path);
    if (store.meta("format") !== String(INDEX_FORMAT)) throw new Error("index not built");
    const headers: BlockHeader[] = [];
    for (const c of version.chainIds) {
      for (
        let h = blocks.cut().get(c) as BlockHeader | undefined;
        h !== undefined && h.height > 0;
      ) {
        headers.push(h);
        h = blocks.header(h.parent);
      }
    }
    const keys: string[] = [];
    let i = 0;
    for (let b = 0; b < headers.length && i < INDEX_TXS; b += 20) {
      store.transaction(() => {
        for (const h of headers.slice(b, b + 20)) {
          for (let p = 0; p < perBlock && i < INDEX_TXS; p++, i++) {
            const requestKey = createHash("sha256").update(`tx${i}`).digest("base64url");
            if (i % 5000 === 0) keys.push(requestKey);
            const from = i % 2 === 0 ? "busy-account" : `account-${i % 10_007}`;
            const to = `account-${(i * 7) % 10_007}`;
            store.insertTransaction({
              blockHash: h.hash,
              position: p,
              requestKey,
              chainId: h.chainId,
              height: h.height,
              sender: from,
              firstCall: "coin.transfer",
              gas: 526,
              success: true,
              pactId: null,
              step: null,
            });
            store.insertEvent({
              blockHash: h.hash,
              position: p,
              idx: 0,
              chainId: h.chainId,
              height: h.height,
              module: "coin",
              name: "TRANSFER",
              params: `["${from}","${to}",1.0]`,
              fromAccount: from,
              toAccount: to,
              amount: "1.0",
            });
            store.countAccount(from, h.chainId, 1, 1);
            store.countAccount(to, h.chainId, 0, 1);
          }
        }
      });
    }
    store.close();
    report("indexed_txs", i, "transactions");
    report("fill_ms", performance.now() - t0, "ms");

    const index = ChainIndex.open({ path, blocks });
    await index.caughtUp();
    const explorer = new Explorer({ index, blocks });
    const time = (f: () => void): number => {
      const s = performance.now();
      f();
      return performance.now() - s;
    };
    const topHeight = rounds;
    const searches: string[] = [];
    for (let q = 0; q < QUERIES; q++) {
      const kind = q % 4;
      searches.push(
        kind === 0
          ? (keys[q % keys.length] as string)
          : kind === 1
            ? String((q * 37) % (topHeight + 1))
            : kind === 2
              ? `account-${(q * 13) % 10_007}`
              : `account-${q % 100}`,
      );
    }
    for (const q of searches.slice(0, 20)) stringifyJson(explorer.search(q));
    const searchTimes = searches.map((q) => time(() => stringifyJson(explorer.search(q))));
    report("search_ms", median(searchTimes), "ms");
    report("search_max_ms", Math.max(...searchTimes), "ms");

    const accounts = ["busy-account", "account-1", "account-5000"];
    const pageTimes: number[] = [];
    for (let q = 0; q < QUERIES; q++) {
      const account = accounts[q % accounts.length] as string;
      let next: string | undefined;
      pageTimes.push(
        time(() => {
          const first = explorer.transfers(account, { limit: 20, next: undefined });
          stringifyJson(first);
          next = first.next ?? undefined;
        }),
      );
      // A page further down, from the cursor of the first.
      pageTimes.push(time(() => stringifyJson(explorer.transfers(account, { limit: 20, next }))));
    }
    report("account_page_ms", median(pageTimes), "ms");
    report("account_page_max_ms", Math.max(...pageTimes), "ms");
    index.close();
    blocks.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
