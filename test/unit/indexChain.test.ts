/**
 * The explorer index (src-node/index/chainIndex.ts) against a block
 * database: live indexing of the best cut, reorganisations (a block
 * orphaned and its transactions unconfirmed, then the other branch
 * confirming them, then the first branch coming back), the account counts
 * following them, a rebuild from scratch equal to the incremental index,
 * resuming after blocks were added while the index was closed, deferring
 * (cut changes not followed while the node syncs from peers, a resume
 * after, even across a reorganisation), the catching-up status, and a large
 * block indexed in steps (readers never see it half done; one half written
 * when the index stopped is indexed again).
 */
import { copyFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { ChainIndex, LIVE_STEP_TRANSACTIONS } from "../../src-node/index/chainIndex.ts";
import { Explorer } from "../../src-node/index/explorer.ts";
import { type Block, BlockDb } from "../../src-node/store/blockDb.ts";
import { IndexStore } from "../../src-node/store/indexStore.ts";
import { ChainBuilder } from "../support/chainBuilder.ts";
import { TransferPayloads, transferCommand } from "../support/indexPayloads.ts";
import { tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0).reverse()) c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fresh() {
  const dir = tempDir("weft-index-");
  dirs.push(dir);
  const blocks = BlockDb.open({ path: join(dir, "blocks.sqlite"), version: testSingletonVersion });
  closers.push(() => blocks.close());
  const payloads = new TransferPayloads();
  const main = ChainBuilder.create(testSingletonVersion, "main", blocks.genesis, payloads);
  return { dir, blocks, payloads, main };
}

async function openIndex(
  blocks: BlockDb,
  path: string,
  stepBlocks = 7,
  liveStepMs?: number,
): Promise<ChainIndex> {
  const index = ChainIndex.open({ path, blocks, stepBlocks, liveStepMs });
  closers.push(() => index.close());
  await index.caughtUp();
  return index;
}

function insertAll(db: BlockDb, blocks: readonly Block[]): void {
  for (const b of blocks) db.insertBlock(b);
}

/** The request key's rows: block hash and whether that block is orphaned. */
function rowsOf(index: ChainIndex, key: string) {
  return index.store
    .transactionsByKey(key)
    .map((r) => ({ block: r.blockHash, orphaned: r.orphaned }));
}

const T = { from: "alice", to: "bob", amount: "1.5", nonce: "t" };
const U = { from: "carol", to: "dave", amount: "2.0", nonce: "u" };

describe("[index] following the best cut", () => {
  it("indexes genesis and every new block with its transactions and transfer events", async () => {
    const { dir, blocks, payloads, main } = fresh();
    const index = await openIndex(blocks, join(dir, "index.sqlite"));
    expect(index.store.blockCount()).toBe(10);
    payloads.queue("main", 3, T);
    const round = main.round();
    insertAll(blocks, round);
    expect(index.store.blockCount()).toBe(20);
    const key = transferCommand(3, T).key;
    const [row] = index.store.transactionsByKey(key);
    expect(row).toMatchObject({
      requestKey: key,
      chainId: 3,
      height: 1,
      sender: "alice",
      firstCall: "coin.transfer",
      gas: 526,
      success: true,
      orphaned: false,
    });
    const block = index.store.block(row!.blockHash);
    expect(block).toMatchObject({ chainId: 3, height: 1, miner: "miner-main", txCount: 1 });
    const [event] = index.store.eventsOfBlock(row!.blockHash);
    expect(event).toMatchObject({
      module: "coin",
      name: "TRANSFER",
      params: '["alice","bob",1.5]',
      fromAccount: "alice",
      toAccount: "bob",
      amount: "1.5",
    });
    expect(index.store.accountChains("bob")).toEqual([
      { account: "bob", chainId: 3, transactions: 0, transfers: 1 },
    ]);
    expect(index.status()).toMatchObject({ state: "ready", indexedBlocks: 20 });
  });

  it("orphans a branch's blocks, unconfirms their transactions and confirms them on the other branch", async () => {
    const { dir, blocks, payloads, main } = fresh();
    const index = await openIndex(blocks, join(dir, "index.sqlite"));
    insertAll(blocks, main.rounds(2));
    const side = main.fork("side");
    // main: T and U on chain 0; side: T only, one round later (another block).
    payloads.queue("main", 0, T, U);
    const m = main.rounds(2);
    insertAll(blocks, m);
    const t = transferCommand(0, T).key;
    const u = transferCommand(0, U).key;
    const mainBlockOfT = m[0]!.header.hash;
    expect(rowsOf(index, t)).toEqual([{ block: mainBlockOfT, orphaned: false }]);
    expect(index.store.accountChains("carol")).toHaveLength(1);

    const s1 = side.round();
    payloads.queue("side", 0, T);
    const s = [...s1, ...side.rounds(2)];
    const sideBlockOfT = s.find((b) => b.header.chainId === 0 && b.header.height === 4)!.header
      .hash;
    insertAll(blocks, s);
    expect(blocks.cut().get(0)?.hash).toBe(side.cut.get(0)?.hash);

    // Every main block above the fork is orphaned; T is confirmed in the side block.
    for (const b of m) expect(index.store.block(b.header.hash)?.orphaned).toBe(true);
    for (const b of s) expect(index.store.block(b.header.hash)?.orphaned).toBe(false);
    expect(rowsOf(index, t)).toEqual([
      { block: sideBlockOfT, orphaned: false },
      { block: mainBlockOfT, orphaned: true },
    ]);
    expect(rowsOf(index, u)).toEqual([{ block: mainBlockOfT, orphaned: true }]);
    // U's parties no longer count on any chain; T's still do, once.
    expect(index.store.accountChains("carol")).toEqual([]);
    expect(index.store.accountChains("alice")).toEqual([
      { account: "alice", chainId: 0, transactions: 1, transfers: 1 },
    ]);
    expect(index.store.transfers("dave", "to", undefined, undefined, 10)).toEqual([]);
    expect(
      index.store.transfers("bob", "to", undefined, undefined, 10).map((r) => r.blockHash),
    ).toEqual([sideBlockOfT]);

    // The explorer's answers: U no longer confirmed, T confirmed with the old block listed.
    const explorer = new Explorer({ index, blocks });
    const uTx = explorer.transaction(u);
    expect(uTx).toMatchObject({ status: "orphaned", confirmations: null, orphanedIn: [] });
    expect(uTx.block).toMatchObject({ hash: mainBlockOfT, orphaned: true });
    const tTx = explorer.transaction(t);
    expect(tTx).toMatchObject({ status: "confirmed", block: { hash: sideBlockOfT } });
    expect(tTx.orphanedIn).toEqual([
      expect.objectContaining({ hash: mainBlockOfT, orphaned: true }),
    ]);
    expect(explorer.block(mainBlockOfT).block.orphaned).toBe(true);

    // The main branch grows heavier again: the side blocks are orphaned, the main ones confirmed.
    insertAll(blocks, main.rounds(3));
    expect(blocks.cut().get(0)?.hash).toBe(main.cut.get(0)?.hash);
    for (const b of m) expect(index.store.block(b.header.hash)?.orphaned).toBe(false);
    for (const b of s) expect(index.store.block(b.header.hash)?.orphaned).toBe(true);
    expect(rowsOf(index, u)).toEqual([{ block: mainBlockOfT, orphaned: false }]);
    expect(index.store.accountChains("carol")).toEqual([
      { account: "carol", chainId: 0, transactions: 1, transfers: 1 },
    ]);
    expect(index.store.accountChains("alice")).toEqual([
      { account: "alice", chainId: 0, transactions: 1, transfers: 1 },
    ]);

    // A rebuild from the block database equals the incremental index.
    const rebuilt = await openIndex(blocks, join(dir, "rebuilt.sqlite"), 5);
    expect(rebuilt.store.dump()).toEqual(index.store.dump());
  });
});

/** `n` transfers among four accounts (distinct nonces). */
function manyTransfers(n: number, tag: string) {
  const names = ["alice", "bob", "carol", "dave"];
  return Array.from({ length: n }, (_, i) => ({
    from: names[i % 4] as string,
    to: names[(i + 1) % 4] as string,
    amount: "1.0",
    nonce: `${tag}-${i}`,
  }));
}

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

describe("[index] a large block in steps", () => {
  it("indexes it a part at a time with the event loop running between, and readers see it whole", async () => {
    const { dir, blocks, payloads, main } = fresh();
    const path = join(dir, "index.sqlite");
    // One index transaction per turn: the steps are seen however fast the machine is.
    const index = await openIndex(blocks, path, 7, 0);
    const perBlock = 2 * LIVE_STEP_TRANSACTIONS + 5;
    payloads.queue("main", 3, ...manyTransfers(perBlock, "a"));
    const round = main.round();
    insertAll(blocks, round);
    const big = round.find((b) => b.header.chainId === 3) as Block;
    // Another connection sees what the index has committed: nothing of the round yet.
    const reader = IndexStore.open(path);
    closers.push(() => reader.close());
    expect(reader.blockCount()).toBe(10);
    let turns = 0;
    let sawPart = false;
    while (reader.block(big.header.hash) === undefined && turns < 1000) {
      const rows = reader.transactionsOfBlock(big.header.hash).length;
      if (rows > 0 && rows < perBlock) {
        sawPart = true;
        expect(reader.meta("partial")).toBe(big.header.hash);
      }
      await nextTurn();
      turns++;
    }
    expect(sawPart).toBe(true);
    expect(reader.transactionsOfBlock(big.header.hash)).toHaveLength(perBlock);
    expect(reader.meta("partial")).toBe("");

    // A reader through the index never sees it behind: the queue is applied first.
    payloads.queue("main", 3, ...manyTransfers(perBlock, "b"));
    insertAll(blocks, main.round());
    expect(index.store.blockCount()).toBe(30);
    expect(index.status()).toMatchObject({ state: "ready", indexedBlocks: 30 });
    expect(index.store.accountChains("alice")).toEqual([
      { account: "alice", chainId: 3, transactions: 36, transfers: 70 },
    ]);
    const rebuilt = await openIndex(blocks, join(dir, "rebuilt.sqlite"));
    expect(rebuilt.store.dump()).toEqual(index.store.dump());
  });

  it("indexes a block again that was half written when the node stopped", async () => {
    const { dir, blocks, payloads, main } = fresh();
    const path = join(dir, "index.sqlite");
    await openIndex(blocks, path, 7, 0);
    payloads.queue("main", 3, ...manyTransfers(3 * LIVE_STEP_TRANSACTIONS, "a"));
    insertAll(blocks, main.round());
    const reader = IndexStore.open(path);
    closers.push(() => reader.close());
    while (reader.meta("partial") === undefined || reader.meta("partial") === "") await nextTurn();
    // The files as a stop between two steps leaves them (the steps are committed transactions).
    const stopped = join(dir, "stopped.sqlite");
    copyFileSync(path, stopped);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${stopped}-wal`);
    const half = IndexStore.open(stopped);
    const partial = half.meta("partial") as string;
    expect(half.transactionsOfBlock(partial).length).toBeGreaterThan(0);
    expect(half.block(partial)).toBeUndefined();
    half.close();

    const resumed = await openIndex(blocks, stopped);
    const rebuilt = await openIndex(blocks, join(dir, "rebuilt.sqlite"));
    const dump = resumed.store.dump();
    expect(resumed.store.meta("partial")).toBe("");
    expect(dump.transactions).toEqual(rebuilt.store.dump().transactions);
    expect(dump.events).toEqual(rebuilt.store.dump().events);
    expect(dump.accounts).toEqual(rebuilt.store.dump().accounts);
    expect(dump.blocks).toEqual(rebuilt.store.dump().blocks);
  });
});

describe("[index] catching up", () => {
  it("resumes after blocks were added while it was closed, and reports progress meanwhile", async () => {
    const { dir, blocks, payloads, main } = fresh();
    const path = join(dir, "index.sqlite");
    const first = await openIndex(blocks, path);
    insertAll(blocks, main.rounds(2));
    first.close();
    const side = main.fork("side");
    insertAll(blocks, main.rounds(1));
    // While closed: the cut moves to a heavier side branch holding a transfer.
    payloads.queue("side", 5, T);
    insertAll(blocks, side.rounds(3));

    const index = ChainIndex.open({ path, blocks, stepBlocks: 4 });
    closers.push(() => index.close());
    const status = index.status();
    expect(status.state).toBe("catching-up");
    expect(status.totalBlocks).toBe(30);
    expect(status.message).toBe("catching up, 0 of 30 blocks");
    // A block arriving while it catches up is applied after it.
    insertAll(blocks, side.rounds(1));
    await index.caughtUp();
    expect(index.status()).toMatchObject({ state: "ready", message: "up to date" });
    expect(rowsOf(index, transferCommand(5, T).key)).toHaveLength(1);
    const rebuilt = await openIndex(blocks, join(dir, "rebuilt.sqlite"));
    // The rebuild also holds the main round that never stopped being a side branch here.
    const dump = index.store.dump();
    const again = rebuilt.store.dump();
    expect(again.transactions).toEqual(dump.transactions);
    expect(again.accounts).toEqual(dump.accounts);
    expect((again.blocks as { orphaned: number }[]).filter((b) => b.orphaned === 0)).toEqual(
      (dump.blocks as { orphaned: number }[]).filter((b) => b.orphaned === 0),
    );
  });

  it("replaces an index file that is not a database", async () => {
    const { dir, blocks } = fresh();
    const path = join(dir, "index.sqlite");
    writeFileSync(path, "not a database, not even close ".repeat(200));
    const warnings: string[] = [];
    const index = ChainIndex.open({ path, blocks, log: { warn: (m) => warnings.push(m) } });
    closers.push(() => index.close());
    await index.caughtUp();
    expect(warnings).toEqual(["explorer index unreadable; rebuilding it"]);
    expect(index.store.blockCount()).toBe(10);
  });

  it("rebuilds an index of another format or network", async () => {
    const { dir, blocks, main } = fresh();
    const path = join(dir, "index.sqlite");
    const first = await openIndex(blocks, path);
    insertAll(blocks, main.rounds(1));
    first.close();
    const store = IndexStore.open(path);
    store.setMeta("format", "0");
    store.close();
    const index = ChainIndex.open({ path, blocks, stepBlocks: 3 });
    closers.push(() => index.close());
    expect(index.status()).toMatchObject({
      state: "catching-up",
      indexedBlocks: 0,
      totalBlocks: 20,
    });
    await index.caughtUp();
    expect(index.store.blockCount()).toBe(20);
    expect(index.store.meta("format")).toBe("1");
  });
});

describe("[index] deferred while the node syncs", () => {
  it("indexes nothing while deferred, and catches up in the background after", async () => {
    const { dir, blocks, payloads, main } = fresh();
    const index = await openIndex(blocks, join(dir, "index.sqlite"));
    index.defer(true);
    const side = main.fork("side");
    payloads.queue("main", 3, T);
    insertAll(blocks, main.rounds(3));
    expect(index.store.blockCount()).toBe(10);
    expect(index.status().state).toBe("catching-up");
    expect(index.catchingUp).toBe(true);
    // A heavier branch from the fork point takes over while deferred: T is confirmed there.
    payloads.queue("side", 3, T);
    insertAll(blocks, side.rounds(5));
    index.defer(false);
    await index.caughtUp();
    expect(index.status()).toMatchObject({ state: "ready", indexedBlocks: 60 });
    // Exactly the best chain, as an index that followed every cut change would hold it.
    for (const head of blocks.cut().values()) {
      for (let h = 1; h <= head.height; h++) {
        const best = blocks.ancestorAt(head, h);
        expect(index.store.block(best?.hash as string)).toMatchObject({ orphaned: false });
      }
    }
    const rows = rowsOf(index, transferCommand(3, T).key);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.orphaned).toBe(false);
    const head3 = blocks.cut().get(3);
    expect(head3 && blocks.ancestorAt(head3, 1)?.hash).toBe(rows[0]?.block);
    // Live again: the next block is indexed at once.
    insertAll(blocks, side.round());
    expect(index.store.blockCount()).toBe(70);
  });

  it("defers while a pass runs, and resumes once it is done", async () => {
    const { dir, blocks, main } = fresh();
    insertAll(blocks, main.rounds(4));
    const index = ChainIndex.open({ path: join(dir, "index.sqlite"), blocks, stepBlocks: 3 });
    closers.push(() => index.close());
    expect(index.catchingUp).toBe(true);
    index.defer(true);
    insertAll(blocks, main.rounds(2));
    index.defer(false);
    insertAll(blocks, main.round());
    await index.caughtUp();
    expect(index.status()).toMatchObject({ state: "ready", indexedBlocks: 80 });
  });
});
