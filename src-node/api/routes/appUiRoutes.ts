/**
 * The built UI under `/app/` (docs/desktop.md §3.1): `GET /app` redirects to
 * `/app/`, `/app/` is `index.html`, `/app/assets/*` the bundled files. The
 * files come from the renderer folder (rendererDir.ts) through
 * @fastify/static.
 *
 * Loading the page (`/app/` or `/app/index.html`) sets the app token's
 * cookie (appToken.ts) unless the node's host turned that off.
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
import type { FastifyInstance, FastifyReply } from "fastify";
import { isNodeError } from "../../errors/nodeError.ts";
import { APP_PREFIX } from "../appPath.ts";
import { appTokenCookie } from "../appToken.ts";
import { ApiError, ApiErrorCode } from "../errors.ts";
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

export function registerAppUiRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const rendererDir = ctx.node.rendererDir ?? defaultRendererDir();
  server.get("/app", (request, reply) => {
    const query = request.url.slice("/app".length);
    reply.redirect(`${APP_PREFIX}${query}`, 301);
  });
  server.register(async (scope) => {
    scope.addHook("onRequest", async () => {
      if (!isRendererBuilt(rendererDir)) throw notBuilt(rendererDir);
    });
    if (ctx.appToken.cookieOnPageLoad) {
      // The page hands the app token to its own later requests (appToken.ts).
      scope.addHook("onSend", (request, reply, payload, done) => {
        const path = request.url.split("?")[0];
        if (
          reply.statusCode === 200 &&
          request.method === "GET" &&
          (path === APP_PREFIX || path === `${APP_PREFIX}index.html`)
        ) {
          reply.header("set-cookie", appTokenCookie(request, ctx.appToken));
        }
        done(null, payload);
      });
    }
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
