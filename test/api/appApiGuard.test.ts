/**
 * The app API plugin (appApi.ts; docs/desktop.md §3.3; issue 15 finding 6):
 * every registered `/app/api/*` route is guarded (loopback peer, loopback
 * Host, own Origin, preflight refused, app token, JSON bodies matching a
 * schema, no CORS), a route under `/app/api/` registered outside the plugin
 * stops the server from starting, and the app token reaches the page as a
 * cookie (unless the host turned that off), `curl` through the header and
 * the 0600 token file.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import Fastify, { type LightMyRequestResponse } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { registerAppApi } from "../../src-node/api/appApi.ts";
import { createAppToken } from "../../src-node/api/appToken.ts";
import { buildApi } from "../../src-node/api/buildServer.ts";
import { EventStreams } from "../../src-node/api/eventStream.ts";
import { Explorer } from "../../src-node/index/explorer.ts";
import { openTestNode, type TestNode, tempDir } from "../support/testNode.ts";

const open: TestNode[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function node(options: Parameters<typeof openTestNode>[0] = {}): Promise<TestNode> {
  const t = await openTestNode(options);
  open.push(t);
  return t;
}

function fakeBuild(): string {
  const dir = tempDir("weft-app-ui-");
  dirs.push(dir);
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>w</title>");
  return dir;
}

/** The API of a test node built again, to see its route list. */
function apiOf(t: TestNode) {
  return buildApi({
    version: t.node.version,
    blocks: t.node.blocks,
    packageVersion: "0.0.0",
    serviceDate: "2027-01-01T00:00:00Z",
    miner: t.node.miner,
    commands: t.node.commands,
    appToken: createAppToken({ value: t.node.appToken }),
    // Every area that registers app routes, so that the list below holds them all.
    explorer: new Explorer({
      index: t.node.index,
      blocks: t.node.blocks,
      state: t.node.state,
      mempool: t.node.commands.mempool,
    }),
    walletDir: join(t.dir, "wallet"),
    p2p: t.node.p2p,
    private: t.node.private,
    appBackups: t.node.appBackups,
    nodePage: { recentLog: t.node.recentLog, catchUp: t.node.catchUp, dataDir: t.dir },
    launchId: "test",
    networkDir: t.dir,
    dataDir: t.dir,
    dappSigning: t.node.dappSigning,
  });
}

function expectAppError(r: LightMyRequestResponse, status: number, code: string, what: string) {
  expect(r.statusCode, `${what}: ${r.body}`).toBe(status);
  expect(r.headers["content-type"], what).toBe("application/json; charset=utf-8");
  expect(r.headers["access-control-allow-origin"], what).toBeUndefined();
  const body = JSON.parse(r.body) as { code: string; message: string };
  expect(body.code, what).toBe(code);
  expect(body.message.length, what).toBeGreaterThan(10);
}

describe("[api] every /app/api/* route is behind the guard", () => {
  it("lists the routes and checks each one's refusals", async () => {
    const t = await node();
    const api = apiOf(t);
    try {
      // Routes inside plugins exist once the server is ready.
      await api.server.ready();
      const routes = api.routes
        .filter((r) => r.url.startsWith("/app/api/"))
        .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((m) => [m, r.url]))
        .filter(([m]) => m !== "HEAD");
      // Every area's routes are in the list the loop below checks.
      for (const r of [
        ["GET", "/app/api/mining"],
        ["POST", "/app/api/mining"],
        ["PUT", "/app/api/wallet/keystore"],
        ["POST", "/app/api/wallet/keystore/replace"],
        ["PUT", "/app/api/wallet/pending"],
        ["POST", "/app/api/node/restart"],
        ["POST", "/app/api/backup/start"],
        ["GET", "/app/api/explorer/search"],
        ["POST", "/app/api/peers"],
        ["GET", "/app/api/private"],
        ["POST", "/app/api/private/trusted"],
        ["POST", "/app/api/private/trusted/check"],
        ["DELETE", "/app/api/private/trusted/:name"],
        ["GET", "/app/api/wallet/dapp-signing"],
        ["POST", "/app/api/wallet/dapp-signing"],
        ["GET", "/app/api/wallet/sign-requests"],
        ["POST", "/app/api/wallet/sign-requests/:id"],
        ["POST", "/app/api/app-code"],
      ]) {
        expect(routes).toContainEqual(r);
      }
      const good = { host: "127.0.0.1:1848", "x-weft-app-token": t.node.appToken };
      for (const [method, route] of routes) {
        const url = (route as string).replace("*", "x");
        const m = method as "GET";
        const what = `${method} ${route}`;
        const json = { "content-type": "application/json" };
        const body = method === "GET" || method === "OPTIONS" ? {} : { payload: "{}" };
        const inject = (headers: Record<string, string>, remoteAddress?: string) =>
          api.server.inject({
            method: m,
            url,
            headers,
            ...body,
            ...(remoteAddress === undefined ? {} : { remoteAddress }),
          });
        if (method === "OPTIONS") {
          expectAppError(await inject(good), 403, "APP_FORBIDDEN", what);
          continue;
        }
        expectAppError(
          await inject({ ...good, ...json }, "192.168.1.7"),
          403,
          "APP_FORBIDDEN",
          what,
        );
        expectAppError(
          await inject({ ...good, ...json, host: "evil.example:1848" }),
          403,
          "APP_FORBIDDEN",
          what,
        );
        expectAppError(
          await inject({ ...good, ...json, origin: "http://evil.example" }),
          403,
          "APP_FORBIDDEN",
          what,
        );
        expectAppError(
          await inject({ host: good.host, ...json }),
          403,
          "APP_TOKEN_REQUIRED",
          `${what} without token`,
        );
        expectAppError(
          await inject({ ...good, ...json, "x-weft-app-token": "A".repeat(43) }),
          403,
          "APP_TOKEN_REQUIRED",
          `${what} wrong token`,
        );
        if (method === "GET") continue;
        expectAppError(
          await inject({ ...good, "content-type": "text/plain" }),
          415,
          "APP_NOT_JSON",
          what,
        );
        // A DELETE names what it removes in its address and takes no body.
        if (method === "DELETE") continue;
        const unknown = await api.server.inject({
          method: m,
          url,
          headers: { ...good, ...json },
          payload: '{"surely_not_a_field":1}',
        });
        expectAppError(unknown, 400, "APP_BAD_REQUEST", what);
        // The refusal names what is wrong: the unknown field, or first a required one it lacks.
        expect(JSON.parse(unknown.body).message, what).toMatch(
          /surely_not_a_field|must have required property '[A-Za-z]+'/,
        );
      }
    } finally {
      await api.server.close();
    }
  });

  it("refuses to start with a route under /app/api/ registered outside the plugin", async () => {
    const t = await node();
    const api = apiOf(t);
    api.server.get("/app/api/rogue", async () => "unguarded");
    await expect(api.server.ready()).rejects.toThrow(/app\/api\/rogue.*appApi\.ts/);
  });

  it("refuses a route inside the plugin that takes a body without a schema, or lies outside /app/api/", async () => {
    const t = await node();
    const ctx = {
      node: {
        version: t.node.version,
        blocks: t.node.blocks,
        packageVersion: "0",
        serviceDate: "",
      },
      base: t.base,
      streams: new EventStreams(),
      pageLimits: { hashes: 1, headers: 1 },
      appToken: createAppToken({ value: "x", cookieByCode: false }),
    };
    const noSchema = Fastify();
    registerAppApi(noSchema, ctx, [(scope) => scope.post("/app/api/thing", async () => "x")]);
    await expect(noSchema.ready()).rejects.toThrow(/without a schema/);
    const outside = Fastify();
    registerAppApi(outside, ctx, [(scope) => scope.get("/elsewhere", async () => "x")]);
    await expect(outside.ready()).rejects.toThrow(/not under \/app\/api\//);
  });

  it("checks bodies against the schema without coercing (finding 6: threads, account)", async () => {
    const t = await node();
    const post = (payload: string) =>
      t.node.server.inject({
        method: "POST",
        url: "/app/api/mining",
        headers: {
          host: "127.0.0.1:1848",
          "x-weft-app-token": t.node.appToken,
          "content-type": "application/json",
        },
        payload,
      });
    for (const [payload, field] of [
      ['{"threads":"2"}', "threads"],
      ['{"threads":1.5}', "threads"],
      ['{"enabled":"true"}', "enabled"],
      ['{"publicKeys":"ab"}', "publicKeys"],
      ['{"publicKeys":[1]}', "publicKeys.0"],
      ["[]", "body"],
      ['"x"', "body"],
    ] as const) {
      const r = await post(payload);
      expectAppError(r, 400, "APP_BAD_REQUEST", payload);
      expect(JSON.parse(r.body).message, payload).toMatch(
        new RegExp(`^${field.replace(".", "\\.")}`),
      );
    }
    const before = t.node.miner.status();
    expect(before.threads).toBe(1);
    // Without the token a program on this computer cannot touch the miner.
    const anonymous = await t.node.server.inject({
      method: "POST",
      url: "/app/api/mining",
      headers: { host: "127.0.0.1:1848", "content-type": "application/json" },
      payload: JSON.stringify({ threads: 1024, account: `k:${"a".repeat(64)}` }),
    });
    expectAppError(anonymous, 403, "APP_TOKEN_REQUIRED", "no token");
    expect(t.node.miner.status()).toEqual(before);
  });
});

describe("[api] the app token", () => {
  it("reaches a browser as an HttpOnly SameSite=Strict cookie only for a one-time code, and the cookie opens the API", async () => {
    const t = await node({ rendererDir: fakeBuild() });
    // Loading the page with nothing in hand hands out nothing (test/api/appCodes.test.ts).
    const plain = await t.request("GET", "/app/", { headers: { host: "127.0.0.1:1848" } });
    expect(plain.body).toMatch(/Open Weft from its address/);
    expect(plain.headers["set-cookie"]).toBeUndefined();
    const page = await t.request("GET", `/app/?code=${t.node.issueAppCode()}`, {
      headers: { host: "127.0.0.1:1848" },
    });
    expect(page.statusCode).toBe(303);
    const cookie = String(page.headers["set-cookie"]);
    expect(cookie).toBe(
      `weft-app-token-1848=${t.node.appToken}; Path=/app/; HttpOnly; SameSite=Strict`,
    );
    // Other files and other answers set nothing.
    const config = await t.request("GET", "/app/config.json");
    expect(config.headers["set-cookie"]).toBeUndefined();
    const pair = cookie.split(";")[0] as string;
    const withCookie = await t.request("GET", "/app/api/mining", {
      headers: { host: "127.0.0.1:1848", cookie: `other=1; ${pair}` },
    });
    expect(withCookie.statusCode).toBe(200);
    // A cookie for another node's port does not open this one.
    const otherPort = await t.request("GET", "/app/api/mining", {
      headers: { host: "127.0.0.1:1848", cookie: pair.replace("1848", "1849") },
    });
    expectAppError(otherPort, 403, "APP_TOKEN_REQUIRED", "other port's cookie");
  });

  it("is not handed to anyone when the host turned that off (the desktop): its window sends the header", async () => {
    const t = await node({
      rendererDir: fakeBuild(),
      appTokenCookie: false,
      appToken: "t".repeat(43),
    });
    expect(t.node.appToken).toBe("t".repeat(43));
    const page = await t.request("GET", "/app/");
    expect(page.body).toMatch(/belongs to the Weft desktop app/);
    expect(page.headers["set-cookie"]).toBeUndefined();
    const code = await t.request("GET", `/app/?code=${t.node.issueAppCode()}`);
    expect(code.body).toMatch(/belongs to the Weft desktop app/);
    expect(code.headers["set-cookie"]).toBeUndefined();
    // The desktop's window: the header on every request, the page included.
    const window = await t.request("GET", "/app/", {
      headers: { host: "127.0.0.1:1848", "x-weft-app-token": "t".repeat(43) },
    });
    expect(window.statusCode).toBe(200);
    expect(window.body).toBe("<!doctype html><title>w</title>");
    const header = await t.request("GET", "/app/api/mining", {
      headers: { host: "localhost:1848", "x-weft-app-token": "t".repeat(43) },
    });
    expect(header.statusCode).toBe(200);
  });

  it("is new for every launch, in a 0600 file while the node runs, for curl users on a real socket", async () => {
    const d = tempDir("weft-app-token-");
    dirs.push(d);
    const first = await openTestNode({ dir: d, port: 0 });
    const file = first.node.appTokenFile;
    expect(file).toBe(join(d, "test-singleton", "app-token"));
    expect(readFileSync(file, "utf8")).toBe(`${first.node.appToken}\n`);
    expect(first.node.appToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    if (process.platform !== "win32") expect(statSync(file).mode & 0o777).toBe(0o600);
    await first.node.start();
    const port = Number(new URL(first.node.origin).port);
    const get = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: "127.0.0.1", port, path: "/app/api/mining", headers },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end();
      });
    const token = readFileSync(file, "utf8").trim();
    expect(await get({ "x-weft-app-token": token })).toBe(200);
    expect(await get({})).toBe(403);
    await first.node.close();
    expect(existsSync(file)).toBe(false);
    const second = await openTestNode({ dir: d });
    expect(second.node.appToken).not.toBe(token);
    await second.node.close();
  });
});
