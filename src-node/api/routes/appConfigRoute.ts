/**
 * `GET /app/config.json`: what the UI needs before its first API call
 * (docs/desktop.md §3.1): `{"networkId", "apiVersion", "baseUrl"}`, never
 * cached. The UI checks that `baseUrl` ends in
 * `/ledger/{apiVersion}/{networkId}` and calls the API at that path on its
 * own origin; `baseUrl` itself is only displayed.
 * @module
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { API_VERSION } from "../nodeInfo.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

export const APP_CONFIG_PATH = "/app/config.json";

export type AppConfig = {
  readonly networkId: string;
  readonly apiVersion: string;
  readonly baseUrl: string;
};

const HOST = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/** The origin named by the request's Host (used only before the node listens: `inject()`). */
function requestOrigin(request: FastifyRequest): string {
  const host = request.headers.host ?? "";
  return `http://${HOST.test(host) ? host : "127.0.0.1"}`;
}

export function appConfigOf(ctx: RouteContext, request: FastifyRequest): AppConfig {
  const origin = ctx.node.origin?.() ?? requestOrigin(request);
  return {
    networkId: ctx.node.version.name,
    apiVersion: API_VERSION,
    baseUrl: `${origin}${ctx.base}`,
  };
}

export function registerAppConfigRoute(server: FastifyInstance, ctx: RouteContext): void {
  server.get(APP_CONFIG_PATH, (request, reply) => {
    reply.header("cache-control", "no-store");
    sendJson(reply, appConfigOf(ctx, request));
  });
}
