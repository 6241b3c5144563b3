/**
 * A catch-up killed mid-sync (SIGKILL of a `weft node` process while it
 * stores batches of blocks, each batch one commit per database: index, then
 * state, then blocks) leaves a valid prefix: reopened, the node's cut is
 * braided, every chain's state stands at that cut's head with exactly the
 * state the peer had at the same block, and started again with its peer it
 * resumes from there and ends with the peer's cut and state.
 * No timed assertions: waits only stop a hung test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { cutBraidingProblems } from "../../src-node/chain/cutBraiding.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { NO_TXID_LIMIT } from "../../src-node/store/stateDb.ts";
import { MINER } from "../support/execChain.ts";
import { startNode, waitFor } from "../support/nodeProcess.ts";

const NETWORK = "test-singleton";
/** Blocks the peer holds: a catch-up of several batches. */
const BLOCKS = 1_500;
const dir = mkdtempSync(join(tmpdir(), "weft-p2p-crash-"));
const opened: WeftNode[] = [];

afterAll(async () => {
  for (const n of opened.reverse()) await n.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Every chain's state of `late` equals `source`'s at the same block. */
function expectSameState(late: WeftNode, source: WeftNode): void {
  for (const [c, head] of late.blocks.cut()) {
    const held = late.state.head(c);
    expect(held?.hash).toBe(head.hash);
    const there = source.state.blockAt(c, head.height);
    expect(there).toEqual(held);
    expect([...late.state.valuesAt(c, NO_TXID_LIMIT)]).toEqual([
      ...source.state.valuesAt(c, there?.endTxId ?? 0),
    ]);
  }
}

describe("[p2p] a catch-up killed mid-sync", () => {
  it("leaves a valid prefix the node resumes from", async () => {
    const source = await createNode({
      network: NETWORK,
      dataDir: join(dir, "source"),
      port: 0,
      executionWorkers: 0,
      p2p: { peers: [] },
      peerPollIntervalMs: 60_000,
    });
    opened.push(source);
    for (let i = 0; i < BLOCKS; i++) {
      const work = await source.mining.work(MINER);
      source.mining.submit(work.bytes.subarray(36));
    }
    const target = cutHeight(source.blocks.cut());
    const lateDir = join(dir, "late");
    const late = await startNode(["--peer", new URL(source.origin).host], lateDir);
    // Killed as soon as it has stored some blocks, before it has them all.
    let seen = 0;
    await waitFor("the late node's first blocks", async () => {
      seen = (await late.cut()).height;
      return seen > 0 ? true : undefined;
    });
    late.child.kill("SIGKILL");
    await new Promise<void>((r) =>
      late.child.exitCode !== null ? r() : late.child.on("exit", () => r()),
    );

    const reopened = await createNode({
      network: NETWORK,
      dataDir: lateDir,
      listen: false,
      executionWorkers: 0,
    });
    const prefix = cutHeight(reopened.blocks.cut());
    // Mid-sync: some blocks, not all (else nothing was interrupted).
    expect(prefix).toBeGreaterThanOrEqual(seen);
    expect(prefix).toBeLessThan(target);
    expect(cutBraidingProblems(reopened.blocks.cut(), reopened.version)).toEqual([]);
    expectSameState(reopened, source);
    await reopened.close();

    const resumed = await createNode({
      network: NETWORK,
      dataDir: lateDir,
      port: 0,
      executionWorkers: 0,
      p2p: { peers: [new URL(source.origin).host] },
      peerPollIntervalMs: 200,
    });
    opened.push(resumed);
    await waitFor("the resumed node on the source's cut", async () =>
      cutHeight(resumed.blocks.cut()) >= target ? true : undefined,
    );
    expect(JSON.stringify([...resumed.blocks.cut().values()].map((h) => h.hash))).toBe(
      JSON.stringify([...source.blocks.cut().values()].map((h) => h.hash)),
    );
    expectSameState(resumed, source);
  }, 600_000);
});
