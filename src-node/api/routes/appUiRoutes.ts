/**
 * The built UI under `/app/` (docs/desktop.md §3.1): `GET /app` redirects to
 * `/app/`, `/app/` is `index.html`, `/app/assets/*` the bundled files. The
 * files come from the renderer folder (rendererDir.ts) through
 * @fastify/static.
 *
 * The page (`/app/` or `/app/index.html`) is served only to a client that
 * carries the app token (the desktop's header, the cookie). `/app/?code=…`
 * with a one-time code that works (appCodes.ts), from this computer or any
 * with `--app-remote`, sets the cookie and answers 303 to the clean `/app/`;
 * a node whose host turned the exchange off (the desktop) sets none. Any
 * other request for the page gets the page of appLockedPage.ts (200), which
 * says where the address is found and hands out nothing. The other files
 * (the bundled assets, the icon) are the same for everyone and need nothing.
 *
 * Caching: file names under `assets/` carry a content hash, so they may be
 * kept for a year; everything else (index.html, the icon) is revalidated.
 *
 * The folder is looked at on every request, so a UI built while the node
 * runs is served at once; until then every file answers 503 with the hint
 * to run `npm run build:renderer` (API_UI_NOT_BUILT), never a 500.
 *
 * A path that can name no file (a NUL byte, a name too long for the file
 * system) is 404 like a missing file; @fastify/static would answer a bare
 * "Forbidden".
 * @module
 */
import { existsSync, statSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isNodeError } from "../../errors/nodeError.ts";
import { APP_CODE_PARAM } from "../appCodes.ts";
import {
  LOCKED_PAGE_CSS,
  LOCKED_PAGE_CSS_PATH,
  type LockedReason,
  lockedPageHtml,
} from "../appLockedPage.ts";
import { APP_PREFIX } from "../appPath.ts";
import { appTokenCookie, carriesAppToken } from "../appToken.ts";
import { appUrlCommandLine } from "../appUrlCommandLine.ts";
import { ApiError, ApiErrorCode } from "../errors.ts";
import { isLoopbackPeer, parseHostHeader } from "../hostCheck.ts";
import { defaultRendererDir, isRendererBuilt } from "../rendererDir.ts";
import type { RouteContext } from "../routeContext.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

function notBuilt(rendererDir: string): ApiError {
  return new ApiError(
    { code: ApiErrorCode.UiNotBuilt, rendererDir },
    "The Weft UI has not been built: dist/renderer/index.html is missing. " +
      "Run `npm run build:renderer` (or `npm start`, which builds it) in the Weft folder, " +
      "then reload this page.",
  );
}

function cacheHeaders(reply: FastifyReply, path: string): void {
  const assets = /[\\/]assets[\\/][^\\/]+$/.test(path);
  reply.header("cache-control", assets ? IMMUTABLE : REVALIDATE);
}

/** `weft app-url` with the options that name this node's data folder (shown to this computer). */
function commandFor(ctx: RouteContext, local: boolean): string {
  const dataDir = ctx.node.dataDir;
  if (!local || dataDir === undefined) return appUrlCommandLine("DIR", "NAME");
  return appUrlCommandLine(dataDir, ctx.node.version.name);
}

function sendLocked(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: RouteContext,
  reason: LockedReason,
): FastifyReply {
  const port =
    request.raw.socket?.localPort ?? parseHostHeader(request.headers.host ?? "")?.port ?? 80;
  // 200, like any sign-in page: the page is an answer, and what it withholds is the cookie.
  return reply
    .code(200)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .send(
      lockedPageHtml({
        reason,
        port,
        appUrlCommand: commandFor(ctx, isLoopbackPeer(request)),
      }),
    );
}

/**
 * The page's gate (see the module): undefined when the page may be served, else the answer
 * sent (the cookie's 303, or the locked page).
 */
function gatePage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: RouteContext,
): FastifyReply | undefined {
  const [path, query] = request.url.split("?", 2) as [string, string | undefined];
  if (path !== APP_PREFIX && path !== `${APP_PREFIX}index.html`) return undefined;
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const token = ctx.appToken;
  const carries = carriesAppToken(request, token);
  const code = new URLSearchParams(query ?? "").get(APP_CODE_PARAM);
  if (code === null) return carries ? undefined : sendLocked(request, reply, ctx, lockedFor());
  // A code is used up only by a client that may have the cookie: another computer's request
  // (without --app-remote) leaves it for its owner.
  const allowed = token.cookieByCode && (token.remote || isLoopbackPeer(request));
  if (allowed && token.codes.redeem(code)) {
    reply.header("set-cookie", appTokenCookie(request, token));
  } else if (!carries) {
    return sendLocked(request, reply, ctx, allowed ? "code-refused" : lockedFor());
  }
  // The clean address: the code leaves the address bar (and the history's newest entry).
  return reply
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .redirect(APP_PREFIX, 303);

  function lockedFor(): LockedReason {
    if (!token.cookieByCode) return "desktop";
    return token.remote || isLoopbackPeer(request) ? "no-code" : "not-this-computer";
  }
}

export function registerAppUiRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const rendererDir = ctx.node.rendererDir ?? defaultRendererDir();
  server.get("/app", (request, reply) => {
    const query = request.url.slice("/app".length);
    reply.redirect(`${APP_PREFIX}${query}`, 301);
  });
  server.register(async (scope) => {
    scope.addHook("onRequest", async (request, reply) => {
      if (!isRendererBuilt(rendererDir)) throw notBuilt(rendererDir);
      return gatePage(request, reply, ctx);
    });
    scope.get(LOCKED_PAGE_CSS_PATH, async (_request, reply) =>
      reply
        .header("content-type", "text/css; charset=utf-8")
        .header("cache-control", "no-cache")
        .send(LOCKED_PAGE_CSS),
    );
    scope.setErrorHandler((error, request) => {
      const status = (error as { statusCode?: unknown }).statusCode;
      if (!isNodeError(error) && (status === 400 || status === 403)) {
        throw new ApiError(
          { code: ApiErrorCode.RouteNotFound, method: request.method, url: request.url },
          `no file at ${(request.url.split("?")[0] ?? "").slice(0, 200)}`,
        );
      }
      throw error;
    });
    // @fastify/static refuses a root that exists but is no folder; such a
    // node serves the 503 above instead of failing to start.
    if (existsSync(rendererDir) && !statSync(rendererDir).isDirectory()) {
      scope.get(`${APP_PREFIX}*`, async () => {
        throw notBuilt(rendererDir);
      });
      return;
    }
    await scope.register(fastifyStatic, {
      root: rendererDir,
      prefix: APP_PREFIX,
      index: "index.html",
      redirect: false,
      wildcard: true,
      decorateReply: false,
      cacheControl: false,
      dotfiles: "ignore",
      setHeaders: cacheHeaders,
    });
  });
}
