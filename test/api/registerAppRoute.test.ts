/**
 * registerAppRoute (src-node/api/registerAppRoute.ts; issue 37): an app route is registered
 * from its entry of the shared table, inside the app API plugin (appApi.ts) on a bare Fastify
 * with the node's schema options. The method and URL are the entry's, the path parameters
 * reach the handler by name, a strict route refuses a query name the entry does not list (or
 * one given twice) with 400 APP_BAD_REQUEST as before while a route without it leaves the
 * query to its handler, the body schema and limit apply, and the plugin still refuses a body
 * route without a schema, and now a route (or a method) the table does not have; a body
 * parser (the wallet's files, parsedBody.ts) is a route's only validator.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { type AppApiRoutes, registerAppApi } from "../../src-node/api/appApi.ts";
import { createAppToken } from "../../src-node/api/appToken.ts";
import { EventStreams } from "../../src-node/api/eventStream.ts";
import { querySchemaOf, registerAppRoute } from "../../src-node/api/registerAppRoute.ts";
import type { RouteContext } from "../../src-node/api/routeContext.ts";
import { appRoutes } from "../../src-node/appContract/appRoutes.ts";

const TOKEN = "test-token";
const HEADERS = { host: "127.0.0.1:1848", "x-weft-app-token": TOKEN };

/** The app API plugin with `routes` in it; no service is reached. */
async function appServer(routes: AppApiRoutes): Promise<FastifyInstance> {
  const ctx: RouteContext = {
    node: {} as RouteContext["node"],
    base: "/ledger/0.0/development",
    streams: new EventStreams(),
    pageLimits: { hashes: 1, headers: 1 },
    appToken: createAppToken({ value: TOKEN, cookieByCode: false }),
  };
  const server = Fastify({
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false } },
  });
  registerAppApi(server, ctx, [routes]);
  await server.ready();
  return server;
}

async function get(server: FastifyInstance, url: string) {
  const r = await server.inject({ method: "GET", url, headers: HEADERS });
  return { status: r.statusCode, json: JSON.parse(r.body === "" ? "null" : r.body) };
}

describe("[api] registerAppRoute: app routes from the shared table", () => {
  it("takes the method and the URL from the entry; the path parameters reach the handler", async () => {
    const server = await appServer((scope) =>
      registerAppRoute(scope, appRoutes.backup.job, {
        handler: async (request) => ({ id: request.params.id }),
      }),
    );
    expect(await get(server, "/app/api/backup/jobs/abc%20d")).toEqual({
      status: 200,
      json: { id: "abc d" },
    });
    const post = await server.inject({
      method: "POST",
      url: "/app/api/backup/jobs/abc",
      headers: { ...HEADERS, "content-type": "application/json" },
      payload: "{}",
    });
    expect(post.statusCode).toBe(404);
    expect(server.printRoutes({ commonPrefix: false })).toContain("jobs/");
    await server.close();
  });

  it("with strictQuery refuses a name the entry does not list, or one given twice, with 400 APP_BAD_REQUEST", async () => {
    const server = await appServer((scope) =>
      registerAppRoute(scope, appRoutes.explorer.blocks, {
        strictQuery: true,
        handler: async (request) => request.query,
      }),
    );
    expect(
      await get(server, "/app/api/explorer/blocks?chain=1&limit=2&next=x&maxheight=3"),
    ).toEqual({ status: 200, json: { chain: "1", limit: "2", next: "x", maxheight: "3" } });
    expect(await get(server, "/app/api/explorer/blocks")).toEqual({ status: 200, json: {} });
    const unknown = await get(server, "/app/api/explorer/blocks?chain=1&height=2");
    expect(unknown).toEqual({
      status: 400,
      json: { code: "APP_BAD_REQUEST", message: "height: unknown field" },
    });
    const twice = await get(server, "/app/api/explorer/blocks?chain=1&chain=2");
    expect(twice.status).toBe(400);
    expect(twice.json).toMatchObject({ code: "APP_BAD_REQUEST", message: /^chain: / });
    await server.close();
  });

  it("with strictQuery and no names in the entry refuses every query parameter", async () => {
    const server = await appServer((scope) =>
      registerAppRoute(scope, appRoutes.explorer.status, {
        strictQuery: true,
        handler: async () => ({ ok: true }),
      }),
    );
    expect((await get(server, "/app/api/explorer/status")).status).toBe(200);
    expect(await get(server, "/app/api/explorer/status?chain=1")).toEqual({
      status: 400,
      json: { code: "APP_BAD_REQUEST", message: "chain: unknown field" },
    });
    await server.close();
  });

  it("without strictQuery leaves the query to the handler", async () => {
    const server = await appServer((scope) =>
      registerAppRoute(scope, appRoutes.wallet.signRequests, {
        handler: async (request) => request.query,
      }),
    );
    expect(await get(server, "/app/api/wallet/sign-requests?since=1&other=x")).toEqual({
      status: 200,
      json: { since: "1", other: "x" },
    });
    await server.close();
  });

  it("checks the body with its schema and limit; the handler reads it as the entry's type", async () => {
    const seen: string[] = [];
    const server = await appServer((scope) =>
      registerAppRoute(scope, appRoutes.peers.add, {
        bodySchema: {
          type: "object",
          additionalProperties: false,
          required: ["address"],
          properties: { address: { type: "string" } },
        },
        bodyLimit: 100,
        handler: async (request) => {
          seen.push(request.body.address);
          return { address: request.body.address };
        },
      }),
    );
    const post = (payload: string) =>
      server.inject({
        method: "POST",
        url: "/app/api/peers",
        headers: { ...HEADERS, "content-type": "application/json" },
        payload,
      });
    expect((await post('{"address":"localhost:1849"}')).statusCode).toBe(200);
    const extra = await post('{"address":"a","port":1}');
    expect(extra.statusCode).toBe(400);
    expect(JSON.parse(extra.body)).toMatchObject({ code: "APP_BAD_REQUEST", message: /^port:/ });
    expect((await post(JSON.stringify({ address: "x".repeat(200) }))).statusCode).toBe(413);
    expect(seen).toEqual(["localhost:1849"]);
    await server.close();
  });

  it("keeps the plugin's rule: a route that takes a body has a schema", async () => {
    const ctx = { appToken: createAppToken({ value: TOKEN }) } as RouteContext;
    const server = Fastify();
    registerAppApi(server, ctx, [
      (scope) => registerAppRoute(scope, appRoutes.node.restart, { handler: async () => ({}) }),
    ]);
    await expect(server.ready()).rejects.toThrow(/without a schema/);
  });

  it("refuses, at start, an app route that is not in the table, or a method it does not list", async () => {
    const ctx = { appToken: createAppToken({ value: TOKEN }) } as RouteContext;
    const other = Fastify();
    registerAppApi(other, ctx, [(scope) => scope.get("/app/api/thing", async () => "x")]);
    await expect(other.ready()).rejects.toThrow(/GET \/app\/api\/thing is not in the table/);
    const method = Fastify();
    registerAppApi(method, ctx, [(scope) => scope.delete("/app/api/backup", async () => "x")]);
    await expect(method.ready()).rejects.toThrow(/DELETE \/app\/api\/backup is not in the table/);
  });

  it("with a body parser checks the body with it alone: 400 naming the field, the parser's value to the handler", async () => {
    const parse = (raw: unknown) =>
      typeof raw === "object" && raw !== null && (raw as { id?: unknown }).id === "x"
        ? { ok: true as const, value: { id: "x" } }
        : { ok: false as const, error: "body.id: expected x" };
    const server = await appServer((scope) =>
      registerAppRoute(scope, appRoutes.backup.remove, {
        bodyParser: parse,
        handler: async (request) => request.body,
      }),
    );
    const post = (payload: string) =>
      server.inject({
        method: "POST",
        url: "/app/api/backup/delete",
        headers: { ...HEADERS, "content-type": "application/json" },
        payload,
      });
    const good = await post('{"id":"x","extra":1}');
    expect([good.statusCode, JSON.parse(good.body)]).toEqual([200, { id: "x" }]);
    const bad = await post('{"id":"y"}');
    expect([bad.statusCode, JSON.parse(bad.body)]).toEqual([
      400,
      { code: "APP_BAD_REQUEST", message: "id: expected x" },
    ]);
    await server.close();
    const both = Fastify();
    registerAppApi(both, { appToken: createAppToken({ value: TOKEN }) } as RouteContext, [
      (scope) =>
        registerAppRoute(scope, appRoutes.backup.remove, {
          bodyParser: parse,
          bodySchema: { type: "object" },
          handler: async () => ({}),
        }),
    ]);
    await expect(both.ready()).rejects.toThrow(/only validator/);
  });

  it("builds the query string's schema from the names: strings only, nothing else", () => {
    expect(querySchemaOf(["q"])).toEqual({
      type: "object",
      additionalProperties: false,
      properties: { q: { type: "string" } },
    });
    expect(querySchemaOf([])).toEqual({
      type: "object",
      additionalProperties: false,
      properties: {},
    });
  });
});
