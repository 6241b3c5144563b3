/**
 * Peer sync in the app's catching-up banner (src-node/p2p/syncCatchUp.ts): the task
 * begins when the sync status says `catching-up`, counts the blocks fetched since, raises
 * its total when a peer announces more, and ends once synced; and with two real nodes, a
 * fresh node syncing from a peer with blocks lists "Syncing blocks from peers" in
 * `node.catchUp` while it catches up, and nothing once it has.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { minerInfoOf } from "../../src-node/mining/minerInfo.ts";
import { PEER_SYNC_TASK, SyncCatchUp } from "../../src-node/p2p/syncCatchUp.ts";
import type { SyncStatus } from "../../src-node/p2p/syncProgress.ts";
import { CatchUpStatus } from "../../src-node/runtime/catchUpStatus.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const open: TestNode[] = [];
afterEach(async () => {
  for (const t of open.splice(0).reverse()) await t.cleanup();
});

function status(state: SyncStatus["state"], cut: number, left: number): SyncStatus {
  return {
    state,
    cutHeight: cut,
    peerCutHeight: cut + left,
    blocksLeft: left,
    blocksPerSecond: 0,
    secondsLeft: null,
    miningHeld: false,
  };
}

describe("[p2p] peer sync as a catching-up task", () => {
  it("begins when behind, follows the blocks fetched and a growing target, ends when synced", () => {
    const catchUp = new CatchUpStatus(() => 0);
    const sync = new SyncCatchUp(catchUp);
    sync.update(status("synced", 10, 1));
    expect(catchUp.items()).toEqual([]);
    sync.update(status("catching-up", 100, 900));
    expect(catchUp.items()).toMatchObject([{ what: PEER_SYNC_TASK, done: 0, total: 900 }]);
    sync.update(status("catching-up", 400, 600));
    expect(catchUp.items()).toMatchObject([{ done: 300, total: 900 }]);
    // The peer mined on meanwhile: the target moves up.
    sync.update(status("catching-up", 500, 700));
    expect(catchUp.items()).toMatchObject([{ done: 400, total: 1100 }]);
    sync.update(status("synced", 1200, 0));
    expect(catchUp.items()).toEqual([]);
    sync.update(status("alone", 1200, 0));
    expect(catchUp.items()).toEqual([]);
  });

  it("a fresh node syncing from a peer shows the task while it catches up", async () => {
    const miner = minerInfoOf(`k:${"d".repeat(64)}`);
    const peer = await openTestNode();
    open.push(peer);
    // Blocks on the peer (test-singleton: any nonce is valid), each stored before the next.
    for (let i = 0; i < 300; i++) {
      const before = cutHeight(peer.node.blocks.cut());
      const work = await peer.node.mining.work(miner);
      peer.node.mining.submit(work.bytes.slice(36));
      for (let j = 0; j < 500 && cutHeight(peer.node.blocks.cut()) === before; j++) {
        await new Promise((done) => setTimeout(done, 1));
      }
    }
    const target = cutHeight(peer.node.blocks.cut());
    expect(target).toBeGreaterThanOrEqual(300);
    await peer.node.start();

    const fresh = await openTestNode({
      p2p: { peers: [new URL(peer.node.origin).host] },
      peerPollIntervalMs: 100,
    });
    open.push(fresh);
    const seen: { what: string; done: number; total: number }[] = [];
    const watch = setInterval(() => seen.push(...fresh.node.catchUp.items()), 1);
    try {
      await fresh.node.start();
      for (let i = 0; i < 3000 && cutHeight(fresh.node.blocks.cut()) < target; i++) {
        await new Promise((done) => setTimeout(done, 10));
      }
    } finally {
      clearInterval(watch);
    }
    expect(cutHeight(fresh.node.blocks.cut())).toBe(target);
    const tasks = seen.filter((s) => s.what === PEER_SYNC_TASK);
    expect(tasks.length).toBeGreaterThan(0);
    for (const t of tasks) {
      expect(t.total).toBeGreaterThan(0);
      expect(t.total).toBeLessThanOrEqual(target);
      expect(t.done).toBeLessThan(t.total);
    }
    expect(fresh.node.catchUp.items().filter((s) => s.what === PEER_SYNC_TASK)).toEqual([]);
  }, 120_000);
});
