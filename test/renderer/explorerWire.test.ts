/**
 * The explorer's wire contract with a real node (createNode, not listening; requests
 * through `inject()` with the cookie the app page sets): its parsers read the node's
 * graph, header and block pages (a block with a transfer: command, signers and
 * capabilities, result, events, miner, reward), branches, the balance `/local` command,
 * and every answer of the explorer index it uses (a confirmed transfer, a cross-chain
 * transfer whose second step is missing, a pending command, search, account, transfers,
 * module). A change of shape on either side fails here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClientResult } from "../../renderer/src/api/clientError.ts";
import {
  createNodeClient,
  type FetchLike,
  loadAppConfig,
  type NodeClient,
} from "../../renderer/src/api/nodeClient.ts";
import { braidLayout } from "../../renderer/src/features/explorer/braid.ts";
import {
  eventText,
  rewardOf,
  singleTarget,
  transferNeedsFinish,
} from "../../renderer/src/features/explorer/model.ts";
import {
  balanceCommand,
  parseBalanceResult,
} from "../../renderer/src/features/explorer/wire/balance.ts";
import { parseBlockPage } from "../../renderer/src/features/explorer/wire/blocks.ts";
import {
  HEADER_OBJECT_ACCEPT,
  parseHeader,
  parseHeaderPage,
  parseInfoGraph,
} from "../../renderer/src/features/explorer/wire/headers.ts";
import {
  parseAccountChains,
  parseIndexedTransaction,
  parseIndexStatus,
  parseModule,
  parseSearch,
  parseTransferPage,
} from "../../renderer/src/features/explorer/wire/index.ts";
import { petersenGraph } from "../../src-node/chain/knownGraphs.ts";
import type { Command } from "../../src-node/command/commandTypes.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { crossChainTransfer } from "../support/crossChain.ts";
import { devKey, MINER, signedCommand, transferCaps } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";

const HOST = "127.0.0.1:1848";
const ORIGIN = `http://${HOST}`;
const RECEIVER = `k:${devKey(1).publicKey}`;

let dataDir: string;
let node: WeftNode;
let cookies = "";
let c: NodeClient;
let transferKey: string;
let xchainKey: string;
let pendingKey: string;

function injectFetch(): FetchLike {
  return async (url, init) => {
    const u = new URL(url);
    const res = await node.server.inject({
      method: init.method,
      url: `${u.pathname}${u.search}`,
      headers: {
        host: HOST,
        ...(init.headers ?? {}),
        ...(cookies === "" ? {} : { cookie: cookies }),
        ...(init.method === "POST" ? { origin: ORIGIN } : {}),
      },
      ...(init.body === undefined ? {} : { payload: init.body }),
    });
    return {
      ok: res.statusCode >= 200 && res.statusCode < 300,
      status: res.statusCode,
      headers: { get: (name: string) => (res.headers[name.toLowerCase()] as string) ?? null },
      text: () => Promise.resolve(res.body),
    };
  };
}

function value<T>(r: ClientResult<T>): T {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

async function send(chain: number, cmd: Command): Promise<string> {
  const r = await node.server.inject({
    method: "POST",
    url: `${node.basePath}/chain/${chain}/pact/api/v1/send`,
    headers: { host: HOST, "content-type": "application/json" },
    payload: JSON.stringify({ cmds: [cmd] }),
  });
  expect(r.statusCode, r.body).toBe(200);
  return (JSON.parse(r.body) as { requestKeys: string[] }).requestKeys[0] as string;
}

async function mineRound(): Promise<void> {
  for (let chain = 0; chain < 10; chain++) await mineOn(node, chain, MINER);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "weft-explorer-wire-"));
  const rendererDir = join(dataDir, "renderer");
  mkdirSync(join(rendererDir, "assets"), { recursive: true });
  writeFileSync(join(rendererDir, "index.html"), "<!doctype html><title>Weft</title>");
  node = await createNode({
    network: "test-singleton",
    dataDir: join(dataDir, "data"),
    listen: false,
    rendererDir,
    executionWorkers: 0,
    mining: { enabled: false, threads: 1 },
  });
  // Open the app's address as the launcher prints it (a one-time code), and keep the cookie.
  const page = await node.server.inject({
    method: "GET",
    url: `/app/?code=${node.issueAppCode()}`,
    headers: { host: HOST },
  });
  const set = page.headers["set-cookie"];
  cookies = (Array.isArray(set) ? set : set === undefined ? [] : [set])
    .map((x) => x.split(";")[0])
    .join("; ");
  const config = await loadAppConfig(injectFetch(), `${ORIGIN}/app/config.json`);
  c = createNodeClient({ origin: ORIGIN, basePath: value(config).basePath, fetch: injectFetch() });

  await mineRound();
  transferKey = await send(
    2,
    signedCommand({
      code: `(coin.transfer "sender00" "${RECEIVER}" 1.5)`,
      chainId: 2,
      signers: [{ key: 0, caps: transferCaps("sender00", RECEIVER, "1.5") }],
    }),
  );
  xchainKey = await send(
    0,
    crossChainTransfer({
      from: 2,
      receiver: RECEIVER,
      receiverKeys: [devKey(1).publicKey],
      amount: "2.25",
      sourceChain: 0,
      targetChain: 5,
    }),
  );
  await mineRound();
  await mineRound();
  pendingKey = await send(3, signedCommand({ code: "(+ 1 2)", chainId: 3 }));
  for (let i = 0; i < 100; i++) {
    const s = value(await c.get("/app/api/explorer/status", parseIndexStatus));
    if (s.state === "ready") break;
    await new Promise((r) => setTimeout(r, 50));
  }
}, 60_000);

afterAll(async () => {
  await node?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

describe("[renderer] explorer wire contract with the real node", () => {
  it("reads the graph, header pages and a braid of the live heads", async () => {
    const graph = value(await c.get("/info", parseInfoGraph));
    expect([...graph.entries()]).toEqual([...petersenGraph.adjacency.entries()]);
    const cut = value(await c.cut());
    const pages = await Promise.all(
      cut.heads.map((h) =>
        c.get(`/chain/${h.chainId}/header?minheight=0`, parseHeaderPage, {
          accept: HEADER_OBJECT_ACCEPT,
        }),
      ),
    );
    const headers = pages.flatMap((p) => value(p).items);
    expect(
      headers.find((h) => h.chainId === 0 && h.height === 3)?.adjacents.map((a) => a.chainId),
    ).toEqual([2, 3, 5]);
    const layout = braidLayout(graph, cut.heads, headers, 8);
    expect(layout.heights).toEqual([3, 2, 1, 0]);
    expect(layout.cells).toHaveLength(40);
    expect(layout.waiting).toEqual([]);
    expect(layout.links.filter((l) => l.kind === "adjacent")).toHaveLength(10 * 3 * 3);
    const one = value(
      await c.get(`/chain/4/header/${cut.heads[4]?.hash}`, parseHeader, {
        accept: HEADER_OBJECT_ACCEPT,
      }),
    );
    expect(one.height).toBe(3);
  });

  it("reads a block with a transfer: command, capabilities, result, events, miner and reward", async () => {
    const tx = value(await c.get(`/app/api/explorer/tx/${transferKey}`, parseIndexedTransaction));
    const h = tx.block?.height ?? -1;
    const page = value(await c.get(`/chain/2/block?minheight=${h}&maxheight=${h}`, parseBlockPage));
    const block = page.items.find((b) => b.header.hash === tx.block?.hash);
    expect(block?.transactions).toHaveLength(1);
    const t = block?.transactions[0];
    expect(t?.command).toMatchObject({
      requestKey: transferKey,
      sender: "sender00",
      chainId: "2",
      code: `(coin.transfer "sender00" "${RECEIVER}" 1.5)`,
    });
    expect(t?.command.signers[0]?.caps).toEqual([
      `(coin.TRANSFER "sender00" "${RECEIVER}" 1.5)`,
      "(coin.GAS)",
    ]);
    expect(t?.result.ok).toBe(true);
    expect(t?.result.value).toBe('"Write succeeded"');
    expect(t?.result.events.map(eventText)).toContain(
      `coin.TRANSFER("sender00", "${RECEIVER}", 1.5)`,
    );
    expect(block?.miner?.account).toBe(MINER.account);
    expect(
      block?.coinbase === null ? null : rewardOf(block?.coinbase?.events ?? []),
    ).not.toBeNull();
    // Branch pages, newest first, as the chain page reads them.
    const branch = value(
      await c.post("/chain/2/block/branch?limit=2", { upper: [tx.block?.hash] }, parseBlockPage),
    );
    expect(branch.items.map((b) => b.header.height)).toEqual([h, h - 1]);
    expect(branch.next).toMatch(/^inclusive:/);
  });

  it("reads a confirmed transaction, a cross-chain one waiting for step 2, and a pending one", async () => {
    const tx = value(await c.get(`/app/api/explorer/tx/${transferKey}`, parseIndexedTransaction));
    expect(tx).toMatchObject({ status: "confirmed", chain: 2, crossChain: null });
    expect(tx.confirmations).toBeGreaterThanOrEqual(1);
    expect(tx.result?.ok).toBe(true);
    expect(tx.events.map(eventText)).toContain(`coin.TRANSFER("sender00", "${RECEIVER}", 1.5)`);
    expect(tx.command.signers[0]?.caps[0]).toBe(`(coin.TRANSFER "sender00" "${RECEIVER}" 1.5)`);

    const x = value(await c.get(`/app/api/explorer/tx/${xchainKey}`, parseIndexedTransaction));
    expect(x.crossChain).toMatchObject({
      sourceChain: 0,
      targetChain: 5,
      amount: "2.25",
      complete: false,
    });
    expect(x.crossChain?.steps.map((s) => s.status)).toEqual(["confirmed", "missing"]);
    expect(x.crossChain !== null && transferNeedsFinish(x.crossChain)).toBe(true);
    expect(x.result?.continuation).toMatchObject({
      pactId: xchainKey,
      step: 0,
      stepCount: 2,
      targetChainId: "5",
    });

    const p = value(await c.get(`/app/api/explorer/tx/${pendingKey}`, parseIndexedTransaction));
    expect(p).toMatchObject({ status: "pending", block: null, result: null });
    expect(p.command.code).toBe("(+ 1 2)");
    const missing = await c.get(`/app/api/explorer/tx/${"A".repeat(43)}`, parseIndexedTransaction);
    expect(missing).toMatchObject({ ok: false, error: { status: 404 } });
  });

  it("reads search results, an account, its transfers and a module", async () => {
    const byKey = value(await c.get(`/app/api/explorer/search?q=${transferKey}`, parseSearch));
    expect(singleTarget(byKey)).toEqual({
      to: "/explorer/tx/$requestKey",
      params: { requestKey: transferKey },
    });
    const byHeight = value(await c.get("/app/api/explorer/search?q=2", parseSearch));
    expect(byHeight.results.some((r) => r.kind === "height" && r.blocks.length === 10)).toBe(true);
    const byAccount = value(await c.get("/app/api/explorer/search?q=sender00", parseSearch));
    expect(singleTarget(byAccount)).toEqual({
      to: "/explorer/account/$name",
      params: { name: "sender00" },
    });
    const nothing = value(await c.get("/app/api/explorer/search?q=zzzz-nothing", parseSearch));
    expect(nothing).toEqual({ query: "zzzz-nothing", results: [] });

    const account = value(await c.get("/app/api/explorer/account/sender00", parseAccountChains));
    expect(account.chains.map((x) => x.chain)).toContain(2);
    const transfers = value(
      await c.get(
        `/app/api/explorer/account/${encodeURIComponent(RECEIVER)}/transfers?limit=20`,
        parseTransferPage,
      ),
    );
    expect(transfers.items.find((t) => t.requestKey === transferKey)).toMatchObject({
      chain: 2,
      from: "sender00",
      to: RECEIVER,
      amount: "1.5",
      direction: "in",
    });

    const coin = value(await c.get("/app/api/explorer/module/coin", parseModule));
    expect(coin.chains).toHaveLength(10);
    expect(coin.chains[0]?.interfaces).toContain("fungible-v2");
    expect(coin.chains[0]?.code).toContain("(module coin");
  });

  it("reads an account's balance and guard with the /local command, and an absent account", async () => {
    const ask = (account: string, chain: number) =>
      c.post(
        `/chain/${chain}/pact/api/v1/local`,
        {
          ...balanceCommand(account, chain, "test-singleton", Math.floor(Date.now() / 1000)),
          sigs: [],
        },
        parseBalanceResult,
      );
    expect(value(await ask("sender00", 0))).toEqual({
      kind: "account",
      balance: "1000000.0",
      guard: { kind: "keyset", pred: "keys-all", keys: [devKey(0).publicKey] },
    });
    expect(value(await ask("no-such-account", 0))).toEqual({ kind: "none" });
    const paid = value(await ask(RECEIVER, 2));
    expect(paid.kind === "account" && paid.balance).toBe("1000001.5");
  });
});
