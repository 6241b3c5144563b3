/**
 * `buildServer(node)`: the node's one HTTP server as an unstarted Fastify
 * instance (tests call `inject()`; node.ts calls `listen()`). URL layout as
 * architecture §2.2: `{base_url}` = `/ledger/0.0/{network}`, `/health-check`
 * and `/info` also at the root.
 *
 * Every response, errors and unknown routes included, carries the common
 * headers (commonHeaders.ts); errors are answered through the code → status
 * table (errorStatus.ts); every request passes the browser guard first
 * (browserGuard.ts: Host, and per route kind Origin and body type); GET and
 * HEAD responses of public routes carry CORS headers (cors.ts), except under `/app/`, the node's own UI (built files,
 * `config.json`, `/app/api/mining`), which is same-origin only and carries
 * the UI's security headers (appHeaders.ts); request bodies are limited to
 * 2 MiB by default, and must arrive within 30 s (408 after); an answer given before its request's body was read
 * closes the connection (unreadBody.ts); requests the HTTP parser cannot
 * read are answered by clientError.ts, with the common headers too.
 * docs/api.md documents every route.
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import Fastify, { type FastifyInstance, type RouteOptions } from "fastify";
import { type ApiServices, basePath } from "./apiServices.ts";
import { type AppApiRoutes, isAppApiPath, isGuardedAppRoute, registerAppApi } from "./appApi.ts";
import { APP_SECURITY_HEADERS, registerAppHeaders } from "./appHeaders.ts";
import { isAppPath } from "./appPath.ts";
import { createAppToken } from "./appToken.ts";
import { registerBrowserGuard } from "./browserGuard.ts";
import { clientErrorHandler } from "./clientError.ts";
import { commonHeaders } from "./commonHeaders.ts";
import { corsHeaders, registerCors } from "./cors.ts";
import { errorReply } from "./errorStatus.ts";
import { ApiError, ApiErrorCode, badRequest } from "./errors.ts";
import { EventStreams } from "./eventStream.ts";
import type { HostPolicy } from "./hostCheck.ts";
import { MAX_HASH_PAGE, MAX_HEADER_PAGE } from "./params.ts";
import { referencePathRewriter } from "./referencePath.ts";
import type { PageLimits, RouteContext } from "./routeContext.ts";
import { registerAppBackupRoutes } from "./routes/appBackupRoutes.ts";
import { registerAppCodeRoutes } from "./routes/appCodeRoutes.ts";
import { registerAppConfigRoute } from "./routes/appConfigRoute.ts";
import { registerAppDappSigningRoutes } from "./routes/appDappSigningRoutes.ts";
import { registerAppExplorerRoutes } from "./routes/appExplorerRoutes.ts";
import { registerAppMiningRoutes } from "./routes/appMiningRoutes.ts";
import { registerAppNodeRestartRoutes } from "./routes/appNodeRestartRoutes.ts";
import { registerAppNodeRoutes } from "./routes/appNodeRoutes.ts";
import { registerAppPeerRoutes } from "./routes/appPeerRoutes.ts";
import { registerAppPrivateRoutes } from "./routes/appPrivateRoutes.ts";
import { registerAppUiRoutes } from "./routes/appUiRoutes.ts";
import { registerAppWalletRoutes } from "./routes/appWalletRoutes.ts";
import { registerBackupRoutes } from "./routes/backupRoutes.ts";
import { registerBlockRoutes } from "./routes/blockRoutes.ts";
import { registerCutRoutes } from "./routes/cutRoutes.ts";
import { registerHashRoutes } from "./routes/hashRoutes.ts";
import { registerHeaderRoutes } from "./routes/headerRoutes.ts";
import { registerHeaderUpdatesRoute } from "./routes/headerUpdatesRoute.ts";
import { registerHealthRoutes } from "./routes/healthRoutes.ts";
import { registerInfoRoutes } from "./routes/infoRoutes.ts";
import { registerMiningRoutes } from "./routes/miningRoutes.ts";
import { registerP2pRoutes } from "./routes/p2pRoutes.ts";
import { registerPactRoutes } from "./routes/pactRoutes.ts";
import { registerPrivateRoutes } from "./routes/privateRoutes.ts";
import { bodyLeftUnread } from "./unreadBody.ts";

/**
 * The routes of the UI's private API `/app/api/*`, all inside the guard of
 * appApi.ts. Later areas (keystore, backup, settings, explorer) add theirs here.
 */
const APP_API_ROUTES: readonly AppApiRoutes[] = [
  registerAppCodeRoutes,
  registerAppMiningRoutes,
  registerAppExplorerRoutes,
  registerAppWalletRoutes,
  registerAppNodeRestartRoutes,
  registerAppBackupRoutes,
  registerAppPeerRoutes,
  registerAppPrivateRoutes,
  registerAppNodeRoutes,
  registerAppDappSigningRoutes,
];

/** Largest request body (reference service API: 2 MB). */
export const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * How long a client may take to send a whole request, head and body (ms):
 * a 2 MiB body at 100 KB/s with room to spare. A request still incomplete
 * then gets 408 (or its connection closed, when it was answered already).
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * Node's HTTP server options that bound how long a request may take to
 * arrive (`requestTimeoutMs`, head and body). Node checks them on a timer
 * (30 s by default, so a 30 s bound could wait a minute); checked here at
 * least every second. Fastify's default turns the request bound off, and
 * with it the bound on headers: a body (or headers) the client never
 * finishes held its connection forever.
 */
export function requestTimeouts(requestTimeoutMs: number): {
  requestTimeout: number;
  headersTimeout: number;
  connectionsCheckingInterval: number;
} {
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 4))),
  };
}

export type BuildServerOptions = {
  readonly bodyLimit?: number | undefined;
  /** How long a whole request (head and body) may take to arrive, ms (default 30 s; then 408). */
  readonly requestTimeoutMs?: number | undefined;
  /** Page maxima (default 4096 hashes, 360 headers or blocks, as the reference). */
  readonly pageLimits?: PageLimits | undefined;
  /** The names `Host` may carry (default: the loopback names and IP literals only). */
  readonly hosts?: HostPolicy | undefined;
};

export type ApiServer = {
  readonly server: FastifyInstance;
  /** `{base_url}`'s path. */
  readonly base: string;
  readonly streams: EventStreams;
  /** Every route registered (method, url, config), for tests that check them all. */
  readonly routes: readonly RouteOptions[];
};

/** The coded error for a URL the router refused before any route ran. */
function frameworkUrlError(error: { code?: string }, url: string): unknown {
  const path = url.split("?")[0] ?? "";
  const shown = JSON.stringify(path.length > 100 ? `${path.slice(0, 100)}…` : path);
  if (error.code === "FST_ERR_BAD_URL")
    return badRequest("path", `${shown} is not a valid URL path (malformed percent-encoding)`);
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH")
    return badRequest("path", `a segment of ${shown} is longer than 100 characters`);
  return error;
}

/** The HTTP server of `node`, not listening. */
export function buildServer(node: ApiServices, options: BuildServerOptions = {}): FastifyInstance {
  return buildApi(node, options).server;
}

/** {@link buildServer} with the pieces node.ts and later areas use (base path, event streams). */
export function buildApi(node: ApiServices, options: BuildServerOptions = {}): ApiServer {
  const toPrimaryPath = referencePathRewriter(node.version);
  const timeouts = requestTimeouts(options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  const server = Fastify({
    logger: false,
    // A request that stalls (a body announced longer than sent, headers never
    // finished) is answered 408 by clientError.ts, or its connection closed.
    requestTimeout: timeouts.requestTimeout,
    http: timeouts,
    // `/chainweb/0.0/{network}/…` is served as `/ledger/0.0/{network}/…`;
    // `request.originalUrl` keeps what the client sent, for error texts.
    rewriteUrl: (request) => toPrimaryPath(request.url ?? "/"),
    // Route schemas check, they never repair: no type coercion, no dropped
    // unknown members, no defaults filled in.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false } },
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    return503OnClosing: true,
    clientErrorHandler: clientErrorHandler(node),
    // A URL the router cannot take (malformed percent-encoding, a path
    // parameter over 100 characters): Fastify would answer JSON of its own;
    // these are answered like every other error. No hook runs for them, so
    // the headers the hooks add are set here.
    frameworkErrors: (error, request, reply) => {
      const r = errorReply(frameworkUrlError(error, request.originalUrl));
      reply.raw
        .writeHead(r.status, {
          ...commonHeaders(request.raw, node),
          ...corsHeaders(request),
          ...(isAppPath(request.url) ? APP_SECURITY_HEADERS : {}),
          "content-type": r.contentType,
          "content-length": Buffer.byteLength(r.body),
        })
        .end(r.body);
    },
  });
  const base = basePath(node.version);
  const streams = new EventStreams();
  const pageLimits = options.pageLimits ?? { hashes: MAX_HASH_PAGE, headers: MAX_HEADER_PAGE };
  const appToken = node.appToken ?? createAppToken();
  const ctx: RouteContext = { node, base, streams, pageLimits, appToken };

  // Set on the raw response before Fastify sees the request, so that the
  // answers Fastify writes itself, bypassing every hook (its 503 to requests
  // that arrive while the server closes), carry them too. Hooks set them again.
  server.server.prependListener("request", (request: IncomingMessage, response: ServerResponse) => {
    for (const [name, value] of Object.entries(commonHeaders(request, node)))
      response.setHeader(name, value);
  });
  // Callback-style hooks: an async hook costs a promise on every request.
  server.addHook("onSend", (request, reply, payload, done) => {
    reply.headers(commonHeaders(request.raw, node));
    // An answer that leaves before its request's body was read closes the
    // connection (unreadBody.ts): else the next request on it may never be read.
    if (bodyLeftUnread(request.raw)) reply.header("connection", "close");
    done(null, payload);
  });
  // Bodies are JSON (or, on the mining and backup routes, bytes those routes
  // parse themselves): text/plain gets 415 like any other type, not a string.
  server.removeContentTypeParser("text/plain");
  server.addHook("preClose", async () => {
    streams.endAll();
  });
  server.setErrorHandler((error, request, reply) => {
    const r = errorReply(error, request.headers["content-type"]);
    if (r.status === 500) {
      node.log?.error("request failed", {
        method: request.method,
        url: request.originalUrl,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
    reply.code(r.status).type(r.contentType).send(r.body);
  });
  server.setNotFoundHandler((request) => {
    throw new ApiError(
      { code: ApiErrorCode.RouteNotFound, method: request.method, url: request.originalUrl },
      `no route for ${request.method} ${request.originalUrl.split("?")[0]}`,
    );
  });

  // Every route under /app/api/ comes through the app API plugin and its
  // guard: checked once all hooks have run on every route (the plugin marks
  // its routes in a hook of its own, which runs after this one).
  const routes: RouteOptions[] = [];
  server.addHook("onRoute", (route) => {
    routes.push(route);
  });
  server.addHook("onReady", (done) => {
    const unguarded = routes.filter((r) => isAppApiPath(r.url) && !isGuardedAppRoute(r.config));
    done(
      unguarded.length === 0
        ? undefined
        : new Error(
            `${unguarded.map((r) => r.url).join(", ")}: under /app/api/ but not registered through appApi.ts`,
          ),
    );
  });
  // First: a refused request gets no CORS headers from the hooks after it.
  const hosts = options.hosts ?? { configuredHost: "127.0.0.1", allowedHosts: [] };
  registerBrowserGuard(server, hosts);
  registerCors(server);
  registerAppHeaders(server);
  registerHealthRoutes(server, ctx);
  registerInfoRoutes(server, ctx);
  registerCutRoutes(server, ctx);
  registerP2pRoutes(server, ctx);
  registerPrivateRoutes(server, ctx);
  registerHashRoutes(server, ctx);
  registerHeaderRoutes(server, ctx);
  registerBlockRoutes(server, ctx);
  registerHeaderUpdatesRoute(server, ctx);
  registerMiningRoutes(server, ctx);
  registerPactRoutes(server, ctx);
  registerBackupRoutes(server, ctx);
  registerAppUiRoutes(server, ctx);
  registerAppConfigRoute(server, ctx);
  registerAppApi(server, ctx, APP_API_ROUTES, hosts);
  return { server, base, streams, routes };
}
