/**
 * Mine on demand (src-node/mining/mineOnDemand.ts, docs/mining.md): a command
 * reaching the mempool makes its chain owed blocks until the command is in a
 * block plus the confirmations; a blocked chain has its neighbours mined
 * first; then nothing is owed. Once through the policy alone (blocks mined
 * in this thread), once through the built-in miner switched by the app route
 * (worker threads), which pays the development account and goes idle.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { cutBraidingProblems } from "../../src-node/chain/cutBraiding.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import { MineOnDemand } from "../../src-node/mining/mineOnDemand.ts";
import { ON_DEMAND_PAYEE } from "../../src-node/node.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const { buildCommand, signCommand } = nodeCommands;
const sender = devAccount(0);

let t: TestNode | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/** A signed `/send` body: one small command on `chain` paying gas from sender00. */
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

async function send(node: TestNode, chain: number, nonce: string): Promise<string> {
  const r = await node.request("POST", `${node.base}/chain/${chain}/pact/api/v1/send`, {
    body: sendBody(chain, nonce),
  });
  expect(r.statusCode, r.body).toBe(200);
  return (JSON.parse(r.body) as { requestKeys: string[] }).requestKeys[0] as string;
}

/** The height of the block holding `key` on `chain`, or undefined while it is not in one. */
async function blockHeightOf(node: TestNode, chain: number, key: string) {
  const r = await node.request("POST", `${node.base}/chain/${chain}/pact/api/v1/poll`, {
    body: { requestKeys: [key] },
  });
  expect(r.statusCode, r.body).toBe(200);
  const result = (JSON.parse(r.body) as Record<string, { metaData?: { blockHeight?: number } }>)[
    key
  ];
  return result?.metaData?.blockHeight;
}

async function until(cond: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("[mining] mine on demand, the policy", () => {
  it("owes nothing with an empty mempool", async () => {
    t = await openTestNode();
    const demand = new MineOnDemand({
      chain: t.node.blocks,
      pending: (c) => t?.node.commands.mempool.size(c) ?? 0,
    });
    expect(demand.next()).toBeUndefined();
    expect(demand.owed().size).toBe(0);
  });

  it("mines the command's chain, its blocking neighbours, one confirmation, then stops", async () => {
    t = await openTestNode();
    const node = t.node;
    const demand = new MineOnDemand({
      chain: node.blocks,
      pending: (c) => node.commands.mempool.size(c),
    });
    const key = await send(t, 3, "demand-braid");
    expect(demand.next()).toBe(3);
    const mined: number[] = [];
    for (let chain = demand.next(); chain !== undefined; chain = demand.next()) {
      mined.push(chain);
      const header = await mineOn(node, chain);
      expect(header.chainId).toBe(chain);
      expect(mined.length).toBeLessThan(20);
    }
    const cut = node.blocks.cut();
    // Height 1 holds the command, height 2 confirms it; height 2 needs the
    // three Petersen neighbours of chain 3 at height 1 first, and nothing else.
    expect(await blockHeightOf(t, 3, key)).toBe(1);
    expect(cut.get(3)?.height).toBe(2);
    expect(mined.filter((c) => c === 3)).toHaveLength(2);
    expect(mined).toHaveLength(5);
    expect(cutHeight(cut)).toBe(5);
    expect(cutBraidingProblems(cut, node.version)).toEqual([]);
    expect(demand.owed().size).toBe(0);
  });

  it("counts the confirmations it is given (0: the block holding the command only)", async () => {
    t = await openTestNode();
    const node = t.node;
    const demand = new MineOnDemand({
      chain: node.blocks,
      pending: (c) => node.commands.mempool.size(c),
      confirmations: 0,
    });
    const key = await send(t, 0, "demand-zero");
    for (let chain = demand.next(); chain !== undefined; chain = demand.next()) {
      await mineOn(node, chain);
    }
    expect(await blockHeightOf(t, 0, key)).toBe(1);
    expect(cutHeight(node.blocks.cut())).toBe(1);
  });

  it("gives up a chain whose pending commands never get into blocks", async () => {
    t = await openTestNode();
    const node = t.node;
    // A mempool that never empties: the commands are not includable.
    const demand = new MineOnDemand({ chain: node.blocks, pending: (c) => (c === 0 ? 1 : 0) });
    let blocks = 0;
    for (let chain = demand.next(); chain !== undefined; chain = demand.next()) {
      await mineOn(node, chain);
      blocks++;
      expect(blocks).toBeLessThan(100);
    }
    expect(node.blocks.cut().get(0)?.height).toBeGreaterThan(0);
    expect(demand.next()).toBeUndefined();
  });
});

describe("[mining] mine on demand through /app/api/mining", () => {
  it("confirms a sent command with the built-in miner, pays the development account, then idles", async () => {
    t = await openTestNode({ mining: { threads: 1 } });
    const node = t.node;
    const headers = { "x-weft-app-token": node.appToken, host: "127.0.0.1:1848" };
    const on = await t.request("POST", "/app/api/mining", { headers, body: { onDemand: true } });
    expect(on.statusCode, on.body).toBe(200);
    expect(JSON.parse(on.body)).toMatchObject({
      enabled: false,
      onDemand: true,
      onDemandAvailable: true,
      account: null,
    });
    // Nothing sent: nothing mined.
    await until(() => node.miner.status().active === false, 10_000);
    expect(cutHeight(node.blocks.cut())).toBe(0);

    const key = await send(t, 5, "demand-app");
    await until(async () => (await blockHeightOf(t as TestNode, 5, key)) !== undefined, 30_000);
    await until(
      () => (node.blocks.cut().get(5)?.height ?? 0) >= 2 && !node.miner.status().active,
      30_000,
    );
    expect(await blockHeightOf(t, 5, key)).toBe(1);
    const height = cutHeight(node.blocks.cut());
    expect(node.miner.status()).toMatchObject({ active: false, hashRate: 0, blocksFound: height });
    // Idle means idle: new blocks from elsewhere do not make it mine again.
    await mineOn(node, 0);
    await new Promise((r) => setTimeout(r, 300));
    expect(node.miner.status()).toMatchObject({ active: false, blocksFound: height });

    // The blocks paid the development account named in docs/dev-accounts.md.
    const head = node.blocks.cut().get(5);
    const payload = head === undefined ? undefined : node.blocks.payload(head.payloadHash);
    const minerData = JSON.parse(new TextDecoder().decode(payload?.minerData)) as {
      account: string;
    };
    expect(minerData.account).toBe(devAccount(ON_DEMAND_PAYEE).account);

    const history = await t.request("GET", "/app/api/mining/history", { headers });
    expect(history.statusCode).toBe(200);
    const h = JSON.parse(history.body) as { blocks: { chainId: number }[] };
    expect(h.blocks.filter((b) => b.chainId === 5)).toHaveLength(2);

    const off = await t.request("POST", "/app/api/mining", { headers, body: { onDemand: false } });
    expect(JSON.parse(off.body)).toMatchObject({ onDemand: false, active: false });
  }, 60_000);

  it("is refused on a network without development accounts, with a reason", async () => {
    t = await openTestNode({ network: "mainnet01" });
    const headers = { "x-weft-app-token": t.node.appToken, host: "127.0.0.1:1848" };
    const r = await t.request("POST", "/app/api/mining", { headers, body: { onDemand: true } });
    expect(r.statusCode).toBe(409);
    expect(JSON.parse(r.body)).toMatchObject({ code: "MINING_CANNOT_START" });
  });
});
