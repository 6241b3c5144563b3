/**
 * Compaction of the contract state's history (store/stateCompaction.ts,
 * exec/stateCompactor.ts): two block databases take the same blocks, one is
 * compacted, the other never; at every block held from the horizon up, the
 * compacted state reads exactly what the full one reads, rewinds within the
 * horizon (a fork switch) give the same state, a fork below the horizon is
 * re-executed from genesis, a step that fails inside its transaction leaves
 * nothing behind, an interrupted round goes on after a reopen, /local below
 * the horizon is refused with a 400 naming rewindDepth, and an archive node
 * compacts nothing.
 */
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { StateCompactor } from "../../src-node/exec/stateCompactor.ts";
import type { Block } from "../../src-node/store/blockDb.ts";
import type { StateDb } from "../../src-node/store/stateDb.ts";
import { ChainBuilder } from "../support/chainBuilder.ts";
import { type ExecChain, openExecChain, signedCommand } from "../support/execChain.ts";
import { executingPayloads } from "../support/executingPayloads.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const open: { close(): void }[] = [];
const nodes: TestNode[] = [];
const dirs: string[] = [];
// Each block runs three times (both twins and the payload builder's shadow): tests take
// seconds each, and longer on a loaded machine (their own timeouts below).
afterEach(async () => {
  for (const x of open.splice(0)) x.close();
  for (const t of nodes.splice(0)) await t.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A chain to compact (`a`) and its never-compacted twin (`b`), fed the same blocks. */
function twins(): { a: ExecChain; b: ExecChain; builder: ChainBuilder } {
  const a = openExecChain();
  const b = openExecChain();
  open.push(a, b);
  const builder = ChainBuilder.create(
    a.version,
    "main",
    a.blocks.genesis,
    executingPayloads(a.blocks),
  );
  return { a, b, builder };
}

function insert(xs: readonly ExecChain[], blocks: readonly Block[]): void {
  for (const block of blocks) for (const x of xs) x.blocks.insertBlock(block);
}

/** Every chain's state at every block held from the horizon up reads alike in both. */
function expectSameState(a: StateDb, b: StateDb, chainIds: readonly number[]): number {
  let compared = 0;
  for (const c of chainIds) {
    const head = a.head(c);
    expect(head).toEqual(b.head(c));
    if (head === undefined) continue;
    const from = a.compaction(c)?.horizonHeight ?? 0;
    for (let h = from; h <= head.height; h++) {
      const held = a.blockAt(c, h);
      expect(held, `chain ${c} height ${h}`).toEqual(b.blockAt(c, h));
      if (held === undefined) continue;
      expect(a.valuesAt(c, held.endTxId)).toEqual(b.valuesAt(c, held.endTxId));
      compared++;
    }
  }
  return compared;
}

function versions(s: StateDb, chainIds: readonly number[]): number {
  return chainIds.reduce((n, c) => n + s.versionCount(c), 0);
}

function localOf(x: ExecChain, chainId: number, rewindDepth: number): unknown {
  const command = nodeCommands.parseCommand(
    JSON.parse(JSON.stringify(signedCommand({ code: '(coin.get-balance "sender00")', chainId }))),
  );
  const answer = x.executor.local(chainId, command, { preflight: false, rewindDepth });
  if (answer.kind !== "result") throw new Error("no result");
  return (JSON.parse(answer.output) as { result: unknown }).result;
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isNodeError(e)) return e.code;
    throw e;
  }
  return "no error";
}

describe("[store] state compaction", () => {
  it("keeps every live value and what a rewind to the horizon needs; older blocks are no longer held", () => {
    const { a, b, builder } = twins();
    const chains = a.version.chainIds;
    insert([a, b], builder.rounds(9, { transactions: 2 }));
    const compactor = new StateCompactor({
      version: a.version,
      state: a.state,
      horizon: 3,
      roundBlocks: 1,
      batchRows: 7,
    });
    expect(compactor.runToEnd()).toBeGreaterThan(chains.length);
    expect(compactor.deleted).toBeGreaterThan(0);
    expect(versions(a.state, chains)).toBeLessThan(versions(b.state, chains));
    for (const c of chains) {
      const head = a.state.head(c);
      const done = a.state.compaction(c);
      expect(done?.horizonHeight).toBe((head?.height ?? 0) - 3);
      expect(done?.cursorTxId).toBe(done?.horizonEndTxId);
      // Genesis anchors the state; the blocks between it and the horizon are gone.
      expect(a.state.blockAt(c, 0)).toEqual(b.state.blockAt(c, 0));
      expect(a.state.blockAt(c, 1)).toBeUndefined();
    }
    expect(expectSameState(a.state, b.state, chains)).toBe(chains.length * 4);
    // The compacted state stays compact: one version per row below the horizon.
    for (const c of chains) {
      const end = a.state.compaction(c)?.horizonEndTxId ?? 0;
      const rows = a.state.chainRows(c).versions.filter((v) => v.txid < end);
      expect(new Set(rows.map((v) => `${v.tbl}\u0000${v.key}`)).size).toBe(rows.length);
    }
    // /local: within the horizon as before, below it refused.
    expect(localOf(a, 0, 3)).toEqual(localOf(b, 0, 3));
    expect(codeOf(() => localOf(a, 0, 4))).toBe("EXEC_STATE_PRUNED");
    expect(codeOf(() => localOf(a, 0, 1000))).toBe("EXEC_STATE_PRUNED");
    // Results are kept whole: /poll finds the commands of the first blocks.
    const first = a.blocks.ancestorAt(a.blocks.cut().get(0) as BlockHeader, 1);
    const payload = first === undefined ? undefined : a.blocks.payload(first.payloadHash);
    const tx = payload?.transactions[0]?.transaction;
    const key = (JSON.parse(new TextDecoder().decode(tx)) as { hash: string }).hash;
    expect(a.commands.poll(0, [key], 0)).toEqual(b.commands.poll(0, [key], 0));
    expect(a.commands.poll(0, [key], 0)).toContain(key);
    // Nothing more to do until the heads move on.
    expect(compactor.step()).toBe(false);
  }, 120_000);

  it("rewinds within the horizon (a fork switch) to the state of a node that never compacted", () => {
    const { a, b, builder } = twins();
    const chains = a.version.chainIds;
    insert([a, b], builder.rounds(6, { transactions: 1 }));
    const side = builder.fork("side");
    insert([a, b], builder.rounds(2, { transactions: 1 }));
    const compactor = new StateCompactor({
      version: a.version,
      state: a.state,
      horizon: 3,
      roundBlocks: 1,
      batchRows: 11,
    });
    compactor.runToEnd();
    expect(a.state.compaction(0)?.horizonHeight).toBe(5);
    // The side branch forks at height 6 (above the horizon) and becomes the best chain.
    const sideBlocks = side.rounds(3, { transactions: 2 });
    insert([a, b], sideBlocks);
    for (const c of chains) {
      expect(a.blocks.cut().get(c)?.hash).toBe(side.cut.get(c)?.hash);
      expect(a.state.head(c)?.hash).toBe(side.cut.get(c)?.hash);
    }
    expect(expectSameState(a.state, b.state, chains)).toBeGreaterThan(chains.length * 4);
    compactor.runToEnd();
    expect(a.state.compaction(0)?.horizonHeight).toBe(6);
    expectSameState(a.state, b.state, chains);
    // Blocks on the new branch execute alike on both.
    insert([a, b], side.rounds(2, { transactions: 1 }));
    expectSameState(a.state, b.state, chains);
  }, 120_000);

  it("re-executes from genesis a fork whose fork point lies below the horizon", () => {
    const { a, b, builder } = twins();
    const chains = a.version.chainIds;
    insert([a, b], builder.rounds(2, { transactions: 1 }));
    const side = builder.fork("side");
    insert([a, b], builder.rounds(4, { transactions: 1 }));
    new StateCompactor({
      version: a.version,
      state: a.state,
      horizon: 2,
      roundBlocks: 1,
    }).runToEnd();
    expect(a.state.compaction(0)?.horizonHeight).toBe(4);
    insert([a, b], side.rounds(6, { transactions: 1 }));
    for (const c of chains) expect(a.state.head(c)?.hash).toBe(side.cut.get(c)?.hash);
    // Started again: nothing compacted, every block of the new branch held.
    expect(a.state.compaction(0)).toBeUndefined();
    expect(expectSameState(a.state, b.state, chains)).toBe(chains.length * 9);
  }, 120_000);

  it("rolls back a step that fails inside its transaction, and goes on after a reopen", () => {
    const { a, b, builder } = twins();
    const chains = a.version.chainIds;
    insert([a, b], builder.rounds(6, { transactions: 2 }));
    let steps = 0;
    const failing = new StateCompactor({
      version: a.version,
      state: a.state,
      horizon: 2,
      roundBlocks: 1,
      batchRows: 5,
      hooks: {
        beforeCommit: () => {
          if (++steps === 4) throw new Error("killed mid-step");
        },
      },
    });
    for (let i = 0; i < 3; i++) expect(failing.step()).toBe(true);
    const snapshot = () =>
      chains.map((c) => ({
        compaction: a.state.compaction(c),
        versions: a.state.versionCount(c),
        rows: a.state.chainRows(c).versions.length,
      }));
    const before = snapshot();
    expect(before.some((s) => s.compaction !== undefined)).toBe(true);
    expect(() => failing.step()).toThrow("killed mid-step");
    expect(snapshot()).toEqual(before);
    expectSameState(a.state, b.state, chains);
    // A stop mid-round (the database closed, opened again): the next run goes on.
    const dir = a.dir;
    a.close(true);
    open.splice(open.indexOf(a), 1);
    dirs.push(dir);
    const again = openExecChain({ dir });
    open.push(again);
    const c0 = again.state.compaction(0);
    expect(c0 === undefined || c0.cursorTxId <= c0.horizonEndTxId).toBe(true);
    new StateCompactor({
      version: again.version,
      state: again.state,
      horizon: 2,
      roundBlocks: 1,
      batchRows: 5,
    }).runToEnd();
    for (const c of chains) {
      const done = again.state.compaction(c);
      expect(done?.cursorTxId).toBe(done?.horizonEndTxId);
      expect(done?.horizonHeight).toBe(4);
    }
    expectSameState(again.state, b.state, chains);
  }, 120_000);
});

describe("[node] state compaction settings", () => {
  async function mine(t: TestNode, blocks: number): Promise<void> {
    for (let i = 0; i < blocks; i++) await mineOn(t.node, 0);
  }

  function local(t: TestNode, rewindDepth: number) {
    return t.request("POST", `${t.base}/chain/0/pact/api/v1/local?rewindDepth=${rewindDepth}`, {
      body: signedCommand({ code: '(coin.get-balance "sender00")' }),
    });
  }

  it("compacts below state.horizon in the background; /local below it is a 400 naming rewindDepth", async () => {
    const t = await openTestNode({ state: { horizon: 3 } });
    nodes.push(t);
    await mine(t, 12);
    const compactor = t.node.compactor;
    expect(compactor?.horizon).toBe(3);
    compactor?.runToEnd();
    const head = t.node.state.head(0)?.height ?? 0;
    // The background loop may have started a round a block or two earlier.
    const horizon = t.node.state.compaction(0)?.horizonHeight ?? -1;
    expect(horizon).toBeLessThanOrEqual(head - 3);
    expect(horizon).toBeGreaterThanOrEqual(head - 3 - 2);
    expect((await local(t, head - horizon)).statusCode).toBe(200);
    const refused = await local(t, head - horizon + 1);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.headers["content-type"]).toMatch(/^text\/plain/);
    expect(refused.body).toContain("rewindDepth");
    expect(refused.body).toContain("archive");
    expect((await local(t, 100_000)).statusCode).toBe(400);
  }, 120_000);

  it("deletes nothing on an archive node (state.archive)", async () => {
    const t = await openTestNode({ state: { archive: true, horizon: 1 } });
    nodes.push(t);
    expect(t.node.compactor).toBeUndefined();
    await mine(t, 12);
    const state = t.node.state;
    const head = state.head(0)?.height ?? 0;
    expect(head).toBeGreaterThanOrEqual(12);
    for (const c of t.node.version.chainIds) expect(state.compaction(c)).toBeUndefined();
    for (let h = 0; h <= head; h++) expect(state.blockAt(0, h)).toBeDefined();
    expect((await local(t, 100_000)).statusCode).toBe(200);
  }, 120_000);
});
