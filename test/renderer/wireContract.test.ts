/**
 * The wire contract between the node and the renderer: the renderer's own client and
 * decoders (renderer/src/api/) run against real replies of a real node (createNode, not
 * listening; requests through Fastify's `inject()`), so a change of shape on either side
 * fails here. Covers /app/config.json, health-check, info, cut, the header-update event
 * data, the app mining route, and `{code, message}` error replies, whose code the client
 * keeps and the Node page's model reads.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEndpoints } from "../../renderer/src/api/appEndpoints.ts";
import { ClientErrorCode } from "../../renderer/src/api/clientError.ts";
import { callEndpoint } from "../../renderer/src/api/endpoint.ts";
import { parseHeaderUpdate } from "../../renderer/src/api/headerUpdate.ts";
import {
  createNodeClient,
  type FetchLike,
  loadAppConfig,
  type NodeClient,
} from "../../renderer/src/api/nodeClient.ts";
import { isForbiddenHere, miningRefusal } from "../../renderer/src/features/node/model.ts";
import { headerEventData } from "../../src-node/api/routes/headerUpdatesRoute.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";

const HOST = "127.0.0.1:1848";
const ORIGIN = `http://${HOST}`;

let dataDir: string;
let node: WeftNode;
/** Cookies the node set for the page's one-time address, sent back as a browser would. */
let cookies = "";

/**
 * `fetch` for the renderer's client over `inject()`, behaving like the browser on the
 * app's own page: same Host, the page's cookies, an Origin header on POST.
 */
function injectFetch(origin = ORIGIN): FetchLike {
  return async (url, init) => {
    const u = new URL(url);
    const res = await node.server.inject({
      method: init.method,
      url: `${u.pathname}${u.search}`,
      headers: {
        host: HOST,
        ...(init.headers ?? {}),
        ...(cookies === "" ? {} : { cookie: cookies }),
        ...(init.method === "POST" ? { origin } : {}),
      },
      ...(init.body === undefined ? {} : { payload: init.body }),
    });
    return {
      ok: res.statusCode >= 200 && res.statusCode < 300,
      status: res.statusCode,
      headers: {
        get: (name: string) => {
          const v = res.headers[name.toLowerCase()];
          return v === undefined ? null : Array.isArray(v) ? v.join(", ") : String(v);
        },
      },
      text: () => Promise.resolve(res.body),
    };
  };
}

async function client(origin = ORIGIN): Promise<NodeClient> {
  const config = await loadAppConfig(injectFetch(origin), `${ORIGIN}/app/config.json`);
  if (!config.ok) throw new Error(JSON.stringify(config.error));
  return createNodeClient({
    origin: ORIGIN,
    basePath: config.value.basePath,
    fetch: injectFetch(origin),
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "weft-wire-"));
  const rendererDir = join(dataDir, "renderer");
  mkdirSync(join(rendererDir, "assets"), { recursive: true });
  writeFileSync(join(rendererDir, "index.html"), "<!doctype html><title>Weft</title>");
  node = await createNode({
    network: "test-singleton",
    dataDir: join(dataDir, "data"),
    listen: false,
    rendererDir,
    // No reward account: turning mining on must be refused.
    mining: { enabled: false, threads: 1 },
  });
  // Open the app's address as the launcher prints it (a one-time code), and keep the cookie.
  const page = await node.server.inject({
    method: "GET",
    url: `/app/?code=${node.issueAppCode()}`,
    headers: { host: HOST },
  });
  expect(page.statusCode).toBe(303);
  const set = page.headers["set-cookie"];
  cookies = (Array.isArray(set) ? set : set === undefined ? [] : [set])
    .map((c) => c.split(";")[0])
    .join("; ");
});

afterAll(async () => {
  await node?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

describe("[renderer] wire contract with the real node", () => {
  it("decodes the app config, health, info and cut", async () => {
    const c = await client();
    expect(c.baseUrl).toBe(`${ORIGIN}/ledger/0.0/test-singleton`);
    const health = await c.healthCheck();
    expect(health).toMatchObject({ ok: true });
    const info = await c.info();
    if (!info.ok) throw new Error(JSON.stringify(info.error));
    expect(info.value.nodeNumberOfChains).toBe(10);
    expect(info.value.nodeChains).toHaveLength(10);
    const cut = await c.cut();
    if (!cut.ok) throw new Error(JSON.stringify(cut.error));
    expect(cut.value.heads.map((h) => h.chainId)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(cut.value.instance).toBe("test-singleton");
    expect(cut.value.heads.map((h) => h.hash)).toEqual(
      [...Array(10).keys()].map((i) => node.blocks.cut().get(i)?.hash ?? ""),
    );
  });

  it("decodes the header stream's event data", () => {
    const head = node.blocks.cut().get(3);
    if (head === undefined) throw new Error("no head on chain 3");
    const header = node.blocks.header(head.hash);
    if (header === undefined) throw new Error("no header");
    const parsed = parseHeaderUpdate(headerEventData(node.blocks, header));
    expect(parsed).toEqual({
      ok: true,
      value: {
        chainId: 3,
        height: header.height,
        hash: head.hash,
        creationTime: Number(header.creationTime),
        txCount: expect.any(Number),
      },
    });
  });

  it("decodes the miner's state and keeps the node's code of a refusal", async () => {
    const c = await client();
    const status = await callEndpoint(c, sharedEndpoints.mining, {});
    expect(status).toEqual({
      ok: true,
      value: {
        enabled: false,
        threads: 1,
        account: null,
        hashRate: 0,
        blocksFound: 0,
        onDemand: false,
        onDemandAvailable: true,
        active: false,
        lastBlockAt: null,
        held: false,
        // No reward account: a development network's blocks pay the test account.
        payee: "sender09",
        demand: [],
      },
    });
    const refused = await callEndpoint(
      c,
      sharedEndpoints.setMining,
      {},
      {
        account: `k:${"ab".repeat(32)}`,
        publicKeys: ["cd".repeat(32)],
      },
    );
    if (refused.ok) throw new Error("a k: account with another key was taken");
    expect(refused.error).toMatchObject({
      code: ClientErrorCode.HttpStatus,
      status: 400,
      nodeCode: "MINING_BAD_MINER_INFO",
    });
    const view = miningRefusal(refused.error);
    expect(view.kind).toBe("bad-account");
    expect(view.error.details).toContain("MINING_BAD_MINER_INFO");
    // A change that succeeds answers the new state in the same shape.
    const threads = await callEndpoint(c, sharedEndpoints.setMining, {}, { threads: 2 });
    expect(threads).toMatchObject({ ok: true, value: { enabled: false, threads: 2 } });
  });

  it("keeps the code of a refusal from another origin and of a bad body", async () => {
    const foreign = await callEndpoint(
      await client("http://evil.example"),
      sharedEndpoints.setMining,
      {},
      {
        enabled: true,
      },
    );
    if (foreign.ok) throw new Error("a foreign origin changed the miner");
    expect(foreign.error).toMatchObject({ code: ClientErrorCode.HttpStatus, status: 403 });
    expect(isForbiddenHere(foreign.error)).toBe(true);
    const bad = await callEndpoint(await client(), sharedEndpoints.setMining, {}, {
      threads: "two",
    } as unknown as { threads: number });
    if (bad.ok) throw new Error("a bad body was accepted");
    expect(bad.error).toMatchObject({ code: ClientErrorCode.HttpStatus, status: 400 });
    if (bad.error.code !== ClientErrorCode.HttpStatus) throw new Error("unreachable");
    expect(bad.error.nodeCode).toMatch(/^(MINING|APP)_[A-Z_]+$/);
    expect(bad.error.message).toMatch(/threads/);
  });
});
