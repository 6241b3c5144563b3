/**
 * `/app/api/*`, the UI's private API, as one Fastify plugin (docs/desktop.md
 * §3.3): every route registered through {@link registerAppApi} is guarded by
 * it, and no route can reach `/app/api/` any other way (buildServer.ts
 * refuses to start with one; a test lists them). Each is a route of the
 * table the node and the UI share (appContract/appRoutes.ts, registered
 * from its entry by registerAppRoute.ts): another stops the start too.
 *
 * Any web page the user visits, and any program on the computer, can send
 * requests to 127.0.0.1, so every request must:
 * 1. come from the loopback address (127.0.0.1, ::1, ::ffff:127.0.0.1);
 * 2. carry a loopback `Host` (`127.0.0.1`, `localhost`, `[::1]`) with the
 *    port it came in on (DNS rebinding);
 *    on a node run with `--app-remote` (appToken.ts `remote`), 1 and 2 give
 *    way to the Host check every route has (hostCheck.ts: the node's names),
 *    and the token alone keeps others out;
 * 3. carry no `Origin`, or the node's own;
 * 4. not be a preflight (`OPTIONS` answers 403): no CORS here at all;
 * 5. carry the launch's app token (appToken.ts);
 * 6. send a body, if any, as `application/json`, and that body must match
 *    the route's JSON schema (every POST, PUT and PATCH route declares one;
 *    unknown fields and wrong types are refused, nothing is coerced), or the
 *    route's parser standing as its schema (the wallet's stored files,
 *    parsedBody.ts), whose refusals are answered the same way.
 * Answers to refused requests are JSON `{"code", "message"}` with the APP_*
 * codes (403 for 1–5, 415 for a body that is not JSON, 400 for one that
 * does not match); errors from the routes keep their own codes.
 * @module
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import { APP_ROUTES } from "../appContract/appRoutes.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { AppToken } from "./appToken.ts";
import { carriesAppToken } from "./appToken.ts";
import { statusOfCode } from "./errorStatus.ts";
import { AppError, AppErrorCode } from "./errors.ts";
import {
  type HostPolicy,
  hostRefusal,
  isLoopbackHost,
  isLoopbackPeer,
  isOwnOriginOrAbsent,
  mediaTypeOf,
} from "./hostCheck.ts";
import type { RouteContext } from "./routeContext.ts";

export const APP_API_PREFIX = "/app/api/";

/**
 * Registers routes inside the app API's scope (every path must start with /app/api/), each from
 * its entry of the shared table (appContract/appRoutes.ts) through registerAppRoute.ts.
 */
export type AppApiRoutes = (scope: FastifyInstance, ctx: RouteContext) => void;

/** Set on every route this plugin registers; buildServer.ts refuses `/app/api/` routes without it. */
const GUARDED = Symbol("weft.appApiGuarded");

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** `METHOD /route` of every route of the table (appContract/appRoutes.ts). */
const TABLE = new Set(APP_ROUTES.map((r) => `${r.method} ${r.route}`));

/** Whether a method of a route is the table's: HEAD with its GET, the plugin's own OPTIONS. */
function inTable(method: string, url: string): boolean {
  if (method === "OPTIONS") return true;
  return TABLE.has(`${method === "HEAD" ? "GET" : method} ${url}`);
}

/** Whether a route's options came through the app API plugin. */
export function isGuardedAppRoute(config: unknown): boolean {
  return typeof config === "object" && config !== null && GUARDED in config;
}

/** Whether a route path is under `/app/api/`. */
export function isAppApiPath(url: string): boolean {
  return url.startsWith(APP_API_PREFIX) || url === "/app/api";
}

function forbidden(reason: string): AppError {
  return new AppError(
    { code: AppErrorCode.Forbidden, reason },
    `the app's API answers only the app on this computer (${reason})`,
  );
}

/** @throws {AppError} APP_FORBIDDEN, APP_TOKEN_REQUIRED, APP_NOT_JSON */
function checkAppRequest(request: FastifyRequest, token: AppToken, hosts: HostPolicy): void {
  if (token.remote) {
    const refusal = hostRefusal(request, hosts);
    if (refusal !== undefined) throw forbidden(refusal);
  } else {
    if (!isLoopbackPeer(request)) {
      throw forbidden("the request does not come from this computer");
    }
    if (!isLoopbackHost(request)) {
      throw forbidden(
        `Host ${JSON.stringify(request.headers.host ?? "")} is not this computer's address`,
      );
    }
  }
  if (!isOwnOriginOrAbsent(request)) {
    throw forbidden(
      `Origin ${JSON.stringify(request.headers.origin)} is not the node's own origin`,
    );
  }
  if (request.method === "OPTIONS") throw forbidden("cross-origin requests are refused");
  if (!carriesAppToken(request, token)) {
    throw new AppError(
      { code: AppErrorCode.TokenRequired },
      "the app token is missing or wrong: open the app from the address the node printed " +
        "(…/app/?code=…) or a new one from `weft app-url`, or send the X-Weft-App-Token " +
        "header with the contents of the app-token file in the node's data folder",
    );
  }
  if (BODY_METHODS.has(request.method) && mediaTypeOf(request) !== "application/json") {
    throw new AppError(
      { code: AppErrorCode.NotJson, contentType: mediaTypeOf(request) },
      "the body must be JSON (Content-Type: application/json)",
    );
  }
}

/** `field: reason` of a failed schema check (`body` for the whole body). */
function validationMessage(error: FastifyError): { field: string; message: string } {
  const first = error.validation?.[0];
  if (first === undefined) return { field: "body", message: error.message };
  const params = first.params as Record<string, unknown>;
  const path = first.instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (typeof params.additionalProperty === "string") {
    const field = path === "" ? params.additionalProperty : `${path}.${params.additionalProperty}`;
    return { field, message: `${field}: unknown field` };
  }
  const field = path === "" ? "body" : path;
  return { field, message: `${field}: ${first.message ?? "invalid"}` };
}

type ErrorAnswer = { status: number; code: string; message: string };

function answerOf(error: unknown): ErrorAnswer {
  if (isNodeError(error)) {
    const status = statusOfCode(error.code);
    return status === 500
      ? { status, code: AppErrorCode.Internal, message: "internal error" }
      : { status, code: error.code, message: error.message };
  }
  const e = error as FastifyError;
  if (e.validation !== undefined) {
    return { status: 400, code: AppErrorCode.BadRequest, ...validationMessage(e) };
  }
  const s = e.statusCode;
  if (typeof s === "number" && s >= 400 && s < 500) {
    return {
      status: s,
      code: s === 415 ? AppErrorCode.NotJson : AppErrorCode.BadRequest,
      message: `body: ${e.message}`,
    };
  }
  return { status: 500, code: AppErrorCode.Internal, message: "internal error" };
}

/**
 * The app API plugin with `routes` inside it, guarded with the launch's app
 * token (`ctx.appToken`); `hosts`: the names a request may carry with `--app-remote`.
 */
export function registerAppApi(
  server: FastifyInstance,
  ctx: RouteContext,
  routes: readonly AppApiRoutes[],
  hosts: HostPolicy = { configuredHost: "127.0.0.1", allowedHosts: [] },
): void {
  const token = ctx.appToken;
  server.register(async (scope) => {
    scope.addHook("onRoute", (options) => {
      if (!isAppApiPath(options.url)) {
        throw new Error(`app API route ${options.url} is not under ${APP_API_PREFIX}`);
      }
      const methods = Array.isArray(options.method) ? options.method : [options.method];
      const schema = options.schema as { body?: unknown } | undefined;
      if (methods.some((m) => BODY_METHODS.has(m)) && schema?.body === undefined) {
        throw new Error(`app API route ${options.url} takes a body without a schema`);
      }
      const other = methods.find((m) => !inTable(m, options.url));
      if (other !== undefined) {
        throw new Error(
          `app API route ${other} ${options.url} is not in the table of appContract/appRoutes.ts ` +
            "(add its entry there, and register it with registerAppRoute.ts)",
        );
      }
      options.config = Object.assign({}, options.config, {
        access: "app" as const,
        [GUARDED]: true,
      });
    });
    scope.addHook("onRequest", (request, _reply, done) => {
      try {
        checkAppRequest(request, token, hosts);
        done();
      } catch (e) {
        done(e as Error);
      }
    });
    scope.setErrorHandler((error, request, reply) => {
      const a = answerOf(error);
      if (a.status === 500) {
        ctx.node.log?.error("request failed", {
          method: request.method,
          url: request.url,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
      reply
        .code(a.status)
        .header("content-type", "application/json; charset=utf-8")
        .send(JSON.stringify({ code: a.code, message: a.message }));
    });
    // A browser's preflight to any app route: refused by the hook above.
    scope.options(`${APP_API_PREFIX}*`, async () => {
      throw forbidden("cross-origin requests are refused");
    });
    for (const register of routes) register(scope, ctx);
  });
}
