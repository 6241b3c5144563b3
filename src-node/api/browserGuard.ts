/**
 * The server-wide browser guard (docs/api.md "Browsers"): one `onRequest`
 * hook that runs before every route, unknown routes included.
 *
 * - The `Host` must name the node (hostCheck.ts), else 403
 *   API_HOST_FORBIDDEN: against DNS rebinding.
 * - Each route says what it is in its Fastify `config.access`, so the guard
 *   does not depend on where a route is mounted:
 *   - `public` (default): the spec's read and contract routes. They keep
 *     CORS (cors.ts), because browser wallets and explorers talk to nodes
 *     that way and signatures authenticate commands; their POST bodies must
 *     be `application/json`, never a type a browser sends cross-origin
 *     without a preflight (which cors.ts refuses for POST).
 *   - `private`: the mining and backup routes. No CORS, and a present
 *     `Origin` must be the node's own (browsers always send `Origin` on a
 *     cross-origin POST, `curl` and miners send none), else 403
 *     API_ORIGIN_FORBIDDEN. Their bodies are any type unless the route
 *     names one.
 *   - `app`: `/app/api/*`, guarded more strictly by its own plugin
 *     (appApi.ts), which answers in its own format.
 * - `config.bodyType` names the one body media type a route accepts (else
 *   415 API_UNSUPPORTED_MEDIA_TYPE), `null` for any. A public route's POST
 *   without a body (no length, or 0) needs no type: there is nothing to read.
 * @module
 */
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from "fastify";
import { ApiError, ApiErrorCode } from "./errors.ts";
import { type HostPolicy, hostRefusal, isOwnOriginOrAbsent, mediaTypeOf } from "./hostCheck.ts";

export type RouteAccess = "public" | "private" | "app";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call the route from a browser (browserGuard.ts); default `public`. */
    access?: RouteAccess;
    /** The body media type the route accepts; `null`: any. Default: JSON on public routes. */
    bodyType?: string | null;
  }
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Whether the request announces a body (a length above 0, or chunks). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers["content-length"];
  return (
    request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0")
  );
}

/** The access of the route a request was routed to (`public` when unknown). */
export function routeAccess(request: FastifyRequest): RouteAccess {
  return request.routeOptions?.config?.access ?? "public";
}

/** A route's `config` (Fastify builds `routeOptions` anew on every read: read it once). */
function routeConfig(request: FastifyRequest): FastifyContextConfig | undefined {
  return request.routeOptions?.config;
}

function shorten(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}

/** @throws {ApiError} API_HOST_FORBIDDEN, API_ORIGIN_FORBIDDEN, API_UNSUPPORTED_MEDIA_TYPE */
export function checkBrowserRequest(request: FastifyRequest, policy: HostPolicy): void {
  const config = routeConfig(request);
  const access = config?.access ?? "public";
  if (access === "app") return;
  const refusal = hostRefusal(request, policy);
  if (refusal !== undefined) {
    throw new ApiError(
      { code: ApiErrorCode.HostForbidden, host: request.headers.host ?? "" },
      `${refusal}; refused against DNS rebinding`,
    );
  }
  if (access === "private" && !isOwnOriginOrAbsent(request)) {
    const origin = request.headers.origin ?? "";
    throw new ApiError(
      { code: ApiErrorCode.OriginForbidden, origin },
      `Origin ${shorten(origin)} is not this node's own: the mining and backup routes refuse requests from web pages`,
    );
  }
  if (!BODY_METHODS.has(request.method) || request.is404) return;
  const configured = config?.bodyType;
  const expected =
    configured !== undefined ? configured : access === "public" ? "application/json" : null;
  if (expected === null) return;
  // An empty JSON request is a query without parameters (a branch query with no bounds);
  // it can carry nothing a page could abuse.
  if (expected === "application/json" && !hasBody(request)) return;
  const given = mediaTypeOf(request);
  if (given !== expected) {
    throw new ApiError(
      { code: ApiErrorCode.UnsupportedMediaType, contentType: given, expected },
      `content-type: ${shorten(given)} is not supported; send ${expected}`,
    );
  }
}

export function registerBrowserGuard(server: FastifyInstance, policy: HostPolicy): void {
  // Callback style: an async hook costs a promise on every request.
  server.addHook("onRequest", (request, _reply, done) => {
    try {
      checkBrowserRequest(request, policy);
      done();
    } catch (e) {
      done(e as Error);
    }
  });
}
