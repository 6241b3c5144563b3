/**
 * CORS on the public routes (browserGuard.ts; not the mining and backup
 * routes): GET and HEAD responses carry
 * `access-control-allow-origin: *`, so web pages on other origins (an
 * explorer, a wallet page) can read chain data; preflight requests are
 * answered for GET and HEAD only, so no other origin can POST to the node
 * from a browser with a JSON body. The node's own UI under /app/ is
 * same-origin and gets no CORS at all: no headers, and preflights there are
 * refused (docs/desktop.md §3.3).
 * @module
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isAppPath } from "./appPath.ts";
import { routeAccess } from "./browserGuard.ts";

const READ_METHODS = new Set(["GET", "HEAD"]);

function hasCors(request: FastifyRequest): boolean {
  return (
    READ_METHODS.has(request.method) && !isAppPath(request.url) && routeAccess(request) === "public"
  );
}

/** CORS headers for a response to `request` (empty for non-read methods, private routes and under /app/). */
export function corsHeaders(request: FastifyRequest): Record<string, string> {
  return hasCors(request) ? { "access-control-allow-origin": "*" } : {};
}

function preflight(request: FastifyRequest, reply: FastifyReply): void {
  if (isAppPath(request.url)) {
    reply
      .code(403)
      .type("text/plain; charset=utf-8")
      .send("the app's routes under /app/ do not accept cross-origin requests\n");
    return;
  }
  const method = String(request.headers["access-control-request-method"] ?? "").toUpperCase();
  if (!READ_METHODS.has(method)) {
    reply
      .code(403)
      .type("text/plain; charset=utf-8")
      .send("cross-origin requests are allowed for GET and HEAD only\n");
    return;
  }
  const requested = request.headers["access-control-request-headers"];
  reply
    .code(204)
    .header("access-control-allow-origin", "*")
    .header("access-control-allow-methods", "GET, HEAD")
    .header("access-control-allow-headers", typeof requested === "string" ? requested : "accept")
    .header("access-control-max-age", "86400")
    .send();
}

export function registerCors(server: FastifyInstance): void {
  server.addHook("onRequest", (request, reply, done) => {
    if (hasCors(request)) reply.header("access-control-allow-origin", "*");
    done();
  });
  server.options("/*", preflight);
}
