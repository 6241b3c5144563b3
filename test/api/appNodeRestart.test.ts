/**
 * `GET/POST /app/api/node/restart` through `inject()` (docs/desktop.md §3.4): the launch id
 * and whether the host can restart; a POST answers 202 and then calls the host's restarter
 * once; without one it answers 409 APP_RESTART_UNAVAILABLE; bodies other than `{}` are
 * refused naming the field; the guard applies (appApiGuard.test.ts checks every route too).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { NodeRestartRequest } from "../../src-node/api/nodeRestart.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const open: TestNode[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
});

async function node(options: Parameters<typeof openTestNode>[0] = {}): Promise<TestNode> {
  const t = await openTestNode(options);
  open.push(t);
  return t;
}

const PATH = "/app/api/node/restart";

function headers(t: TestNode): Record<string, string> {
  return { host: "127.0.0.1:1848", "x-weft-app-token": t.node.appToken };
}

describe("[api] /app/api/node/restart", () => {
  it("says the launch id and that a host without a restarter cannot restart", async () => {
    const t = await node();
    const r = await t.request("GET", PATH, { headers: headers(t) });
    expect(r.statusCode).toBe(200);
    const status = JSON.parse(r.body) as { launchId: string; restartable: boolean };
    expect(status.launchId).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(status.restartable).toBe(false);

    const post = await t.request("POST", PATH, { headers: headers(t), body: {} });
    expect(post.statusCode).toBe(409);
    expect(JSON.parse(post.body)).toMatchObject({ code: "APP_RESTART_UNAVAILABLE" });
  });

  it("answers 202 with the launch id, then asks the host to restart once", async () => {
    const asked: NodeRestartRequest[] = [];
    const t = await node({ restart: (request) => asked.push(request) });
    const before = JSON.parse((await t.request("GET", PATH, { headers: headers(t) })).body) as {
      launchId: string;
      restartable: boolean;
    };
    expect(before.restartable).toBe(true);
    const r = await t.request("POST", PATH, { headers: headers(t), body: {} });
    expect(r.statusCode).toBe(202);
    expect(JSON.parse(r.body)).toEqual({ launchId: before.launchId, restarting: true });
    // The restart is asked only once the answer has gone.
    expect(asked).toEqual([]);
    await new Promise((done) => setImmediate(done));
    expect(asked).toEqual([{ reason: "restart" }]);
  });

  it("refuses a body other than {} naming the field, and requests without the token", async () => {
    const asked: NodeRestartRequest[] = [];
    const t = await node({ restart: (request) => asked.push(request) });
    const bad = await t.request("POST", PATH, { headers: headers(t), body: { now: true } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: "APP_BAD_REQUEST", message: /now/ });
    const noToken = await t.request("POST", PATH, {
      headers: { host: "127.0.0.1:1848" },
      body: {},
    });
    expect(noToken.statusCode).toBe(403);
    const foreign = await t.request("POST", PATH, {
      headers: { ...headers(t), origin: "http://evil.example" },
      body: {},
    });
    expect(foreign.statusCode).toBe(403);
    await new Promise((done) => setImmediate(done));
    expect(asked).toEqual([]);
  });
});
