/**
 * `GET /app/api/explorer/…`: the explorer's read-only API over the node's
 * index (docs/explorer-api.md), inside the app API plugin (appApi.ts:
 * loopback, app token, JSON errors `{code, message}`). Each route is
 * registered from its entry of the shared table (appContract/appRoutes.ts),
 * and its query string's JSON schema is made from the entry's names (unknown
 * or repeated parameters are APP_BAD_REQUEST); values are then parsed here (EXPLORER_BAD_QUERY naming
 * the parameter). The answers are the Explorer's typed values
 * (index/explorerAnswers.ts), each written once here, by `send`, with the
 * exact-JSON writer (Pact values embedded as stored keep every digit).
 * Not registered when the node has no index.
 * @module
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { AppRoute } from "../../appContract/appRoute.ts";
import { appRoutes } from "../../appContract/appRoutes.ts";
import { type JsonWritable, stringifyJson } from "../../command/exactJson.ts";
import { badQuery } from "../../index/errors.ts";
import { BLOCK_PAGE, type Explorer, TRANSFER_PAGE } from "../../index/explorer.ts";
import { propertyOf } from "../params.ts";
import { type AppRouteOptions, registerAppRoute } from "../registerAppRoute.ts";
import type { RouteContext } from "../routeContext.ts";

/** A canonical non-negative integer query value, or undefined when absent. */
function natural(query: unknown, field: string): number | undefined {
  const v = propertyOf(query, field);
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !/^(0|[1-9][0-9]*)$/.test(v)) {
    throw badQuery(field, `expected a non-negative integer, got ${JSON.stringify(v)}`);
  }
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw badQuery(field, `${v} is too large`);
  return n;
}

function page(query: unknown, limits: { readonly default: number; readonly max: number }) {
  const next = propertyOf(query, "next");
  return {
    limit: Math.min(natural(query, "limit") ?? limits.default, limits.max),
    next: typeof next === "string" ? next : undefined,
  };
}

function param(params: unknown, name: string): string {
  const v = propertyOf(params, name);
  if (typeof v !== "string" || v === "") throw badQuery(name, "missing");
  return v;
}

/** The one place an explorer answer becomes text: the exact-JSON writer, once. */
function send(reply: FastifyReply, answer: JsonWritable): FastifyReply {
  return reply
    .code(200)
    .header("content-type", "application/json; charset=utf-8")
    .send(stringifyJson(answer));
}

/** The routes, for the app API plugin (buildServer.ts). */
export function registerAppExplorerRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  const explorer: Explorer | undefined = ctx.node.explorer;
  if (explorer === undefined) return;
  // Every route refuses query names its entry does not list.
  const get = <R extends string, Q extends string>(
    entry: AppRoute<R, Q, undefined>,
    handler: AppRouteOptions<R, undefined>["handler"],
  ) => registerAppRoute(scope, entry, { strictQuery: true, handler });
  get(appRoutes.explorer.status, (_request, reply) => send(reply, explorer.status()));
  get(appRoutes.explorer.blocks, (request, reply) =>
    send(
      reply,
      explorer.blocks({
        ...page(request.query, BLOCK_PAGE),
        chain: natural(request.query, "chain"),
        maxHeight: natural(request.query, "maxheight"),
      }),
    ),
  );
  get(appRoutes.explorer.block, (request, reply) =>
    send(reply, explorer.block(param(request.params, "hash"))),
  );
  get(appRoutes.explorer.transaction, (request, reply) =>
    send(reply, explorer.transaction(param(request.params, "requestKey"))),
  );
  get(appRoutes.explorer.account, (request, reply) =>
    send(reply, explorer.account(param(request.params, "account"))),
  );
  get(appRoutes.explorer.transfers, (request, reply) =>
    send(
      reply,
      explorer.transfers(param(request.params, "account"), {
        ...page(request.query, TRANSFER_PAGE),
        chain: natural(request.query, "chain"),
      }),
    ),
  );
  get(appRoutes.explorer.module, (request, reply) =>
    send(reply, explorer.module(param(request.params, "name"))),
  );
  get(appRoutes.explorer.search, (request, reply) => {
    const q = propertyOf(request.query, "q");
    if (typeof q !== "string") throw badQuery("q", "missing: /search?q=<text>");
    return send(reply, explorer.search(q));
  });
}
