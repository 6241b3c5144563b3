/**
 * The renderer's node client against a real HTTP server on 127.0.0.1 (Node's fetch stands
 * in for the browser's): the routes it calls, and clear error values for an unreachable
 * node, a timeout, an error status and a reply that does not parse.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEndpoints } from "../../renderer/src/api/appEndpoints.ts";
import { ClientErrorCode } from "../../renderer/src/api/clientError.ts";
import { callEndpoint } from "../../renderer/src/api/endpoint.ts";
import { clientErrorWords } from "../../renderer/src/api/errorWords.ts";
import {
  createNodeClient,
  errorBodyOf,
  type FetchLike,
  loadAppConfig,
} from "../../renderer/src/api/nodeClient.ts";

const H0 = "CNHrpXbArOLo_cgVHt2uxR9MfNtp_1XFmeQEwM9T-_k";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
const requests: { method: string; url: string; body: string; contentType: string | undefined }[] =
  [];
let server: Server;
let origin: string;

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        body,
        contentType: req.headers["content-type"],
      });
      const h = routes.get(`${req.method} ${req.url}`);
      if (h === undefined) json(res, 404, { reason: "not found" });
      else h(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const nodeFetch: FetchLike = (url, init) => fetch(url, init);
// The path of the config's baseUrl: the node may report another host name there, and the
// client stays on the page's origin.
const BASE_PATH = "/ledger/0.0/development";

describe("[renderer] node client", () => {
  it("loads the app config", async () => {
    routes.set("GET /app/config.json", (_q, _b, res) =>
      json(res, 200, {
        networkId: "development",
        apiVersion: "0.0",
        baseUrl: `${origin}/ledger/0.0/development`,
      }),
    );
    const r = await loadAppConfig(nodeFetch, `${origin}/app/config.json`);
    expect(r).toMatchObject({ ok: true, value: { basePath: "/ledger/0.0/development" } });
  });

  it("calls health-check, info and cut under the base path on its own origin", async () => {
    routes.set("GET /ledger/0.0/development/health-check", (_q, _b, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("Health check OK.\n");
    });
    routes.set("GET /ledger/0.0/development/info", (_q, _b, res) =>
      json(res, 200, {
        nodeVersion: "development",
        nodePackageVersion: "0.1.0",
        nodeApiVersion: "0.0",
        nodeChains: ["0"],
        nodeNumberOfChains: 1,
      }),
    );
    routes.set("GET /ledger/0.0/development/cut", (_q, _b, res) =>
      json(res, 200, {
        hashes: { "0": { height: 5, hash: H0 } },
        origin: null,
        weight: "w",
        height: 5,
        instance: "development",
        id: H0,
      }),
    );
    const client = createNodeClient({ origin, basePath: BASE_PATH, fetch: nodeFetch });
    expect(client.baseUrl).toBe(`${origin}/ledger/0.0/development`);
    expect(client.url("/header/updates")).toBe(`${origin}/ledger/0.0/development/header/updates`);
    expect(client.url("/app/api/peers")).toBe(`${origin}/app/api/peers`);
    await expect(client.healthCheck()).resolves.toEqual({ ok: true, value: "Health check OK.\n" });
    await expect(client.info()).resolves.toMatchObject({
      ok: true,
      value: { nodeNumberOfChains: 1 },
    });
    await expect(client.cut()).resolves.toMatchObject({ ok: true, value: { height: 5 } });
  });

  it("reads and changes mining through the app route's contract entries with a JSON body", async () => {
    let status = { enabled: false, threads: 1, account: null, hashRate: 0, blocksFound: 0 };
    routes.set("GET /app/api/mining", (_q, _b, res) => json(res, 200, status));
    routes.set("POST /app/api/mining", (_q, body, res) => {
      const change = JSON.parse(body) as { enabled: boolean };
      status = { ...status, enabled: change.enabled, hashRate: 1200 };
      json(res, 200, status);
    });
    const client = createNodeClient({ origin, basePath: BASE_PATH, fetch: nodeFetch });
    await expect(callEndpoint(client, sharedEndpoints.mining, {})).resolves.toMatchObject({
      ok: true,
      value: { enabled: false },
    });
    await expect(
      callEndpoint(client, sharedEndpoints.setMining, {}, { enabled: true }),
    ).resolves.toMatchObject({
      ok: true,
      value: { enabled: true, hashRate: 1200 },
    });
    const post = requests.findLast((r) => r.method === "POST");
    expect(post).toMatchObject({ body: '{"enabled":true}', contentType: "application/json" });
  });

  it("gets and posts JSON by the path the docs write: the ledger API under its base, the app's routes at the root", async () => {
    routes.set("GET /ledger/0.0/development/chain/2/header?limit=1", (req, _b, res) =>
      json(res, 200, { accept: req.headers.accept }),
    );
    routes.set("POST /ledger/0.0/development/chain/2/header/branch", (_q, body, res) =>
      json(res, 200, { echoed: JSON.parse(body) }),
    );
    const client = createNodeClient({ origin, basePath: BASE_PATH, fetch: nodeFetch });
    const accept = "application/json;blockheader-encoding=object";
    const got = await client.get("/chain/2/header?limit=1", (raw) => ({ ok: true, value: raw }), {
      accept,
    });
    expect(got).toEqual({ ok: true, value: { accept } });
    const posted = await client.post("/chain/2/header/branch", { upper: [H0] }, (raw) => ({
      ok: true,
      value: raw,
    }));
    expect(posted).toEqual({ ok: true, value: { echoed: { upper: [H0] } } });
    routes.set("GET /app/api/explorer/status", (_q, _b, res) => json(res, 200, { state: "ready" }));
    const app = await client.get("/app/api/explorer/status", (raw) => ({
      ok: true,
      value: raw,
    }));
    expect(app).toEqual({ ok: true, value: { state: "ready" } });
    const bad = await client.get("/chain/2/header?limit=1", () => ({
      ok: false,
      error: "items: expected an array",
    }));
    expect(bad).toMatchObject({
      ok: false,
      error: { code: ClientErrorCode.BadResponse, reason: "items: expected an array" },
    });
  });

  it("reports an error status with the node's message", async () => {
    routes.set("POST /app/api/mining", (_q, _b, res) =>
      json(res, 403, {
        code: "APP_LOOPBACK_ONLY",
        message: "Mining is controlled only from this computer.",
      }),
    );
    const client = createNodeClient({ origin, basePath: BASE_PATH, fetch: nodeFetch });
    const r = await callEndpoint(client, sharedEndpoints.setMining, {}, { enabled: true });
    expect(r).toEqual({
      ok: false,
      error: {
        code: ClientErrorCode.HttpStatus,
        url: `${origin}/app/api/mining`,
        status: 403,
        nodeCode: "APP_LOOPBACK_ONLY",
        message: "Mining is controlled only from this computer.",
      },
    });
    if (!r.ok) {
      // The sentence says it without the status; the details keep the status, code and URL.
      const words = clientErrorWords(r.error);
      expect(words.text).toBe(
        "The node refused this. Mining is controlled only from this computer.",
      );
      expect(words.details).toContain("HTTP 403 APP_LOOPBACK_ONLY");
      expect(words.details).toContain(`${origin}/app/api/mining`);
    }
  });

  it("reports replies that do not parse", async () => {
    routes.set("GET /ledger/0.0/development/info", (_q, _b, res) => {
      res.writeHead(200);
      res.end("<html>");
    });
    routes.set("GET /ledger/0.0/development/cut", (_q, _b, res) => json(res, 200, { hashes: 3 }));
    const client = createNodeClient({ origin, basePath: BASE_PATH, fetch: nodeFetch });
    await expect(client.info()).resolves.toMatchObject({
      ok: false,
      error: { code: ClientErrorCode.BadResponse, reason: "not JSON" },
    });
    await expect(client.cut()).resolves.toMatchObject({
      ok: false,
      error: { code: ClientErrorCode.BadResponse, reason: "hashes: expected an object" },
    });
  });

  it("reports a node that does not answer in time", async () => {
    routes.set("GET /ledger/0.0/development/health-check", () => {
      // never answers
    });
    const client = createNodeClient({
      origin,
      basePath: BASE_PATH,
      fetch: nodeFetch,
      timeoutMs: 200,
    });
    const r = await client.healthCheck();
    expect(r).toMatchObject({ ok: false, error: { code: ClientErrorCode.Timeout, ms: 200 } });
  });

  it("reports an unreachable node", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const client = createNodeClient({
      origin: `http://127.0.0.1:${port}`,
      basePath: BASE_PATH,
      fetch: nodeFetch,
    });
    const r = await client.healthCheck();
    expect(r).toMatchObject({ ok: false, error: { code: ClientErrorCode.Unreachable } });
    if (!r.ok) {
      const words = clientErrorWords(r.error);
      expect(words.text).toMatch(/^The node does not answer\. Check that Weft is still running/);
      expect(words.details).toMatch(/http:\/\/127\.0\.0\.1:\d+\/ledger/);
    }
  });
});

describe("[renderer] error bodies", () => {
  it("keeps the node's code and message from {code, message}, else the text", () => {
    expect(errorBodyOf('{"code":"MINING_CANNOT_START","message":"no account"}')).toEqual({
      nodeCode: "MINING_CANNOT_START",
      message: "no account",
    });
    expect(errorBodyOf('{"code":"APP_NOT_JSON"}')).toEqual({
      nodeCode: "APP_NOT_JSON",
      message: null,
    });
    expect(errorBodyOf('{"message":"m"}')).toEqual({ nodeCode: null, message: "m" });
    expect(errorBodyOf('"quoted"')).toEqual({ nodeCode: null, message: "quoted" });
    expect(errorBodyOf("Failed health check.\n")).toEqual({
      nodeCode: null,
      message: "Failed health check.",
    });
    expect(errorBodyOf("")).toEqual({ nodeCode: null, message: null });
    expect(errorBodyOf('{"reason":"x"}')).toEqual({ nodeCode: null, message: '{"reason":"x"}' });
    expect(errorBodyOf("x".repeat(300)).message).toBe(`${"x".repeat(200)}…`);
  });
});
