/**
 * Every route answers each request exactly once on a real socket. An async
 * route handler that sends without returning the reply resolves while the
 * async onSend hooks still run, and Fastify then sends a second time: the
 * client gets its answer, but the node logs ERR_HTTP_HEADERS_SENT as a
 * failed request (inject() does not show it). Here the node's logger must
 * stay silent through a request to each route.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workHeaderOf } from "../../src-node/chain/workBytes.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const KEY = "ab".repeat(32);
const MINER = JSON.stringify({ account: `k:${KEY}`, predicate: "keys-all", "public-keys": [KEY] });

let t: TestNode;
let ui: string;
let port: number;
const logged: string[] = [];

beforeAll(async () => {
  ui = tempDir("weft-ui-");
  mkdirSync(join(ui, "assets"));
  writeFileSync(join(ui, "index.html"), "<!doctype html><title>x</title>\n");
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    logged.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  t = await openTestNode({
    rendererDir: ui,
    port: 0,
    mining: { apiEnabled: true },
    logger: { info: () => {}, warn: log("warn"), error: log("error") },
  });
  await t.node.start();
  port = Number(new URL(t.node.origin).port);
});
afterAll(async () => {
  await t?.cleanup();
  rmSync(ui, { recursive: true, force: true });
});

function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((done, fail) => {
    const length = body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) };
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: { host: `127.0.0.1:${port}`, ...length, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      },
    );
    req.on("error", fail);
    req.end(body);
  });
}

describe("[api] one answer per request", () => {
  it("no route logs a failure on a real socket (ledger, mining API, app)", async () => {
    const b = t.base;
    const json = { "content-type": "application/json" };
    const statuses: Record<string, number> = {};
    const check = async (name: string, p: Promise<{ status: number; body: Buffer }>) => {
      const r = await p;
      statuses[name] = r.status;
      return r;
    };
    await check("health", send("GET", "/health-check"));
    await check("info", send("GET", `${b}/info`));
    await check("cut", send("GET", `${b}/cut`));
    await check("hashes", send("GET", `${b}/chain/0/hash`));
    await check("headers", send("GET", `${b}/chain/0/header`));
    await check("blocks", send("GET", `${b}/chain/0/block`));
    await check("branch", send("POST", `${b}/chain/0/hash/branch`, json, "{}"));
    await check("unknown", send("GET", "/nowhere"));
    await check("bad limit", send("GET", `${b}/chain/0/hash?limit=x`));
    const work = await check("work", send("GET", `${b}/mining/work?chain=0`, json, MINER));
    await check(
      "solved",
      send(
        "POST",
        `${b}/mining/solved`,
        { "content-type": "application/octet-stream" },
        Buffer.from(workHeaderOf(new Uint8Array(work.body))),
      ),
    );
    await check("bad work", send("GET", `${b}/mining/work?chain=99`, json, MINER));
    await check("app", send("GET", "/app"));
    await check("app index", send("GET", "/app/"));
    await check("app code", send("GET", `/app/?code=${t.node.issueAppCode()}`));
    await check("app config", send("GET", "/app/config.json"));
    const token = { "x-weft-app-token": t.node.appToken };
    await check("app mining", send("GET", "/app/api/mining", token));
    await check(
      "app mining post",
      send("POST", "/app/api/mining", { ...json, ...token }, '{"threads":1}'),
    );
    expect(statuses).toEqual({
      health: 200,
      info: 200,
      cut: 200,
      hashes: 200,
      headers: 200,
      blocks: 200,
      branch: 200,
      unknown: 404,
      "bad limit": 400,
      work: 200,
      solved: 204,
      "bad work": 400,
      app: 301,
      "app index": 200,
      "app code": 303,
      "app config": 200,
      "app mining": 200,
      "app mining post": 200,
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(logged).toEqual([]);
  });
});
