/**
 * A backup taken while the node mines continuously (the built-in miner, a
 * worker thread) and accepts /send commands: it finishes, restores (restore
 * checks every checksum, SQLite's integrity, the cut and the state against
 * the manifest), and a node started on the restored data serves the
 * manifest's cut and the same command results as the original node for the
 * blocks the backup holds.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BackupManifest } from "../../src-node/backup/backupManifest.ts";
import { restoreBackup } from "../../src-node/backup/restoreBackup.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import { sql } from "../../src-node/store/sql.ts";
import { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const { buildCommand, signCommand } = nodeCommands;

const dirs: string[] = [];
const nodes: TestNode[] = [];
afterEach(async () => {
  for (const t of nodes.splice(0)) await t.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const sender = devAccount(0);

/** A signed `/send` body: one command on `chain` paying gas from sender00. */
function sendBody(chain: number, nonce: string): { cmds: unknown[] } {
  const signers = [{ pubKey: sender.publicKey, clist: [{ name: "coin.GAS", args: [] }] }];
  const unsigned = buildCommand({
    payload: { exec: { code: `(+ 1 ${chain})`, data: null } },
    meta: {
      chainId: String(chain),
      sender: sender.account,
      gasLimit: 1000,
      gasPrice: "0.00000001",
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 30,
    },
    signers,
    networkId: "test-singleton",
    nonce,
  });
  const signed = signCommand(unsigned, signers, [sender]);
  return {
    cmds: [{ hash: signed.hash, sigs: signed.sigs.map((s) => ({ sig: s.sig })), cmd: signed.cmd }],
  };
}

async function pollAll(
  t: TestNode,
  sent: ReadonlyMap<number, readonly string[]>,
): Promise<Map<string, string>> {
  const results = new Map<string, string>();
  for (const [chain, keys] of sent) {
    if (keys.length === 0) continue;
    const r = await t.request("POST", `${t.base}/chain/${chain}/pact/api/v1/poll`, {
      body: { requestKeys: keys },
    });
    expect(r.statusCode, r.body).toBe(200);
    for (const [key, result] of Object.entries(JSON.parse(r.body) as Record<string, unknown>)) {
      results.set(key, JSON.stringify(result));
    }
  }
  return results;
}

describe("[backup] under continuous mining and /send traffic", () => {
  it("restores to a node that passes the integrity checks and serves the same cut and results", async () => {
    const d = tempDir("weft-backup-load-");
    dirs.push(d);
    const backups = join(d, "backups");
    mkdirSync(backups);
    // 64 MiB of extra rows in blocks.sqlite: the copy takes long enough to overlap the load.
    const first = await openTestNode({ dir: join(d, "live") });
    await first.cleanup();
    const filler = SqlDatabase.open(join(d, "live", "test-singleton", "blocks.sqlite"));
    filler.exec(sql`CREATE TABLE filler (b BLOB)`);
    filler.transaction(() => {
      for (let i = 0; i < 64 * 16; i++)
        filler.run(sql`INSERT INTO filler (b) VALUES (randomblob(65536))`);
    });
    filler.close();
    const live = await openTestNode({
      dir: join(d, "live"),
      backup: { apiEnabled: true, directory: backups },
      mining: { account: sender.kAccount, threads: 1 },
    });
    nodes.push(live);
    await live.node.miner.start();

    const sent = new Map<number, string[]>(live.node.version.chainIds.map((c) => [c, []]));
    let sending = true;
    let n = 0;
    const traffic = (async () => {
      while (sending) {
        const chain = n % 10;
        const r = await live.request("POST", `${live.base}/chain/${chain}/pact/api/v1/send`, {
          body: sendBody(chain, `backup-load-${n++}`),
        });
        expect(r.statusCode, r.body).toBe(200);
        sent.get(chain)?.push(...(JSON.parse(r.body) as { requestKeys: string[] }).requestKeys);
        await new Promise((res) => setTimeout(res, 5));
      }
    })();

    // Let blocks with commands accumulate, then back up while both go on.
    while ((live.node.blocks.cut().get(0)?.height ?? 0) < 5) {
      await new Promise((res) => setTimeout(res, 20));
    }
    const heightBefore = [...live.node.blocks.cut().values()].reduce((s, h) => s + h.height, 0);
    const sentBefore = n;
    const made = await live.request("POST", `${live.base}/make-backup?backupPact`);
    const id = made.body;
    let status = "backup-in-progress";
    while (status === "backup-in-progress") {
      await new Promise((res) => setTimeout(res, 10));
      status = (await live.request("GET", `${live.base}/check-backup/${id}`)).body;
    }
    expect(status).toBe("backup-done");
    const heightAtDone = [...live.node.blocks.cut().values()].reduce((s, h) => s + h.height, 0);
    // Blocks were mined and commands sent while the backup ran.
    expect(heightAtDone).toBeGreaterThan(heightBefore);
    expect(n).toBeGreaterThan(sentBefore);
    const manifest = live.node.backup?.manifest(id) as BackupManifest;
    sending = false;
    await traffic;
    await live.node.miner.stop();
    // Mining and traffic went on during the backup.
    const heightAfter = [...live.node.blocks.cut().values()].reduce((s, h) => s + h.height, 0);
    expect(heightAfter).toBeGreaterThan(heightBefore);
    expect(manifest.cut?.height).toBeGreaterThanOrEqual(heightBefore);
    expect(manifest.databases.map((x) => x.name)).toEqual(["state", "mempool", "blocks"]);
    const liveResults = await pollAll(live, sent);
    expect(liveResults.size).toBeGreaterThan(0);
    await live.cleanup();
    nodes.splice(nodes.indexOf(live), 1);

    const target = join(d, "restored");
    await restoreBackup({ backupFolder: join(backups, id), dataDir: target });
    const restored = await openTestNode({ dir: target });
    nodes.push(restored);
    const cut = JSON.parse((await restored.request("GET", `${restored.base}/cut`)).body) as unknown;
    expect(cut).toEqual(manifest.cut);
    // Every result the restored node knows is the original node's, and it knows those of
    // the blocks the backup holds.
    const restoredResults = await pollAll(restored, sent);
    expect(restoredResults.size).toBeGreaterThan(0);
    for (const [key, result] of restoredResults) expect(result).toBe(liveResults.get(key));
    for (const [key, result] of liveResults) {
      const r = JSON.parse(result) as { metaData?: { blockHeight?: number }; txId?: unknown };
      const height = r.metaData?.blockHeight;
      const chain = [...sent].find(([, keys]) => keys.includes(key))?.[0];
      const head = manifest.cut?.hashes[String(chain)]?.height ?? -1;
      if (height !== undefined && height <= head) expect(restoredResults.get(key)).toBe(result);
    }
  });
});
