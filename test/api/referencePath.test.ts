/**
 * The whole API under the reference's `/chainweb/0.0/{network}` as well as
 * under `/ledger/0.0/{network}` (src-node/api/referencePath.ts): every route
 * the server registers under `{base_url}` (taken from the server itself, so a
 * new route without a probe here fails the test) is asked the same requests
 * under both prefixes, valid and invalid, and answers the same status,
 * headers and body; unknown routes under the alias name the path the client
 * sent; the event streams stream under both.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { get, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance, FastifyServerOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { referenceBasePath, referencePathRewriter } from "../../src-node/api/referencePath.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { MINER, signedCommand } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

/** Every route registered on any server built in this file: method and URL pattern. */
const registered = vi.hoisted(() => [] as { method: string; url: string }[]);

vi.mock("fastify", async (importOriginal) => {
  const actual = await importOriginal<typeof import("fastify")>();
  const build = actual.default as unknown as (o?: FastifyServerOptions) => FastifyInstance;
  const recording = (options?: FastifyServerOptions) => {
    const server = build(options);
    server.addHook("onRoute", (route) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url });
    });
    return server;
  };
  return { ...actual, default: recording };
});

const LEDGER = "/ledger/0.0/test-singleton";
const CHAINWEB = "/chainweb/0.0/test-singleton";

let t: TestNode;
let backupDir: string;
beforeAll(async () => {
  backupDir = mkdtempSync(join(tmpdir(), "weft-alias-backup-"));
  t = await openTestNode({
    commands: { listenTimeout: 0.05 },
    spv: { timeout: 0.05 },
    mining: { apiEnabled: true },
    backup: { apiEnabled: true, directory: backupDir },
  });
  await t.node.server.ready();
});
afterAll(async () => {
  await t?.cleanup();
  rmSync(backupDir, { recursive: true, force: true });
});

type Probe = {
  /** The route it asks: method and URL pattern after `{base_url}`. */
  readonly route: string;
  readonly method: "GET" | "POST" | "PUT";
  /** The path after `{base_url}`, with the query. */
  readonly path: string;
  readonly body?: unknown;
  readonly rawBody?: string;
  /** The answer changes between two calls (new work, a new job): compare all but the body. */
  readonly varies?: boolean;
};

/** One or more requests per route, valid and invalid. */
function probes(): Probe[] {
  const genesis = t.node.blocks.cut().get(0)?.hash ?? "";
  const cmd = signedCommand({ code: "(+ 1 2)", sender: "sender00", signers: [{ key: 0 }] });
  const v1 = "/chain/:chain/pact/api/v1";
  const unknownKey = "A".repeat(43);
  return [
    { route: "GET /health-check", method: "GET", path: "/health-check" },
    { route: "GET /info", method: "GET", path: "/info" },
    { route: "GET /cut", method: "GET", path: "/cut" },
    { route: "GET /cut", method: "GET", path: "/cut?maxheight=x" },
    { route: "GET /chain/:chain/hash", method: "GET", path: "/chain/0/hash" },
    { route: "GET /chain/:chain/hash", method: "GET", path: "/chain/0/hash?limit=x" },
    { route: "GET /chain/:chain/hash", method: "GET", path: "/chain/99/hash" },
    { route: "GET /chain/:chain/hash", method: "GET", path: "/chain/%ZZ/hash" },
    {
      route: "POST /chain/:chain/hash/branch",
      method: "POST",
      path: "/chain/0/hash/branch",
      body: {},
    },
    {
      route: "POST /chain/:chain/hash/branch",
      method: "POST",
      path: "/chain/0/hash/branch",
      body: { upper: "x" },
    },
    { route: "GET /chain/:chain/header", method: "GET", path: "/chain/0/header" },
    {
      route: "GET /chain/:chain/header/:blockHash",
      method: "GET",
      path: `/chain/0/header/${genesis}`,
    },
    {
      route: "GET /chain/:chain/header/:blockHash",
      method: "GET",
      path: "/chain/0/header/nothash",
    },
    {
      route: "POST /chain/:chain/header/branch",
      method: "POST",
      path: "/chain/0/header/branch",
      body: { upper: [genesis] },
    },
    { route: "GET /chain/:chain/block", method: "GET", path: "/chain/0/block" },
    {
      route: "POST /chain/:chain/block/branch",
      method: "POST",
      path: "/chain/0/block/branch",
      body: {},
    },
    { route: `POST ${v1}/local`, method: "POST", path: "/chain/0/pact/api/v1/local", body: cmd },
    {
      route: `POST ${v1}/local`,
      method: "POST",
      path: "/chain/0/pact/api/v1/local?preflight=true&signatureVerification=false",
      body: cmd,
    },
    {
      route: `POST ${v1}/local`,
      method: "POST",
      path: "/chain/0/pact/api/v1/local",
      body: { cmd: "{" },
    },
    {
      route: `POST ${v1}/send`,
      method: "POST",
      path: "/chain/0/pact/api/v1/send",
      body: { cmds: [cmd] },
    },
    {
      route: `POST ${v1}/send`,
      method: "POST",
      path: "/chain/0/pact/api/v1/send",
      body: { cmds: [] },
    },
    {
      route: `POST ${v1}/poll`,
      method: "POST",
      path: "/chain/0/pact/api/v1/poll",
      body: { requestKeys: [cmd.hash] },
    },
    {
      route: `POST ${v1}/poll`,
      method: "POST",
      path: "/chain/0/pact/api/v1/poll",
      body: { requestKeys: ["x"] },
    },
    {
      route: `POST ${v1}/listen`,
      method: "POST",
      path: "/chain/0/pact/api/v1/listen",
      body: { listen: unknownKey },
    },
    { route: `POST ${v1}/listen`, method: "POST", path: "/chain/0/pact/api/v1/listen", body: {} },
    {
      route: `POST ${v1}/private`,
      method: "POST",
      path: "/chain/0/pact/api/v1/private",
      body: cmd,
    },
    {
      route: `POST ${v1}/spv`,
      method: "POST",
      path: "/chain/0/pact/api/v1/spv",
      body: { requestKey: unknownKey, targetChainId: "1" },
    },
    { route: `POST ${v1}/spv`, method: "POST", path: "/chain/0/pact/api/v1/spv", body: {} },
    {
      route: "POST /chain/:chain/pact/spv",
      method: "POST",
      path: "/chain/0/pact/spv",
      body: { requestKey: unknownKey, targetChainId: "1" },
    },
    { route: "POST /chain/:chain/pact/spv", method: "POST", path: "/chain/0/pact/spv", body: {} },
    {
      route: "GET /mining/work",
      method: "GET",
      path: "/mining/work?chain=0",
      body: { account: MINER.account, predicate: MINER.predicate, "public-keys": MINER.publicKeys },
      varies: true,
    },
    { route: "GET /mining/work", method: "GET", path: "/mining/work", rawBody: "{" },
    { route: "POST /mining/solved", method: "POST", path: "/mining/solved", rawBody: "short" },
    { route: "GET /mining/updates", method: "GET", path: "/mining/updates", rawBody: "abc" },
    { route: "POST /make-backup", method: "POST", path: "/make-backup", varies: true },
    { route: "POST /make-backup", method: "POST", path: "/make-backup?backupPact=maybe" },
    { route: "GET /check-backup/*", method: "GET", path: "/check-backup/no-such-job" },
    { route: "GET /check-backup/*", method: "GET", path: "/check-backup/bad%20id" },
    { route: "GET /header/updates", method: "GET", path: "/header/updates", varies: true },
    { route: "GET /cut/peer", method: "GET", path: "/cut/peer" },
    { route: "PUT /cut", method: "PUT", path: "/cut", body: { hashes: "x" } },
    { route: "GET /private/entity", method: "GET", path: "/private/entity" },
    {
      route: "POST /private/envelope",
      method: "POST",
      path: "/private/envelope",
      body: { version: 1 },
    },
    { route: "(none)", method: "GET", path: "/no/such/route" },
    { route: "(none)", method: "POST", path: "/cut" },
  ];
}

function ask(p: Probe, base: string): Promise<LightMyRequestResponse> {
  return t.request(p.method, base + p.path, {
    ...(p.body === undefined ? {} : { body: p.body }),
    ...(p.rawBody === undefined ? {} : { rawBody: p.rawBody }),
  });
}

/**
 * Headers that may differ between two answers to the same request (the
 * length: an error text names the path the client sent; bodies are compared).
 */
const MOMENTARY = new Set(["date", "x-server-timestamp", "content-length"]);

function headersOf(r: LightMyRequestResponse): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r.headers).filter(([name]) => !MOMENTARY.has(name)));
}

describe("[api] the reference's /chainweb/0.0/{network} path", () => {
  it("is the rewrite of /ledger/0.0/{network}, nothing else", () => {
    const rewrite = referencePathRewriter(testSingletonVersion);
    expect(referenceBasePath(testSingletonVersion)).toBe(CHAINWEB);
    expect(rewrite(`${CHAINWEB}/cut?maxheight=3`)).toBe(`${LEDGER}/cut?maxheight=3`);
    expect(rewrite(CHAINWEB)).toBe(LEDGER);
    expect(rewrite(`${CHAINWEB}?x`)).toBe(`${LEDGER}?x`);
    for (const other of [
      `${CHAINWEB}x/cut`,
      "/chainweb/0.0/mainnet01/cut",
      "/chainweb/0.1/test-singleton/cut",
      `/x${CHAINWEB}/cut`,
      `${LEDGER}/cut`,
      "/info",
    ])
      expect(rewrite(other)).toBe(other);
  });

  it("answers every route of {base_url} as /ledger/0.0/ does: status, headers, body", async () => {
    const all = probes();
    // The route table, from the server: every route under {base_url} has a probe.
    const underBase = registered
      .filter((r) => r.url.startsWith(`${LEDGER}/`) && r.method !== "HEAD")
      .map((r) => `${r.method} ${r.url.slice(LEDGER.length)}`);
    expect(underBase.length).toBeGreaterThan(20);
    const probed = new Set(all.map((p) => p.route));
    expect(underBase.filter((r) => !probed.has(r))).toEqual([]);
    expect(registered.some((r) => r.url.startsWith("/chainweb"))).toBe(false);

    for (const p of all) {
      if (p.route === "GET /header/updates") continue; // a stream: below
      const name = `${p.method} ${p.path}`;
      const primary = await ask(p, LEDGER);
      const alias = await ask(p, CHAINWEB);
      expect(primary.statusCode, name).not.toBe(500);
      expect(alias.statusCode, `${name}: ${alias.body}`).toBe(primary.statusCode);
      expect(headersOf(alias), name).toEqual(headersOf(primary));
      expect(alias.headers["x-server-timestamp"], name).toMatch(/^\d+$/);
      if (p.varies !== true) {
        // An error naming the path names the one the client sent.
        expect(alias.body, name).toBe(primary.body.replaceAll(LEDGER, CHAINWEB));
      }
    }
  });

  it("names the path the client sent in a 404 and in a malformed-URL 400", async () => {
    const missing = await t.request("GET", `${CHAINWEB}/no/such/route?x=1`);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain(`no route for GET ${CHAINWEB}/no/such/route`);
    const malformed = await t.request("GET", `${CHAINWEB}/chain/%ZZ/hash`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain(`"${CHAINWEB}/chain/%ZZ/hash"`);
  });

  it("is served for this node's network only; another network's name is an unknown route", async () => {
    for (const url of [
      "/chainweb/0.0/mainnet01/cut",
      `${CHAINWEB}x/cut`,
      "/chainweb/0.1/test-singleton/cut",
    ]) {
      const r = await t.request("GET", url);
      expect(r.statusCode, url).toBe(404);
      expect(r.body, url).toContain(`no route for GET ${url}`);
    }
  });

  it("answers HEAD and CORS preflights as /ledger/0.0/ does", async () => {
    for (const [method, headers] of [
      ["HEAD", {}],
      ["OPTIONS", { origin: "https://dapp.example", "access-control-request-method": "GET" }],
      ["OPTIONS", { origin: "https://dapp.example", "access-control-request-method": "POST" }],
    ] as const) {
      const primary = await t.request(method, `${LEDGER}/cut`, { headers });
      const alias = await t.request(method, `${CHAINWEB}/cut`, { headers });
      expect(alias.statusCode, method).toBe(primary.statusCode);
      expect(headersOf(alias), method).toEqual(headersOf(primary));
    }
  });
});

/** An event stream over a real socket: its response once connected, and its first event. */
function openStream(url: string): { connected: Promise<IncomingMessage>; first: Promise<string> } {
  let connect: (r: IncomingMessage) => void = () => {};
  let fail: (e: Error) => void = () => {};
  const connected = new Promise<IncomingMessage>((resolve, reject) => {
    connect = resolve;
    fail = reject;
  });
  const first = new Promise<string>((resolve, reject) => {
    const req = get(url, (response) => {
      connect(response);
      let buffer = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        const block = buffer
          .split("\n\n")
          .slice(0, -1)
          .find((b) => b.split("\n").some((l) => l.startsWith("event:")));
        if (block === undefined) return;
        req.destroy();
        resolve(block);
      });
    });
    req.on("error", (e) => {
      fail(e);
      reject(e);
    });
  });
  return { connected, first };
}

describe("[api] event streams under /chainweb/0.0/{network}", () => {
  it("stream header updates and mining updates as under /ledger/0.0/", async () => {
    const origin = (await t.node.start()).slice(0, -LEDGER.length);
    for (const base of [LEDGER, CHAINWEB]) {
      const headers = openStream(`${origin}${base}/header/updates`);
      const updates = openStream(`${origin}${base}/mining/updates`);
      for (const [name, s] of [
        ["header updates", headers],
        ["mining updates", updates],
      ] as const) {
        const response = await s.connected;
        expect(response.statusCode, `${base} ${name}`).toBe(200);
        expect(response.headers["content-type"], `${base} ${name}`).toMatch(/^text\/event-stream/);
        expect(response.headers["x-ledger-node-version"], `${base} ${name}`).toBeDefined();
      }
      // Work outstanding on chain 0, so that a new block there makes it stale.
      await t.node.mining.work(MINER, 0);
      await mineOn(t.node, 0);
      expect(await headers.first).toMatch(/^event:BlockHeader$/m);
      expect(await updates.first).toMatch(/^event:/m);
    }
  });
});
