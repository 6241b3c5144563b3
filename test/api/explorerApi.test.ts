/**
 * The explorer's API `/app/api/explorer/…` (docs/explorer-api.md) on a
 * test-singleton node with its real genesis, through `inject()`: a transfer
 * pending in the mempool, then mined and found by request key, block,
 * account, height and search; the coin module from the contract state; a
 * cross-chain transfer whose step 1 is missing; pages of blocks and
 * transfers with cursors; bad input answered 4xx with its code; and every
 * route's body is the exact-JSON writer's text of the Explorer's typed answer.
 */

import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JsonWritable, stringifyJson } from "../../src-node/command/exactJson.ts";
import { generateKeyPair } from "../../src-node/crypto/ed25519.ts";
import { ChainIndex } from "../../src-node/index/chainIndex.ts";
import { Explorer } from "../../src-node/index/explorer.ts";
import { crossChainTransfer } from "../support/crossChain.ts";
import { signedCommand, transferCaps } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

/** An answer's JSON, navigated freely (the assertions check it). */
type Json = ReturnType<typeof JSON.parse>;

let t: TestNode;

function get(path: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.node.server.inject({
    method: "GET",
    url: `/app/api/explorer${path}`,
    headers: { host: "127.0.0.1:1848", "x-weft-app-token": t.node.appToken, ...headers },
  });
}

async function ok(path: string): Promise<Json> {
  const r = await get(path);
  expect(r.statusCode, `${path}: ${r.body}`).toBe(200);
  expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
  return JSON.parse(r.body);
}

async function error(path: string, status: number, code: string): Promise<string> {
  const r = await get(path);
  expect(r.statusCode, `${path}: ${r.body}`).toBe(status);
  const body = JSON.parse(r.body) as { code: string; message: string };
  expect(body.code, path).toBe(code);
  return body.message;
}

let transferKey: string;
let transferBlock: string;
let pendingKey: string;

beforeAll(async () => {
  t = await openTestNode();
  await t.node.index.caughtUp();
  const cmd = signedCommand({
    code: '(coin.transfer "sender00" "sender01" 1.5)',
    chainId: 0,
    signers: [{ key: 0, caps: transferCaps("sender00", "sender01", "1.5") }],
  });
  [transferKey] = t.node.commands.send(0, [cmd]) as [string];
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

describe("[api] /app/api/explorer", () => {
  it("indexes genesis and says it is up to date", async () => {
    const s = await ok("/status");
    expect(s).toMatchObject({ state: "ready", message: "up to date", format: 1 });
    expect(s.indexedBlocks).toBe(10);
  });

  it("shows a pending transaction as pending, then confirmed once mined", async () => {
    const pending = await ok(`/tx/${transferKey}`);
    expect(pending).toMatchObject({
      requestKey: transferKey,
      status: "pending",
      chain: 0,
      block: null,
      result: null,
      sender: "sender00",
      firstCall: "coin.transfer",
    });
    expect(pending.command.cmd.payload.exec.code).toBe('(coin.transfer "sender00" "sender01" 1.5)');
    expect(typeof pending.expiresAt).toBe("number");
    const found = await ok(`/search?q=${transferKey}`);
    expect(found.results).toEqual([
      {
        kind: "transaction",
        requestKey: transferKey,
        chain: 0,
        status: "pending",
        height: null,
        blockHash: null,
      },
    ]);

    const header = await mineOn(t.node, 0);
    transferBlock = header.hash;
    const tx = await ok(`/tx/${transferKey}`);
    expect(tx).toMatchObject({
      status: "confirmed",
      chain: 0,
      confirmations: 1,
      orphanedIn: [],
      sender: "sender00",
      firstCall: "coin.transfer",
      crossChain: null,
    });
    expect(tx.block).toMatchObject({
      hash: header.hash,
      chain: 0,
      height: header.height,
      orphaned: false,
    });
    expect(tx.result.result.status).toBe("success");
    expect(tx.result.metaData).toMatchObject({
      blockHash: header.hash,
      blockHeight: header.height,
    });
    expect(tx.gas).toBe(tx.result.gas);
    expect(tx.command.cmd.signers[0].clist.map((c: { name: string }) => c.name)).toEqual([
      "coin.TRANSFER",
      "coin.GAS",
    ]);
    const transfer = tx.events.find(
      (e: Json) => e.name === "TRANSFER" && e.params[1] === "sender01",
    );
    expect(transfer).toMatchObject({ module: "coin", params: ["sender00", "sender01", 1.5] });
  });

  it("shows the block with its transactions, results and events", async () => {
    const b = await ok(`/block/${transferBlock}`);
    expect(b.block).toMatchObject({ hash: transferBlock, chain: 0, orphaned: false });
    expect(b.block.transactionCount).toBe(1);
    expect(b.header.hash).toBe(transferBlock);
    expect(b.minerData.account).toMatch(/^k:/);
    expect(b.coinbase.result.status).toBe("success");
    expect(b.children).toEqual([]);
    expect(b.transactions).toHaveLength(1);
    expect(b.transactions[0]).toMatchObject({
      requestKey: transferKey,
      position: 0,
      resultStatus: "success",
    });
    expect(b.transactions[0].result.reqKey).toBe(transferKey);
    expect(b.transactions[0].events.map((e: Json) => e.name)).toContain("TRANSFER");
  });

  it("shows an account's chains and transfers, newest first, paged", async () => {
    const a = await ok("/account/sender01");
    expect(a.chains.find((c: Json) => c.chain === 0)).toMatchObject({ chain: 0 });
    const page = await ok("/account/sender01/transfers?limit=1");
    expect(page.limit).toBe(1);
    expect(page.items[0]).toMatchObject({
      requestKey: transferKey,
      chain: 0,
      blockHash: transferBlock,
      module: "coin",
      from: "sender00",
      to: "sender01",
      amount: "1.5",
      direction: "in",
      crossChain: null,
    });
    // sender00 paid gas too: its transfers include the gas payment to the miner, newest first.
    const out = await ok("/account/sender00/transfers?chain=0&limit=100");
    expect(out.items.some((i: Json) => i.direction === "out" && i.to === "sender01")).toBe(true);
    if (page.next !== null) {
      const rest = await ok(`/account/sender01/transfers?limit=100&next=${page.next}`);
      for (const i of rest.items) expect(i.height).toBeLessThanOrEqual(page.items[0].height);
    }
    const none = await ok("/account/nobody-here/transfers");
    expect(none).toEqual({ limit: 0, items: [], next: null });
    await error("/account/nobody-here", 404, "EXPLORER_NOT_FOUND");
  });

  it("answers the coin module from the contract state", async () => {
    const m = await ok("/module/coin");
    expect(m.name).toBe("coin");
    expect(m.chains.map((c: Json) => c.chain)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(m.chains[0]).toMatchObject({ kind: "module" });
    expect(m.chains[0].interfaces).toContain("fungible-v2");
    expect(m.chains[0].code).toMatch(/^\(module coin /);
    expect(m.chains[0].hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(m.chains[0].deployedIn).toMatchObject({ height: 0 });
    await error("/module/no-such-module", 404, "EXPLORER_NOT_FOUND");
  });

  it("searches request keys, block hashes, heights, accounts and modules", async () => {
    const byKey = await ok(`/search?q=${transferKey}`);
    expect(byKey.results[0]).toMatchObject({ kind: "transaction", status: "confirmed" });
    const byHash = await ok(`/search?q=${transferBlock}`);
    expect(byHash.results).toEqual([
      { kind: "block", block: expect.objectContaining({ hash: transferBlock }) },
    ]);
    const byHeight = await ok("/search?q=0");
    expect(byHeight.results[0].kind).toBe("height");
    expect(byHeight.results[0].blocks.map((b: Json) => b.chain)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    const accounts = await ok("/search?q=%20sender0%20");
    expect(accounts.query).toBe("sender0");
    const names = accounts.results
      .filter((r: Json) => r.kind === "account")
      .map((r: Json) => r.account);
    expect(names).toContain("sender00");
    expect(names).toContain("sender01");
    expect(names.length).toBeLessThanOrEqual(10);
    const coin = await ok("/search?q=coin");
    expect(coin.results[0]).toMatchObject({ kind: "module", name: "coin" });
    const nothing = await ok("/search?q=zzz-nothing");
    expect(nothing).toEqual({ query: "zzz-nothing", results: [] });
  });

  it("pages recent blocks newest first across chains, and on one chain", async () => {
    const first = await ok("/blocks?limit=3");
    expect(first.limit).toBe(3);
    expect(first.items[0]).toMatchObject({ hash: transferBlock, height: 1, chain: 0 });
    const seen = [...first.items];
    let next = first.next as string | null;
    while (next !== null) {
      const p = await ok(`/blocks?limit=3&next=${next}`);
      seen.push(...p.items);
      next = p.next;
    }
    expect(seen).toHaveLength(11);
    expect(new Set(seen.map((b: Json) => b.hash)).size).toBe(11);
    const heights = seen.map((b: Json) => b.height);
    expect(heights).toEqual([...heights].sort((a, b) => b - a));
    const chain3 = await ok("/blocks?chain=3");
    expect(chain3.items.map((b: Json) => b.chain)).toEqual([3]);
    const below = await ok("/blocks?maxheight=0&limit=2");
    expect(below.items.map((b: Json) => [b.height, b.chain])).toEqual([
      [0, 0],
      [0, 1],
    ]);
  });

  it("links the steps of a cross-chain transfer and says step 1 is missing", async () => {
    const receiver = generateKeyPair();
    const cmd = crossChainTransfer({
      from: 0,
      receiver: `k:${receiver.publicKey}`,
      receiverKeys: [receiver.publicKey],
      amount: "2.25",
      sourceChain: 0,
      targetChain: 1,
    });
    [pendingKey] = t.node.commands.send(0, [cmd]) as [string];
    await mineOn(t.node, 0);
    const tx = await ok(`/tx/${pendingKey}`);
    expect(tx.status).toBe("confirmed");
    expect(tx.crossChain).toMatchObject({
      pactId: pendingKey,
      stepCount: 2,
      sourceChain: 0,
      targetChain: 1,
      amount: "2.25",
      receiver: `k:${receiver.publicKey}`,
      complete: false,
    });
    expect(tx.crossChain.steps).toEqual([
      expect.objectContaining({ step: 0, chain: 0, requestKey: pendingKey, status: "confirmed" }),
      { step: 1, chain: 1, requestKey: null, status: "missing", blockHash: null, height: null },
    ]);
    const sent = await ok("/account/sender00/transfers?limit=100");
    expect(sent.items.find((i: Json) => i.requestKey === pendingKey && i.to === "")).toMatchObject({
      crossChain: { pactId: pendingKey },
      amount: "2.25",
    });
  });

  it("finds a confirmed transaction through the contract state while the index catches up", async () => {
    const dir = t.dir;
    const cmd = signedCommand({
      code: '(coin.transfer "sender00" "sender02" 0.5)',
      chainId: 2,
      signers: [{ key: 0, caps: transferCaps("sender00", "sender02", "0.5") }],
    });
    const [key] = t.node.commands.send(2, [cmd]) as [string];
    const header = await mineOn(t.node, 2);
    // A second index on the same blocks, still catching up (its steps have not run yet).
    const index = ChainIndex.open({
      path: join(dir, "second-index.sqlite"),
      blocks: t.node.blocks,
    });
    try {
      expect(index.catchingUp).toBe(true);
      const explorer = new Explorer({ index, blocks: t.node.blocks, state: t.node.state });
      const tx = explorer.transaction(key);
      expect(tx).toMatchObject({ status: "confirmed", chain: 2, sender: "sender00" });
      expect(tx.block).toMatchObject({ hash: header.hash, orphaned: false });
      expect(JSON.parse(tx.result?.text ?? "null").reqKey).toBe(key);
      expect(() => new Explorer({ index, blocks: t.node.blocks }).transaction(key)).toThrow(
        /catching up/,
      );
    } finally {
      index.close();
    }
  });

  it("answers bad input with 4xx and a code, unknown keys with 404", async () => {
    const missing = await error(`/tx/${"A".repeat(43)}`, 404, "EXPLORER_NOT_FOUND");
    expect(missing).toMatch(/not found/);
    await error(`/block/${"B".repeat(43)}`, 404, "EXPLORER_NOT_FOUND");
    await error("/tx/short", 400, "EXPLORER_BAD_QUERY");
    await error("/block/x", 400, "EXPLORER_BAD_QUERY");
    await error("/blocks?limit=ten", 400, "EXPLORER_BAD_QUERY");
    await error("/blocks?limit=-1", 400, "EXPLORER_BAD_QUERY");
    await error("/blocks?next=garbage", 400, "EXPLORER_BAD_QUERY");
    await error("/blocks?chain=99", 404, "STORE_UNKNOWN_CHAIN");
    await error("/blocks?color=red", 400, "APP_BAD_REQUEST");
    await error("/blocks?limit=1&limit=2", 400, "APP_BAD_REQUEST");
    await error("/account/sender00/transfers?next=1.2.3", 400, "EXPLORER_BAD_QUERY");
    await error("/search", 400, "EXPLORER_BAD_QUERY");
    await error("/search?q=%20%20", 400, "EXPLORER_BAD_QUERY");
    await error(`/search?q=${"x".repeat(300)}`, 400, "EXPLORER_BAD_QUERY");
    const r = await get("/status", { "x-weft-app-token": "wrong" });
    expect(r.statusCode).toBe(403);
  });

  it("sends each answer as the exact-JSON writer writes the Explorer's typed value", async () => {
    // A result with a decimal beyond a double's precision, mined; a transfer left pending.
    const exactCmd = signedCommand({ code: "(+ 0.1 0.2000000000000000000001)", chainId: 3 });
    const [exactKey] = t.node.commands.send(3, [exactCmd]) as [string];
    const exactBlock = (await mineOn(t.node, 3)).hash;
    const waitingCmd = signedCommand({
      code: '(coin.transfer "sender00" "sender03" 0.25)',
      chainId: 4,
      signers: [{ key: 0, caps: transferCaps("sender00", "sender03", "0.25") }],
    });
    const [waitingKey] = t.node.commands.send(4, [waitingCmd]) as [string];
    // The node's own Explorer is not exposed; this one reads the same services.
    const explorer = new Explorer({
      index: t.node.index,
      blocks: t.node.blocks,
      state: t.node.state,
      mempool: t.node.commands.mempool,
    });
    const firstBlocks = explorer.blocks({ limit: 4, next: undefined });
    const firstTransfers = explorer.transfers("sender00", { limit: 2, next: undefined });
    expect(firstBlocks.next).not.toBeNull();
    expect(firstTransfers.next).not.toBeNull();
    const cases: [string, (e: Explorer) => JsonWritable][] = [
      ["/status", (e) => e.status()],
      ["/blocks", (e) => e.blocks({ limit: 50, next: undefined })],
      ["/blocks?limit=4", (e) => e.blocks({ limit: 4, next: undefined })],
      [
        `/blocks?limit=4&next=${firstBlocks.next}`,
        (e) => e.blocks({ limit: 4, next: firstBlocks.next ?? undefined }),
      ],
      [
        "/blocks?chain=3&maxheight=0",
        (e) => e.blocks({ limit: 50, next: undefined, chain: 3, maxHeight: 0 }),
      ],
      [`/block/${exactBlock}`, (e) => e.block(exactBlock)],
      [`/block/${transferBlock}`, (e) => e.block(transferBlock)],
      [`/tx/${exactKey}`, (e) => e.transaction(exactKey)],
      [`/tx/${transferKey}`, (e) => e.transaction(transferKey)],
      [`/tx/${pendingKey}`, (e) => e.transaction(pendingKey)],
      [`/tx/${waitingKey}`, (e) => e.transaction(waitingKey)],
      ["/account/sender00", (e) => e.account("sender00")],
      [
        "/account/sender00/transfers?limit=2",
        (e) => e.transfers("sender00", { limit: 2, next: undefined }),
      ],
      [
        `/account/sender00/transfers?limit=2&next=${firstTransfers.next}`,
        (e) => e.transfers("sender00", { limit: 2, next: firstTransfers.next ?? undefined }),
      ],
      [
        "/account/sender01/transfers?chain=0",
        (e) => e.transfers("sender01", { limit: 20, next: undefined, chain: 0 }),
      ],
      ["/module/coin", (e) => e.module("coin")],
      ["/module/fungible-v2", (e) => e.module("fungible-v2")],
      [`/search?q=${exactKey}`, (e) => e.search(exactKey)],
      [`/search?q=${waitingKey}`, (e) => e.search(waitingKey)],
      [`/search?q=${exactBlock}`, (e) => e.search(exactBlock)],
      ["/search?q=1", (e) => e.search("1")],
      ["/search?q=sender", (e) => e.search("sender")],
      ["/search?q=coin", (e) => e.search("coin")],
    ];
    for (const [path, answer] of cases) {
      const r = await get(path);
      expect(r.statusCode, `${path}: ${r.body}`).toBe(200);
      expect(r.body, path).toBe(stringifyJson(answer(explorer)));
    }
    // Written once from the stored text: the result keeps every digit a JavaScript number would lose.
    expect((await get(`/tx/${exactKey}`)).body).toContain("0.3000000000000000000001");
    expect(explorer.transaction(waitingKey).status).toBe("pending");
  });
});
