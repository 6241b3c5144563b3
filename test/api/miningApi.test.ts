/**
 * The mining API over HTTP: disabled by default (404), then every endpoint
 * and each of its errors — work with a JSON GET body and the braiding rule,
 * solved work (204, fork blocks, every refusal with its status and text),
 * update streams (events per chain and for all, the exact wire form, the
 * stream limit, the server-side end) — and the app-private miner control.
 */
import { request as httpRequest } from "node:http";
import type { LightMyRequestResponse } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { meetsTarget, powHashOfWorkHeader } from "../../src-node/chain/pow.ts";
import { workHeaderOf } from "../../src-node/chain/workBytes.ts";
import { compareHash32 } from "../../src-node/encoding/hash32.ts";
import { openEventStream } from "../../src-node/mining/miningHttp.ts";
import { signedCommand } from "../support/execChain.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const KEY = "ab".repeat(32);
const MINER = { account: `k:${KEY}`, predicate: "keys-all", "public-keys": [KEY] };

const nodes: TestNode[] = [];
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.cleanup();
});

async function miningNode(
  mining: Record<string, unknown> = {},
  network = "test-singleton",
): Promise<TestNode> {
  const t = await openTestNode({ network, mining: { apiEnabled: true, ...mining } });
  nodes.push(t);
  return t;
}

function getWork(
  t: TestNode,
  body: string | Buffer = JSON.stringify(MINER),
  query = "",
): Promise<LightMyRequestResponse> {
  return t.node.server.inject({
    method: "GET",
    url: `${t.base}/mining/work${query}`,
    headers: { "content-type": "application/json" },
    payload: body,
  });
}

function postSolved(t: TestNode, bytes: Uint8Array, contentType = "application/octet-stream") {
  return t.node.server.inject({
    method: "POST",
    url: `${t.base}/mining/solved`,
    headers: contentType === "" ? {} : { "content-type": contentType },
    payload: Buffer.from(bytes),
  });
}

/** Work (322 bytes) for chain `chain`. */
async function workBytes(t: TestNode, chain?: number): Promise<Buffer> {
  const r = await getWork(t, JSON.stringify(MINER), chain === undefined ? "" : `?chain=${chain}`);
  expect(r.statusCode).toBe(200);
  return r.rawPayload;
}

/** The 286 header bytes of `work` with the creation time shifted by `dt` µs. */
function solvedOf(work: Buffer, dt = 0): Uint8Array {
  const h = workHeaderOf(new Uint8Array(work));
  const v = new DataView(h.buffer, h.byteOffset);
  v.setBigInt64(8, v.getBigInt64(8, true) + BigInt(dt), true);
  return h;
}

async function mineOn(t: TestNode, chain: number): Promise<void> {
  const r = await postSolved(t, solvedOf(await workBytes(t, chain)), "application/octet-stream");
  expect(r.statusCode).toBe(204);
}

function expectText(r: LightMyRequestResponse, status: number, text: RegExp | string): void {
  expect(r.statusCode, r.body).toBe(status);
  expect(r.headers["content-type"]).toBe("text/plain; charset=utf-8");
  expect(r.body).toMatch(typeof text === "string" ? new RegExp(escapeRegExp(text)) : text);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("[api] mining API disabled (the default)", () => {
  it("answers 404 on every mining route", async () => {
    const t = await openTestNode();
    nodes.push(t);
    expect((await getWork(t)).statusCode).toBe(404);
    expect((await postSolved(t, new Uint8Array(286))).statusCode).toBe(404);
    const u = await t.node.server.inject({ method: "GET", url: `${t.base}/mining/updates` });
    expect(u.statusCode).toBe(404);
  });
});

describe("[api] GET /mining/work", () => {
  it("answers 322 octet-stream bytes for the miner, on the suggested chain", async () => {
    const t = await miningNode();
    const before = Date.now() * 1000;
    const r = await getWork(t, JSON.stringify(MINER), "?chain=5");
    const after = Date.now() * 1000;
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toBe("application/octet-stream");
    expect(r.headers["x-ledger-node-version"]).toBeDefined();
    expect(r.rawPayload.length).toBe(4 + 32 + 286);
    expect(r.rawPayload.readUInt32LE(0)).toBe(5);
    // The header's own chain id (bytes 222..226 of the header) is the chain bytes'.
    expect(r.rawPayload.readUInt32LE(36 + 222)).toBe(5);
    // Target bytes are the header's target (bytes 158..190 of the header).
    expect(r.rawPayload.subarray(4, 36)).toEqual(r.rawPayload.subarray(36 + 158, 36 + 190));
    // Spec "Work bytes": bytes 44 to 52 hold the creation time (µs, the node's
    // clock, after the parent's), the last 8 bytes the nonce (0 as handed out).
    const creationTime = Number(r.rawPayload.readBigInt64LE(44));
    expect(creationTime).toBeGreaterThanOrEqual(before);
    expect(creationTime).toBeLessThanOrEqual(after);
    expect(creationTime).toBeGreaterThan(t.node.blocks.cut().get(5)!.creationTime);
    expect(r.rawPayload.readBigUInt64LE(322 - 8)).toBe(0n);
    // Without a suggestion, some chain that can be extended.
    const any = await getWork(t);
    expect(any.statusCode).toBe(200);
    expect(t.node.version.chainIds).toContain(any.rawPayload.readUInt32LE(0));
  });

  it("only gives chains whose neighbours have caught up", async () => {
    const t = await miningNode();
    await mineOn(t, 0);
    for (let i = 0; i < 10; i++) {
      const w = await workBytes(t, 0);
      expect(w.readUInt32LE(0)).not.toBe(0);
    }
  });

  it("names the bad field of the miner information", async () => {
    const t = await miningNode();
    const cases: [string | Buffer, string][] = [
      ["", "body: not JSON"],
      ["{", "body: not JSON"],
      ["[1]", "body: expected a JSON object"],
      [JSON.stringify({ predicate: "keys-all", "public-keys": [KEY] }), "account"],
      [JSON.stringify({ ...MINER, account: "" }), "account: expected a non-empty string"],
      [JSON.stringify({ ...MINER, predicate: "keys-3" }), "predicate: expected one of"],
      [JSON.stringify({ ...MINER, "public-keys": [] }), "public-keys: expected a non-empty"],
      [JSON.stringify({ ...MINER, "public-keys": ["xyz"] }), "public-keys[0]: expected 64 hex"],
      [JSON.stringify({ ...MINER, publicKeys: [KEY] }), "publicKeys: unknown key"],
      [Buffer.from([0x7b, 0xff, 0x7d]), "body: not UTF-8"],
      [" ".repeat(70_000), "body: 70000 bytes or more"],
    ];
    for (const [body, text] of cases) expectText(await getWork(t, body), 400, text);
  });

  it("gives no work for a miner whose coinbase the coin contract refuses (400 naming it)", async () => {
    const t = await miningNode();
    // sender00 exists with its own keyset: a coinbase to it under another key is refused.
    const thief = JSON.stringify({
      account: "sender00",
      predicate: "keys-all",
      "public-keys": [KEY],
    });
    const r = await getWork(t, thief);
    expectText(r, 400, 'no work for miner "sender00": the coin contract refuses its coinbase');
    // The node still gives work to a miner it can pay.
    expect((await getWork(t)).statusCode).toBe(200);
  });

  it("refuses a chain suggestion that is malformed or no chain of the network", async () => {
    const t = await miningNode();
    expectText(await getWork(t, JSON.stringify(MINER), "?chain=x"), 400, "chain: expected");
    expectText(await getWork(t, JSON.stringify(MINER), "?chain=01"), 400, "chain: expected");
    expectText(await getWork(t, JSON.stringify(MINER), "?chain=10"), 400, "10 is not a chain of");
  });
});

describe("[api] POST /mining/solved", () => {
  it("answers 204 and adds the block; the same solution again is 404", async () => {
    const t = await miningNode();
    const work = await workBytes(t, 2);
    const solved = solvedOf(work);
    expect((await postSolved(t, solved, "application/octet-stream")).statusCode).toBe(204);
    const head = t.node.blocks.cut().get(2);
    expect(head?.height).toBe(1);
    expect(head?.payloadHash).toBeDefined();
    expectText(
      await postSolved(t, solved, "application/octet-stream"),
      404,
      "no associated payload",
    );
    // Only application/octet-stream: a web page cannot post one without a preflight.
    expect((await postSolved(t, solvedOf(await workBytes(t, 1)), "")).statusCode).toBe(415);
    expect((await postSolved(t, solvedOf(await workBytes(t, 4)), "text/plain")).statusCode).toBe(
      415,
    );
  });

  it("refuses wrong lengths, changed bytes and bad creation times with clear texts", async () => {
    const t = await miningNode();
    const work = await workBytes(t, 3);
    const solved = solvedOf(work);
    expectText(await postSolved(t, solved.subarray(0, 285)), 400, "expected 286 bytes, got 285");
    expectText(await postSolved(t, new Uint8Array(work)), 400, "expected 286 bytes, got 322");
    expectText(await postSolved(t, new Uint8Array(0)), 400, "expected 286 bytes, got 0");
    const big = await postSolved(t, new Uint8Array(5000));
    expect(big.statusCode).toBe(413);
    const parentChanged = solved.slice();
    parentChanged[20] = (parentChanged[20] as number) ^ 1;
    expectText(await postSolved(t, parentChanged), 400, "byte 20 (parent) differs from the work");
    const payloadChanged = solved.slice();
    payloadChanged[200] = (payloadChanged[200] as number) ^ 1;
    expectText(await postSolved(t, payloadChanged), 404, "no associated payload");
    expectText(await postSolved(t, solvedOf(work, 60_000_000)), 400, "is in the future");
    const genesisTime = t.node.version.genesisTime;
    const stale = solvedOf(work, genesisTime - Number(work.readBigInt64LE(36 + 8)));
    expectText(await postSolved(t, stale), 400, "is not after the parent's");
    // The creation time's highest bit is 0 (spec "Work bytes"): a negative time is refused.
    const negative = solved.slice();
    new DataView(negative.buffer).setBigInt64(8, -1n, true);
    expectText(await postSolved(t, negative), 400, "creationTime: -1 µs is outside");
    // The nonce may change freely (test-singleton: every nonce is valid).
    const nonce = solved.slice();
    nonce[285] = 7;
    expect((await postSolved(t, nonce)).statusCode).toBe(204);
  });

  it("refuses a proof of work above the target (development)", async () => {
    const t = await miningNode({}, "development");
    const work = await workBytes(t, 9);
    const header = solvedOf(work);
    const v = new DataView(header.buffer, header.byteOffset);
    let n = 0n;
    do v.setBigUint64(278, ++n, true);
    while (meetsTarget(powHashOfWorkHeader(header), t.node.blocks.cut().get(9)?.target ?? 0n));
    expectText(await postSolved(t, header), 400, "proof-of-work hash is above the target");
  });

  it("stores a valid solution whose parent is no longer the head as a fork block (204)", async () => {
    const t = await miningNode();
    const a = await workBytes(t, 6);
    const b = await getWork(
      t,
      JSON.stringify({
        ...MINER,
        account: `k:${"cd".repeat(32)}`,
        "public-keys": ["cd".repeat(32)],
      }),
      "?chain=6",
    );
    expect((await postSolved(t, solvedOf(b.rawPayload))).statusCode).toBe(204);
    const head = t.node.blocks.cut().get(6);
    expect((await postSolved(t, solvedOf(a))).statusCode).toBe(204);
    expect(t.node.blocks.store.headerCount()).toBe(t.node.version.chainIds.length + 2);
    // Stored, and of equal weight: the head stays unless the fork choice's tie-breaker (the
    // later hash, chain/cutOrder.ts) prefers the new block. Which one wins depends on the
    // blocks' bytes, so either is right, but only by that rule.
    const after = t.node.blocks.cut().get(6);
    expect(after?.height).toBe(head?.height);
    if (after !== undefined && head !== undefined && after.hash !== head.hash)
      expect(compareHash32(after.hash, head.hash)).toBeGreaterThan(0);
  });
});

/** A raw update stream: the text received so far. */
function rawStream(url: string, body?: Buffer) {
  let text = "";
  let status = 0;
  const req = httpRequest(url, {
    method: "GET",
    headers: body === undefined ? {} : { "content-length": body.length },
  });
  const opened = new Promise<void>((resolve) => {
    req.on("response", (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        text += c;
      });
      resolve();
    });
  });
  req.on("error", () => undefined);
  req.end(body);
  return {
    opened,
    get text() {
      return text;
    },
    get status() {
      return status;
    },
    close: () => req.destroy(),
  };
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

function chainBytes(c: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(c);
  return b;
}

describe("[api] GET /mining/updates", () => {
  it("sends `event:New Cut` when the watched chain's work goes out of date", async () => {
    const t = await miningNode();
    const base = await t.node.start();
    const s4 = rawStream(`${base}/mining/updates`, chainBytes(4));
    const all = rawStream(`${base}/mining/updates`);
    await Promise.all([s4.opened, all.opened]);
    expect(s4.status).toBe(200);
    // Chain 3 is not adjacent to 4 (Petersen: 4 — 1, 2, 9): no event on chain 4's stream.
    await mineOn(t, 3);
    await until(() => all.text.includes("event:New Cut"));
    await mineOn(t, 4);
    await until(() => s4.text.includes("event:New Cut"));
    expect(s4.text.match(/event:New Cut\n\n/g)?.length).toBe(1);
    expect(s4.text).not.toContain("data:");
    await until(() => (all.text.match(/event:New Cut/g)?.length ?? 0) === 2);
    s4.close();
    all.close();
  });

  it("sends `event:Refreshed Block` when commands reach the watched chain's mempool", async () => {
    const t = await miningNode();
    const base = await t.node.start();
    const s0 = rawStream(`${base}/mining/updates`, chainBytes(0));
    const s4 = rawStream(`${base}/mining/updates`, chainBytes(4));
    await Promise.all([s0.opened, s4.opened]);
    const send = (code: string) =>
      t.node.server.inject({
        method: "POST",
        url: `${t.base}/chain/0/pact/api/v1/send`,
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({ cmds: [signedCommand({ code, chainId: 0 })] }),
      });
    // Two sends in a row: one refresh.
    expect((await send("(+ 1 2)")).statusCode).toBe(200);
    expect((await send("(+ 2 3)")).statusCode).toBe(200);
    await until(() => s0.text.includes("event:Refreshed Block"));
    await new Promise((r) => setTimeout(r, 400));
    expect(s0.text.match(/event:Refreshed Block\n\n/g)?.length).toBe(1);
    expect(s4.text).not.toContain("event:");
    s0.close();
    s4.close();
  });

  it("sends an event when a neighbour the chain waited for catches up", async () => {
    const t = await miningNode();
    const base = await t.node.start();
    await mineOn(t, 0); // chain 0 now waits for 2, 3 and 5
    const events: string[] = [];
    const s = openEventStream(`${base}/mining/updates`, chainBytes(0), {
      onEvent: (n) => events.push(n),
      onClose: () => undefined,
    });
    await new Promise((r) => setTimeout(r, 50));
    await mineOn(t, 2);
    await mineOn(t, 3);
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual([]);
    await mineOn(t, 5);
    await until(() => events.length === 1);
    expect(events).toEqual(["New Cut"]);
    s.close();
  });

  it("refuses bad chain bytes", async () => {
    const t = await miningNode();
    const inject = (payload: Buffer) =>
      t.node.server.inject({ method: "GET", url: `${t.base}/mining/updates`, payload });
    expectText(await inject(Buffer.from([1, 0, 0])), 400, "chain bytes: expected 4 bytes, got 3");
    expectText(await inject(Buffer.alloc(100)), 400, "chain bytes: expected 4 bytes");
    expectText(
      await inject(chainBytes(10)),
      400,
      "chain bytes: 10 is not a chain of test-singleton",
    );
  });

  it("caps concurrent streams (503) and ends streams after the configured time", async () => {
    const t = await miningNode({ updateStreamLimit: 1, updateStreamTimeout: 1 });
    const base = await t.node.start();
    let closedAt = 0;
    const opened = Date.now();
    const first = openEventStream(`${base}/mining/updates`, undefined, {
      onEvent: () => undefined,
      onClose: (e) => {
        expect(e).toBeUndefined();
        closedAt = Date.now();
      },
    });
    await new Promise((r) => setTimeout(r, 100));
    const second = rawStream(`${base}/mining/updates`);
    await second.opened;
    await until(() => second.text.length > 0);
    expect(second.status).toBe(503);
    expect(second.text).toBe("No more update streams available currently. Retry later.\n");
    await until(() => closedAt > 0, 3000);
    expect(closedAt - opened).toBeGreaterThanOrEqual(850);
    expect(closedAt - opened).toBeLessThan(2000);
    first.close();
  });
});

function app(
  t: TestNode,
  method: "GET" | "POST",
  body?: unknown,
  headers: Record<string, string> = {},
  remoteAddress?: string,
) {
  return t.node.server.inject({
    method,
    url: "/app/api/mining",
    headers: {
      host: "127.0.0.1:1848",
      "x-weft-app-token": t.node.appToken,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined
      ? {}
      : { payload: typeof body === "string" ? body : JSON.stringify(body) }),
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
}

function appError(r: LightMyRequestResponse, status: number, code: string): void {
  expect(r.statusCode, r.body).toBe(status);
  expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(JSON.parse(r.body)).toMatchObject({ code, message: expect.any(String) });
}

describe("[api] /app/api/mining (built-in miner control, loopback only)", () => {
  it("shows and changes the miner; no CORS headers", async () => {
    const t = await openTestNode();
    nodes.push(t);
    const g = await app(t, "GET");
    expect(g.statusCode).toBe(200);
    expect(g.headers["access-control-allow-origin"]).toBeUndefined();
    expect(JSON.parse(g.body)).toEqual({
      enabled: false,
      threads: 1,
      account: null,
      hashRate: 0,
      blocksFound: 0,
      active: false,
      lastBlockAt: null,
      onDemand: false,
      onDemandAvailable: true,
      held: false,
      payee: "sender09",
      demand: [],
    });
    const set = await app(t, "POST", { threads: 2, account: `k:${KEY}` });
    expect(JSON.parse(set.body)).toMatchObject({ threads: 2, account: `k:${KEY}`, enabled: false });
    const on = await app(t, "POST", { enabled: true, threads: 1 });
    expect(JSON.parse(on.body)).toMatchObject({ enabled: true, threads: 1 });
    await until(() => t.node.miner.status().blocksFound > 0, 20_000);
    const off = await app(t, "POST", { enabled: false });
    expect(JSON.parse(off.body)).toMatchObject({ enabled: false, hashRate: 0 });
    expect(JSON.parse(off.body).blocksFound).toBeGreaterThan(0);
    const other = await app(t, "POST", {
      account: "alice",
      publicKeys: [KEY],
      predicate: "keys-any",
    });
    expect(JSON.parse(other.body).account).toBe("alice");
    expect(t.node.miner.minerInfo).toEqual({
      account: "alice",
      predicate: "keys-any",
      publicKeys: [KEY],
    });
  }, 30_000);

  it("refuses bad bodies", async () => {
    const t = await openTestNode();
    nodes.push(t);
    appError(await app(t, "POST", { bogus: 1 }), 400, "APP_BAD_REQUEST");
    appError(await app(t, "POST", { enabled: "yes" }), 400, "APP_BAD_REQUEST");
    appError(await app(t, "POST", { threads: "2" }), 400, "APP_BAD_REQUEST");
    appError(await app(t, "POST", { threads: 0 }), 400, "MINING_BAD_ARGUMENT");
    appError(await app(t, "POST", { threads: 1025 }), 400, "MINING_BAD_ARGUMENT");
    appError(await app(t, "POST", { account: "alice" }), 400, "MINING_BAD_MINER_INFO");
    appError(await app(t, "POST", { publicKeys: [KEY] }), 400, "APP_BAD_REQUEST");
    appError(await app(t, "POST", "[1"), 400, "APP_BAD_REQUEST");
    appError(await app(t, "POST", "[]"), 400, "APP_BAD_REQUEST");
    appError(
      await app(t, "POST", "enabled=true", { "content-type": "text/plain" }),
      415,
      "APP_NOT_JSON",
    );
    const noType = await t.node.server.inject({
      method: "POST",
      url: "/app/api/mining",
      headers: { host: "localhost:1848", "x-weft-app-token": t.node.appToken },
      payload: "{}",
    });
    appError(noType, 415, "APP_NOT_JSON");
  });

  it("answers 403 to other computers, foreign Host and foreign Origin", async () => {
    const t = await openTestNode();
    nodes.push(t);
    appError(await app(t, "GET", undefined, {}, "192.168.1.5"), 403, "APP_FORBIDDEN");
    appError(await app(t, "POST", { enabled: false }, {}, "10.0.0.1"), 403, "APP_FORBIDDEN");
    appError(await app(t, "GET", undefined, { host: "evil.example:1848" }), 403, "APP_FORBIDDEN");
    appError(
      await app(t, "POST", { enabled: false }, { origin: "http://evil.example" }),
      403,
      "APP_FORBIDDEN",
    );
    expect((await app(t, "GET", undefined, { origin: "http://127.0.0.1:1848" })).statusCode).toBe(
      200,
    );
    expect((await app(t, "GET", undefined, { host: "localhost:1848" })).statusCode).toBe(200);
    expect((await app(t, "GET", undefined, { host: "[::1]:1848" }, "::1")).statusCode).toBe(200);
    expect((await app(t, "GET", undefined, {}, "::ffff:127.0.0.1")).statusCode).toBe(200);
  });

  it("checks the Host port against the port the request came in on", async () => {
    const t = await openTestNode({ port: 0 });
    nodes.push(t);
    await t.node.start();
    const port = Number(new URL(t.node.origin).port);
    const get = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port,
            path: "/app/api/mining",
            headers: { host, "x-weft-app-token": t.node.appToken },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end();
      });
    expect(await get(`127.0.0.1:${port}`)).toBe(200);
    expect(await get(`localhost:${port}`)).toBe(200);
    expect(await get(`127.0.0.1:${port + 1}`)).toBe(403);
  });
});
