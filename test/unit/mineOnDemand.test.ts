/**
 * Mine on demand (src-node/mining/mineOnDemand.ts, docs/mining.md): a command
 * reaching the mempool makes its chain owed blocks until the command is in a
 * block plus the confirmations; a height a proof waits for is owed too; a
 * blocked chain has its neighbours mined first; then nothing is owed. Once
 * through the policy alone (blocks mined in this thread), once through the
 * built-in miner switched by the app route (worker threads), which pays the
 * development account and goes idle; and a whole cross-chain transfer (step
 * 0, the proof /spv waits for, the continuation) on mine on demand alone.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { cutBraidingProblems } from "../../src-node/chain/cutBraiding.ts";
import { generateKeyPair } from "../../src-node/crypto/ed25519.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import { MineOnDemand } from "../../src-node/mining/mineOnDemand.ts";
import { ON_DEMAND_PAYEE } from "../../src-node/node.ts";
import { continuation, crossChainTransfer, gasPayerCaps } from "../support/crossChain.ts";
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

  it("owes a height a proof waits for: mines that chain and what blocks it, braided, then stops", async () => {
    t = await openTestNode();
    const node = t.node;
    const demand = new MineOnDemand({ chain: node.blocks, pending: () => 0 });
    demand.owe(1, 3);
    // A height the chain already has owes nothing; a lower one changes nothing.
    demand.owe(2, 0);
    demand.owe(1, 2);
    expect([...demand.owed()]).toEqual([[1, 3]]);
    let blocks = 0;
    for (let chain = demand.next(); chain !== undefined; chain = demand.next()) {
      await mineOn(node, chain);
      blocks++;
      expect(blocks).toBeLessThan(40);
    }
    const cut = node.blocks.cut();
    expect(cut.get(1)?.height).toBe(3);
    expect(cutBraidingProblems(cut, node.version)).toEqual([]);
    expect(demand.owed().size).toBe(0);
    demand.owe(1, 3);
    expect(demand.next()).toBeUndefined();
  });

  it("keeps a height waited for when it gives up the same chain's stuck commands", async () => {
    t = await openTestNode();
    const node = t.node;
    // Chain 1's one command never gets into a block; a proof waits for chain 1 at height 12.
    const demand = new MineOnDemand({ chain: node.blocks, pending: (c) => (c === 1 ? 1 : 0) });
    demand.owe(1, 12);
    let blocks = 0;
    for (let chain = demand.next(); chain !== undefined; chain = demand.next()) {
      await mineOn(node, chain);
      blocks++;
      expect(blocks).toBeLessThan(200);
    }
    expect(node.blocks.cut().get(1)?.height).toBe(12);
    expect(demand.owed().size).toBe(0);
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

  it("mines a whole cross-chain transfer: step 0, the height /spv waits for, the continuation", async () => {
    t = await openTestNode({ mining: { threads: 1, onDemand: true } });
    const node = t.node;
    await node.miner.setOnDemand(true);
    const receiverKey = generateKeyPair();
    const receiver = `k:${receiverKey.publicKey}`;
    const api = (chain: number) => `${node.basePath}/chain/${chain}/pact/api/v1`;
    // Chains 0 and 1 are not adjacent on the Petersen graph: the proof hops 0 → 3 → 1.
    const step0 = crossChainTransfer({
      from: 0,
      receiver,
      receiverKeys: [receiverKey.publicKey],
      amount: "2.5",
      sourceChain: 0,
      targetChain: 1,
    });
    const sent = await t.request("POST", `${api(0)}/send`, { body: { cmds: [step0] } });
    expect(sent.statusCode, sent.body).toBe(200);
    await until(
      async () => (await blockHeightOf(t as TestNode, 0, step0.hash)) !== undefined,
      30_000,
    );
    await until(() => !node.miner.status().active, 30_000);
    const stepHeight = (await blockHeightOf(t, 0, step0.hash)) as number;
    // Idle: chain 1 is not yet where the proof needs it.
    expect(node.blocks.cut().get(1)?.height).toBeLessThan(stepHeight + 2);

    // /spv waits for chain 1; mine on demand mines it there (without, it would wait 180 s).
    const proof = await t.request("POST", `${api(0)}/spv`, {
      body: { requestKey: step0.hash, targetChainId: "1" },
    });
    expect(proof.statusCode, proof.body).toBe(200);
    expect(node.blocks.cut().get(1)?.height).toBeGreaterThanOrEqual(stepHeight + 2);
    expect(cutBraidingProblems(node.blocks.cut(), node.version)).toEqual([]);

    const cont = continuation({
      pactId: step0.hash,
      step: 1,
      proof: JSON.parse(proof.body) as string,
      chainId: 1,
      sender: "xchain-gas",
      gasLimit: 850,
      signers: [{ key: receiverKey, caps: gasPayerCaps(receiver) }],
    });
    const sentCont = await t.request("POST", `${api(1)}/send`, { body: { cmds: [cont] } });
    expect(sentCont.statusCode, sentCont.body).toBe(200);
    await until(
      async () => (await blockHeightOf(t as TestNode, 1, cont.hash)) !== undefined,
      30_000,
    );
    const polled = await t.request("POST", `${api(1)}/poll`, {
      body: { requestKeys: [cont.hash] },
    });
    const result = (JSON.parse(polled.body) as Record<string, { result: { status: string } }>)[
      cont.hash
    ];
    expect(result?.result.status).toBe("success");
    await until(() => !node.miner.status().active, 30_000);
    expect(node.miner.status()).toMatchObject({
      demand: [],
      payee: devAccount(ON_DEMAND_PAYEE).account,
    });
  }, 90_000);

  it("Mining on without a reward account pays the development account on a development network", async () => {
    t = await openTestNode({ mining: { threads: 1 } });
    const headers = { "x-weft-app-token": t.node.appToken, host: "127.0.0.1:1848" };
    const on = await t.request("POST", "/app/api/mining", { headers, body: { enabled: true } });
    expect(on.statusCode, on.body).toBe(200);
    expect(JSON.parse(on.body)).toMatchObject({
      enabled: true,
      account: null,
      payee: devAccount(ON_DEMAND_PAYEE).account,
    });
    const node = t.node;
    await until(() => node.miner.status().blocksFound >= 2, 30_000);
    await node.miner.stop();
  }, 60_000);

  it("is refused on a network without development accounts, with a reason", async () => {
    t = await openTestNode({ network: "mainnet01" });
    const headers = { "x-weft-app-token": t.node.appToken, host: "127.0.0.1:1848" };
    const r = await t.request("POST", "/app/api/mining", { headers, body: { onDemand: true } });
    expect(r.statusCode).toBe(409);
    expect(JSON.parse(r.body)).toMatchObject({ code: "MINING_CANNOT_START" });
    // So is Mining on without a reward account; the status says why it cannot mine.
    const on = await t.request("POST", "/app/api/mining", { headers, body: { enabled: true } });
    expect(on.statusCode).toBe(409);
    expect(JSON.parse(on.body)).toMatchObject({ code: "MINING_CANNOT_START" });
    expect(t.node.miner.status()).toMatchObject({ enabled: false, payee: null, held: false });
  });
});
