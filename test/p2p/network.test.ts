/**
 * Several nodes as separate `weft node` processes on loopback (test-singleton:
 * every nonce is a proof of work, so blocks come fast): nodes follow a
 * miner through peers; a transfer sent to A is gossiped to the miner B and
 * polled on C; two miners converge; a partitioned node that mined its own
 * fork converges once healed; a node started late with an empty data folder
 * catches up more than 2,000 blocks. No timed assertions: `waitFor` limits
 * only stop a hung test.
 *
 * A's data folder starts with 2,100 blocks mined in this process through
 * the mining service (far quicker than the built-in miner of a process on a
 * busy machine), so B and C first catch up 2,100 blocks from A, and so does
 * the late node at the end.
 *
 * Two miners that stop at the same moment may hold cuts of equal weight
 * with different blocks on top: the tie-break of chain/cutOrder.ts makes
 * them agree (before it, "ties keep the current cut" could keep them apart
 * for good). The tests still stop one miner, let the other mine a few
 * blocks more, then stop it.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { createNode } from "../../src-node/node.ts";
import { MINER, signedCommand, transferCaps } from "../support/execChain.ts";
import { MINER_A, type NodeProcess, startNode, waitFor } from "../support/nodeProcess.ts";

/** A second reward account (dev key 1's `k:` account). */
const MINER_B = "k:6be2f485a7af75fedb4b7f153a903f7e6000ca4aa501179c91a2450b777bd2a7";

/** Cut height of A's data folder before the processes start. */
const SEEDED = 2_100;

const nodes: NodeProcess[] = [];
let a: NodeProcess;
let b: NodeProcess;
let c: NodeProcess;

async function start(args: string[], dataDir?: string): Promise<NodeProcess> {
  const n = await startNode(args, dataDir);
  nodes.push(n);
  return n;
}

async function height(n: NodeProcess): Promise<number> {
  return (await n.cut()).height;
}

async function mining(n: NodeProcess, enabled: boolean, account?: string): Promise<void> {
  const r = await n.app("mining", { method: "POST", body: { enabled, account } });
  expect(r.status, await r.clone().text()).toBe(200);
}

/** Waits until every node serves the same cut; returns it. */
async function converged(ns: NodeProcess[], limitMs = 120_000): Promise<string> {
  return waitFor(
    "the nodes to agree on one cut",
    async () => {
      const cuts = await Promise.all(ns.map((n) => n.cut()));
      const texts = cuts.map((x) => JSON.stringify(x.hashes));
      return texts.every((t) => t === texts[0]) ? texts[0] : undefined;
    },
    limitMs,
  );
}

/** Stops `last` after `first`, once `last` has mined a few blocks alone (no tie at the end). */
async function stopMining(first: NodeProcess, last: NodeProcess): Promise<void> {
  await mining(first, false);
  const from = await height(last);
  await waitFor("the last miner's own blocks", async () =>
    (await height(last)) >= from + 10 ? true : undefined,
  );
  await mining(last, false);
}

/** A data folder holding SEEDED blocks of cut height, mined in this process. */
async function seededDataDir(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), "weft-p2p-"));
  const seed = await createNode({
    network: "test-singleton",
    dataDir,
    listen: false,
    executionWorkers: 0,
  });
  try {
    while (cutHeight(seed.blocks.cut()) < SEEDED) {
      const work = await seed.mining.work(MINER);
      seed.mining.submit(work.bytes.subarray(36));
    }
  } finally {
    await seed.close();
  }
  return dataDir;
}

beforeAll(async () => {
  a = await start([], await seededDataDir());
  [b, c] = await Promise.all([
    start(["--peer", a.address, "--mine", "--miner-account", MINER_A]),
    start(["--peer", a.address]),
  ]);
}, 600_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  for (const n of nodes) rmSync(n.dataDir, { recursive: true, force: true });
}, 60_000);

describe("[p2p] nodes as processes", () => {
  it("a node that does not mine follows the miner through a peer", async () => {
    // B and C first catch up A's blocks; then C follows what B mines.
    await waitFor(
      "C to follow B's blocks",
      async () => ((await height(c)) >= SEEDED + 100 ? true : undefined),
      240_000,
    );
    // C's blocks are B's: B's block at C's head is stored on B.
    const cCut = await c.cut();
    const head = cCut.hashes["0"] as { hash: string };
    const r = await fetch(`${b.base}/chain/0/header/${head.hash}`);
    expect(r.status).toBe(200);
    const peers = (await (await c.app("peers")).json()) as {
      peers: { address: string; network: string }[];
      sync: { state: string };
    };
    expect(peers.peers.find((p) => p.address === a.address)?.network).toBe("ok");
  }, 300_000);

  it("a transfer sent to A (not mining) is gossiped to B, mined there, and polled on C", async () => {
    const cmd = signedCommand({
      code: '(coin.transfer "sender00" "sender01" 1.25)',
      signers: [{ key: 0, caps: transferCaps("sender00", "sender01", "1.25") }],
    });
    const sent = await fetch(`${a.base}/chain/0/pact/api/v1/send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cmds: [cmd] }),
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const result = await waitFor("the transfer's result on C", async () => {
      const r = await fetch(`${c.base}/chain/0/pact/api/v1/poll`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ requestKeys: [cmd.hash] }),
      });
      const body = (await r.json()) as Record<string, { result: { status: string } }>;
      return body[cmd.hash];
    });
    expect(result.result.status).toBe("success");
    // Only B mines: the block that holds it is B's, and A (which C may have bypassed,
    // having learnt B through peer exchange) polls it too once the block reaches it.
    const onA = await waitFor("the transfer's result on A", async () => {
      const r = await fetch(`${a.base}/chain/0/pact/api/v1/poll`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ requestKeys: [cmd.hash] }),
      });
      return ((await r.json()) as Record<string, { result: { status: string } }>)[cmd.hash];
    });
    expect(onA.result.status).toBe("success");
  }, 150_000);

  it("two miners (B, C) converge on one cut once they stop", async () => {
    await mining(c, true, MINER_B);
    const start = await height(a);
    await waitFor("both miners to add blocks", async () =>
      (await height(a)) >= start + 50 ? true : undefined,
    );
    await stopMining(c, b);
    await converged([a, b, c]);
  }, 240_000);

  it("a partitioned node that mined its own fork converges once healed", async () => {
    // Partition: C stops, forgets its peers, and mines alone; B mines on the other side.
    await c.stop();
    rmSync(join(c.dataDir, "test-singleton", "peers.json"), { force: true });
    const c2 = await start(["--mine", "--miner-account", MINER_B], c.dataDir);
    await mining(b, true);
    const forkFrom = await height(c2);
    await waitFor("C's own fork", async () =>
      (await height(c2)) >= forkFrom + 20 ? true : undefined,
    );
    // Heal: C is given A as a peer again.
    const added = await c2.app("peers", { method: "POST", body: { address: a.address } });
    expect(added.status, await added.clone().text()).toBe(200);
    await waitFor("C to exchange cuts with A", async () => {
      const p = (await (await c2.app("peers")).json()) as { peers: { network: string }[] };
      return p.peers.some((x) => x.network === "ok") ? true : undefined;
    });
    await stopMining(c2, b);
    const cut = await converged([a, b, c2]);
    expect(cut).toBeDefined();
    c = c2;
  }, 240_000);

  it("a node started late with an empty data folder catches up more than 2,000 blocks", async () => {
    const target = await converged([a, b]);
    const late = await start(["--peer", a.address]);
    const caughtUp = await converged([a, late]);
    expect(caughtUp).toBe(target);
    expect(await height(late)).toBeGreaterThanOrEqual(SEEDED);
    // The catch-up was shown in its log with its progress.
    expect(late.stderr()).toMatch(/p2p: catching up: cut height \d+ of \d+, \d+ blocks left/);
  }, 300_000);
});
