/**
 * The app API's endpoint contract (issue 37) against a real node (createNode, not listening;
 * requests through `inject()`): the node serves exactly the routes of the shared table
 * (src-node/appContract/appRoutes.ts) with the table's methods, every route of the table has
 * one entry of the renderer (renderer/src/app/appEndpoints.ts) built from it with a parser, and
 * every entry is called once through the renderer's own client (`callEndpoint`) with valid
 * input (mined blocks and a transfer for the explorer, a backup, a keystore, a dapp's signing
 * request) and its answer parses with the entry's parser; the wallet's and the backup
 * page's calls, made from the entries, read a real node's answers too.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClientResult } from "../../renderer/src/api/clientError.ts";
import { type AnyEndpoint, callEndpoint, NO_CONTENT } from "../../renderer/src/api/endpoint.ts";
import {
  createNodeClient,
  type FetchLike,
  type NodeClient,
} from "../../renderer/src/api/nodeClient.ts";
import { APP_ENDPOINTS, appEndpoints } from "../../renderer/src/app/appEndpoints.ts";
import { backupCalls } from "../../renderer/src/features/backup/api.ts";
import {
  moduleQuery,
  searchQuery,
  transactionQuery,
  transfersQuery,
} from "../../renderer/src/features/explorer/api.ts";
import { walletCalls } from "../../renderer/src/features/wallet/api.ts";
import {
  parseWalletRecords,
  pendingFileOf,
} from "../../renderer/src/features/wallet/crosschain/pendingFile.ts";
import type { AnyAppRoute } from "../../src-node/appContract/appRoute.ts";
import { APP_ROUTES } from "../../src-node/appContract/appRoutes.ts";
import type { Command } from "../../src-node/command/commandTypes.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { newEntityKeys } from "../../src-node/p2p/private/entityKeys.ts";
import { devKey, MINER, signedCommand, transferCaps } from "../support/execChain.ts";
import { testKeystore } from "../support/keystoreFixture.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const HOST = "127.0.0.1:1848";
const ORIGIN = `http://${HOST}`;
const RECEIVER = `k:${devKey(1).publicKey}`;

let t: TestNode;
let client: NodeClient;
const backupFolder = tempDir("weft-contract-backups-");
const restarts: unknown[] = [];
/** The entries called so far. */
const called = new Set<AnyEndpoint>();

/** `fetch` for the renderer's client over `inject()`, as the app's page sends requests. */
const injectFetch: FetchLike = async (url, init) => {
  const u = new URL(url);
  const res = await t.node.server.inject({
    method: init.method,
    url: `${u.pathname}${u.search}`,
    headers: {
      host: HOST,
      "x-weft-app-token": t.node.appToken,
      ...(init.headers ?? {}),
      ...(init.method === "GET" ? {} : { origin: ORIGIN }),
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

/** Calls an entry and keeps that it was; the value of its parsed answer. */
async function call<T>(e: AnyEndpoint, answer: Promise<ClientResult<T>>): Promise<T> {
  called.add(e);
  const r = await answer;
  if (!r.ok) throw new Error(`${e.method} ${e.route}: ${JSON.stringify(r.error)}`);
  return r.value;
}

/** `METHOD /route` of every route of the node, from Fastify's route tree. */
function serverRoutes(): string[] {
  const tree = t.node.server.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of tree.split("\n")) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (m === null) continue;
    const depth = [...(m[1] ?? "")].length / 4;
    stack.length = depth;
    const path = `${stack.join("")}${m[2]}`;
    stack.push(m[2] ?? "");
    for (const method of (m[3] ?? "").split(", ").filter((x) => x !== "" && x !== "HEAD")) {
      out.push(`${method} ${path}`);
    }
  }
  return out;
}

const key = (e: AnyAppRoute) => `${e.method} ${e.route}`;

async function send(chain: number, cmd: Command): Promise<string> {
  const r = await t.request("POST", `${t.base}/chain/${chain}/pact/api/v1/send`, {
    headers: { host: HOST },
    body: { cmds: [cmd] },
  });
  expect(r.statusCode, r.body).toBe(200);
  return (JSON.parse(r.body) as { requestKeys: string[] }).requestKeys[0] as string;
}

async function mineRound(): Promise<void> {
  for (let chain = 0; chain < 10; chain++) await mineOn(t.node, chain, MINER);
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const address = s.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

let transferKey: string;

beforeAll(async () => {
  const dir = tempDir("weft-contract-");
  const rendererDir = join(dir, "renderer");
  mkdirSync(join(rendererDir, "assets"), { recursive: true });
  writeFileSync(join(rendererDir, "index.html"), "<!doctype html><title>Weft</title>");
  t = await openTestNode({
    dir: join(dir, "data"),
    rendererDir,
    mining: { enabled: false, threads: 1 },
    restart: (request) => {
      restarts.push(request);
    },
  });
  client = createNodeClient({ origin: ORIGIN, basePath: t.base, fetch: injectFetch });
  await mineRound();
  transferKey = await send(
    2,
    signedCommand({
      code: `(coin.transfer "sender00" "${RECEIVER}" 1.5)`,
      chainId: 2,
      signers: [{ key: 0, caps: transferCaps("sender00", RECEIVER, "1.5") }],
    }),
  );
  await mineRound();
  await mineRound();
  for (let i = 0; i < 200; i++) {
    const s = await callEndpoint(client, appEndpoints.explorer.status, {});
    if (s.ok && s.value.state === "ready") break;
    await new Promise((r) => setTimeout(r, 50));
  }
}, 60_000);

afterAll(async () => {
  await t?.cleanup();
  rmSync(join(t.dir, ".."), { recursive: true, force: true });
  rmSync(backupFolder, { recursive: true, force: true });
});

describe("[renderer] the app API's endpoint contract with a real node", () => {
  it("the node serves every route of the table with its method, and no other /app/api/* route", () => {
    const server = serverRoutes().filter((r) => r.split(" ")[1]?.startsWith("/app/api/"));
    expect(server.length).toBeGreaterThan(30);
    const table = APP_ROUTES.map(key);
    expect(new Set(table).size, "a route is in the table twice").toBe(table.length);
    expect(server.filter((r) => !table.includes(r))).toEqual([]);
    expect(table.filter((r) => !server.includes(r))).toEqual([]);
  });

  it("every route of the table has one renderer entry, built from it, with a parser", () => {
    const renderer = APP_ENDPOINTS.map(key);
    expect(new Set(renderer).size, "an entry is listed twice").toBe(renderer.length);
    for (const route of APP_ROUTES) {
      const entries = APP_ENDPOINTS.filter((e) => key(e) === key(route));
      expect(entries, key(route)).toHaveLength(1);
      const { reply, ...shared } = entries[0] as AnyEndpoint;
      expect(shared, key(route)).toEqual(route);
      expect(typeof reply === "function" || reply === NO_CONTENT, key(route)).toBe(true);
    }
    expect(APP_ENDPOINTS).toHaveLength(APP_ROUTES.length);
  });

  it("the miner, the Node page, the restart", async () => {
    const e = appEndpoints;
    expect(await call(e.mining, callEndpoint(client, e.mining, {}))).toMatchObject({
      enabled: false,
    });
    const changed = await call(e.setMining, callEndpoint(client, e.setMining, {}, { threads: 2 }));
    expect(changed.threads).toBe(2);
    await call(e.miningHistory, callEndpoint(client, e.miningHistory, {}));
    const status = await call(e.nodeStatus, callEndpoint(client, e.nodeStatus, {}));
    expect(status).toBeDefined();
    const log = await call(
      e.nodeLog,
      callEndpoint(client, e.nodeLog, { level: "info", limit: 50 }),
    );
    expect(Array.isArray(log)).toBe(true);
    const code = await call(e.appCode, callEndpoint(client, e.appCode, {}, {}));
    expect(code.code).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const restart = await call(e.restartStatus, callEndpoint(client, e.restartStatus, {}));
    expect(restart.restartable).toBe(true);
    const accepted = await call(e.restart, callEndpoint(client, e.restart, {}, {}));
    expect(accepted.launchId).toBe(restart.launchId);
  });

  it("peers and private entities", async () => {
    const e = appEndpoints;
    await call(e.peers, callEndpoint(client, e.peers, {}));
    const added = await call(
      e.addPeer,
      callEndpoint(client, e.addPeer, {}, { address: "localhost:1849" }),
    );
    expect(added.address).toBe("localhost:1849");
    expect(
      await call(e.removePeer, callEndpoint(client, e.removePeer, { address: "localhost:1849" })),
    ).toBeNull();
    await call(e.privateEntities, callEndpoint(client, e.privateEntities, {}));
    const pin = { name: "carol", publicKey: base64UrlEncode(newEntityKeys().publicKey) };
    expect(await call(e.checkPin, callEndpoint(client, e.checkPin, {}, pin))).toMatchObject({
      pinned: false,
    });
    expect(await call(e.pin, callEndpoint(client, e.pin, {}, pin))).toMatchObject({
      name: "carol",
    });
    expect(await call(e.unpin, callEndpoint(client, e.unpin, { name: "carol" }))).toBeNull();
  });

  it("the explorer's index", async () => {
    const e = appEndpoints.explorer;
    expect(await call(e.status, callEndpoint(client, e.status, {}))).toMatchObject({
      state: "ready",
    });
    const blocks = await call(e.blocks, callEndpoint(client, e.blocks, { chain: 2, limit: 5 }));
    const newest = blocks.items[0];
    if (newest === undefined) throw new Error("no blocks");
    const block = await call(e.block, callEndpoint(client, e.block, { hash: newest.hash }));
    expect(block.block.hash).toBe(newest.hash);
    const tx = await call(
      e.transaction,
      callEndpoint(client, e.transaction, { requestKey: transferKey }),
    );
    expect(tx.status).toBe("confirmed");
    await call(e.account, callEndpoint(client, e.account, { account: RECEIVER }));
    const transfers = await call(
      e.transfers,
      callEndpoint(client, e.transfers, { account: RECEIVER, limit: 5 }),
    );
    expect(transfers.items.length).toBeGreaterThan(0);
    await call(e.module, callEndpoint(client, e.module, { name: "coin" }));
    await call(e.search, callEndpoint(client, e.search, { q: transferKey }));
  });

  it("the explorer's queries build their requests from the entries", async () => {
    const run = <T>(o: { queryFn?: unknown }): Promise<T> =>
      (o.queryFn as (ctx: never) => Promise<T>)({} as never);
    const page = await run<{ items: unknown[] }>(transfersQuery(client, RECEIVER, null));
    expect(page.items.length).toBeGreaterThan(0);
    expect(await run(transactionQuery(client, transferKey))).toMatchObject({
      status: "confirmed",
    });
    expect(await run(moduleQuery(client, "no-such-module"))).toBeNull();
    expect(await run(searchQuery(client, transferKey))).toBeDefined();
  });

  it("backups: settings, a backup, its job, the list, a check, a restore, a delete", async () => {
    const e = appEndpoints.backup;
    await call(e.settings, callEndpoint(client, e.settings, {}, { directory: backupFolder }));
    const id = await call(e.start, callEndpoint(client, e.start, {}, { includeState: true }));
    await t.node.appBackups.settled();
    expect(await call(e.job, callEndpoint(client, e.job, { id }))).toMatchObject({
      status: "backup-done",
    });
    expect(await call(e.list, callEndpoint(client, e.list, {}))).toHaveLength(1);
    await call(e.check, callEndpoint(client, e.check, {}, { id }));
    await call(e.overview, callEndpoint(client, e.overview, {}));
    await call(e.restore, callEndpoint(client, e.restore, {}, { id }));
    expect(await call(e.remove, callEndpoint(client, e.remove, {}, { id }))).toBe(id);
  });

  it("the wallet's files, the dapp signing setting and a signing request", async () => {
    const e = appEndpoints.wallet;
    expect(await call(e.keystore, callEndpoint(client, e.keystore, {}))).toBeNull();
    const keystore = testKeystore();
    await call(e.saveKeystore, callEndpoint(client, e.saveKeystore, {}, keystore));
    expect(await call(e.keystore, callEndpoint(client, e.keystore, {}))).toEqual(keystore);
    await call(e.replaceKeystore, callEndpoint(client, e.replaceKeystore, {}, testKeystore()));
    await call(e.savePending, callEndpoint(client, e.savePending, {}, pendingFileOf([])));
    expect(await call(e.pending, callEndpoint(client, e.pending, {}))).toMatchObject({
      transfers: [],
    });
    await call(e.dappSigning, callEndpoint(client, e.dappSigning, {}));
    const port = await freePort();
    const on = await call(
      e.setDappSigning,
      callEndpoint(client, e.setDappSigning, {}, { enabled: true, port }),
    );
    expect(on.listening).toBe(true);
    try {
      // A dapp asks; the page sees the request and refuses it.
      const cmd = signedCommand({ code: "(+ 1 2)", chainId: 0 }).cmd;
      const dapp = fetch(`http://127.0.0.1:${port}/v1/quicksign`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          cmdSigDatas: [{ cmd, sigs: [{ pubKey: devKey(0).publicKey, sig: null }] }],
        }),
      });
      let id: string | undefined;
      for (let i = 0; i < 200 && id === undefined; i++) {
        const list = await call(e.signRequests, callEndpoint(client, e.signRequests, {}));
        id = list.requests[0]?.id;
        if (id === undefined) await new Promise((r) => setTimeout(r, 25));
      }
      if (id === undefined) throw new Error("the dapp's request never showed");
      await call(
        e.answerSignRequest,
        callEndpoint(client, e.answerSignRequest, { id }, { answer: "refused" }),
      );
      await (await dapp).text();
    } finally {
      await callEndpoint(client, e.setDappSigning, {}, { enabled: false, port });
    }
  });

  it("the wallet's and the backup page's calls build their requests from the entries", async () => {
    // The calls that read an entry's answer their own way (callEndpointWith) read a real one.
    const due = await walletCalls.backupDue(client);
    expect(due).toMatchObject({ ok: true, value: expect.any(Boolean) });
    expect(await walletCalls.backupState(client)).toMatchObject({
      ok: true,
      value: { runningId: null },
    });
    expect(await walletCalls.explorerTx(client, transferKey, 7)).toMatchObject({
      ok: true,
      value: { requestKey: transferKey, kind: "added", status: "succeeded", chain: 2 },
    });
    const stored = await walletCalls.keystore(client);
    expect(stored.ok && stored.value.keystore).toMatchObject({ version: 1 });
    const pending = await walletCalls.pending(client);
    expect(pending.ok && parseWalletRecords(pending.value)).toMatchObject({ ok: true });
    expect(await backupCalls.overview(client)).toMatchObject({ ok: true });
    expect(await backupCalls.list(client)).toMatchObject({ ok: true, value: [] });
  });

  it("every entry was called", () => {
    expect(APP_ENDPOINTS.filter((e) => !called.has(e)).map(key)).toEqual([]);
  });
});
