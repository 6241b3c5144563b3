/**
 * An app backup of a node under load (issue 20): the built-in miner on and transfers
 * arriving over `/send` all through the job. The backup restores (`weft restore`'s
 * restoreBackup) to a consistent cut: the restored node opens on the manifest's cut with
 * every chain's state at that cut; a transfer has a result there exactly when the original
 * node mined it into a block of that cut (at the same block), none mined later shows up, a
 * pending command brought back has no result; the node answers `/local`, its explorer
 * index catches up to the cut, and it mines on top.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { restoreBackup } from "../../src-node/backup/restoreBackup.ts";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { cutToJson } from "../../src-node/chain/cutJson.ts";
import { minerInfoOf } from "../../src-node/mining/minerInfo.ts";
import { devTransfer } from "../support/devTransfer.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const KEY = "9a".repeat(32);
let dir: string | undefined;
const open: TestNode[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

let nonce = 0;

/** sender08 → sender09 0.1 on chain 0, signed with the published test key. */
const transfer = () =>
  devTransfer({ amount: "0.1", nonce: `under-load-${process.pid}-${nonce++}` });

type PollAnswer = Record<string, { metaData: { blockHash: string; blockHeight: number } }>;

async function poll(t: TestNode, keys: readonly string[]): Promise<PollAnswer> {
  const out: PollAnswer = {};
  // /poll takes a bounded number of keys per request.
  for (let i = 0; i < keys.length; i += 50) {
    const r = await t.request("POST", `${t.base}/chain/0/pact/api/v1/poll`, {
      body: { requestKeys: keys.slice(i, i + 50) },
    });
    expect(r.statusCode, r.body).toBe(200);
    Object.assign(out, JSON.parse(r.body) as PollAnswer);
  }
  return out;
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe("[backup] an app backup of a node under load", () => {
  it("restores to one consistent cut: blocks, state, results and pending commands agree", async () => {
    dir = tempDir("weft-backup-load-");
    const live = await openTestNode({
      dir: join(dir, "live"),
      mining: { enabled: true, threads: 1, account: `k:${KEY}` },
    });
    open.push(live);
    const node = live.node;
    await node.miner.start();

    // Transfers keep arriving while the miner mines, before, during and after the job.
    const sent: string[] = [];
    let loading = true;
    const load = (async () => {
      while (loading) {
        const cmd = transfer();
        const r = await live.request("POST", `${live.base}/chain/0/pact/api/v1/send`, {
          body: { cmds: [cmd] },
        });
        if (r.statusCode === 200) sent.push(cmd.hash);
        await pause(2);
      }
    })();
    for (let i = 0; i < 2000 && (cutHeight(node.blocks.cut()) < 20 || sent.length < 20); i++) {
      await pause(10);
    }
    expect(cutHeight(node.blocks.cut())).toBeGreaterThanOrEqual(20);
    const heightAtStart = cutHeight(node.blocks.cut());
    const sentAtStart = sent.length;

    const backups = join(dir, "backups");
    mkdirSync(backups);
    node.appBackups.setDirectory(backups);
    const id = node.appBackups.start({ includeState: true });
    const manifest = await node.appBackups.settled();
    // A little more load after the copy, then stop.
    await pause(50);
    loading = false;
    await load;
    await node.miner.stop();
    expect(manifest?.status, JSON.stringify(manifest?.error)).toBe("backup-done");
    expect(node.appBackups.job(id).status).toBe("backup-done");
    // The load ran through the job: blocks and transfers came in meanwhile.
    expect(cutHeight(node.blocks.cut())).toBeGreaterThan(heightAtStart);
    expect(sent.length).toBeGreaterThan(sentAtStart);
    const backupCut = manifest?.cut;
    expect(backupCut).toBeDefined();

    // Where the original node mined each transfer (those it mined at all).
    const original = await poll(live, sent);
    expect(Object.keys(original).length).toBeGreaterThan(0);
    const liveHeight = cutHeight(node.blocks.cut());
    await live.cleanup();
    open.splice(0);

    const target = join(dir, "restored");
    const result = await restoreBackup({ backupFolder: join(backups, id), dataDir: target });
    expect(result.files).toEqual(["state.sqlite", "mempool.sqlite", "blocks.sqlite"]);

    const restored = await openTestNode({ dir: target });
    open.push(restored);
    const r = restored.node;
    // Every database at the backup's cut: the blocks, and the state of every chain.
    expect(cutToJson(r.blocks.cut(), r.version)).toEqual(backupCut);
    for (const [chainId, head] of r.blocks.cut()) {
      expect(r.state.head(chainId)?.hash, `state of chain ${chainId}`).toBe(head.hash);
    }

    // Results exactly for the transfers mined into the cut's blocks, at the same block.
    const head = r.blocks.cut().get(0);
    expect(head).toBeDefined();
    const after = await poll(restored, sent);
    let inCut = 0;
    for (const key of sent) {
      const was = original[key]?.metaData;
      const onCut =
        was !== undefined &&
        head !== undefined &&
        was.blockHeight <= head.height &&
        r.blocks.ancestorAt(head, was.blockHeight)?.hash === was.blockHash;
      if (onCut) {
        inCut++;
        expect(after[key]?.metaData, key).toMatchObject({
          blockHash: was.blockHash,
          blockHeight: was.blockHeight,
        });
      } else {
        expect(after[key], key).toBeUndefined();
      }
      // A pending command brought back is one the cut has not mined.
      if (r.commands.mempool.has(0, key)) expect(after[key], key).toBeUndefined();
    }
    expect(inCut).toBeGreaterThan(0);
    // Blocks were mined after the cut the backup holds: the restored node has none of them.
    expect(liveHeight).toBeGreaterThan(cutHeight(r.blocks.cut()));

    // The restored node answers and goes on: /local, its explorer index, a new block.
    const local = await restored.request("POST", `${restored.base}/chain/0/pact/api/v1/local`, {
      body: transfer(),
    });
    expect(local.statusCode, local.body).toBe(200);
    expect((JSON.parse(local.body) as { result: { status: string } }).result.status).toBe(
      "success",
    );
    await r.index.caughtUp();
    expect(r.index.status().state).toBe("ready");
    const before = cutHeight(r.blocks.cut());
    const work = await r.mining.work(minerInfoOf(`k:${KEY}`));
    r.mining.submit(work.bytes.slice(36));
    for (let i = 0; i < 500 && cutHeight(r.blocks.cut()) === before; i++) await pause(10);
    expect(cutHeight(r.blocks.cut())).toBe(before + 1);
  }, 120_000);
});
