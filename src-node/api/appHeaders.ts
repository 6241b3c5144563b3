/**
 * The security headers of everything under `/app/` (docs/desktop.md §3.1):
 * the UI's Content-Security-Policy and `X-Content-Type-Options: nosniff`, on
 * pages, assets, `config.json`, `/app/api/*` and errors alike, so no answer
 * under `/app/` can run as a page with a weaker policy.
 * @module
 */
import type { FastifyInstance } from "fastify";
import { APP_CSP_HEADER } from "./appCsp.ts";
import { isAppPath } from "./appPath.ts";

export const APP_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": APP_CSP_HEADER,
  "x-content-type-options": "nosniff",
};

export function registerAppHeaders(server: FastifyInstance): void {
  server.addHook("onSend", (request, reply, payload, done) => {
    if (isAppPath(request.url)) reply.headers(APP_SECURITY_HEADERS);
    done(null, payload);
  });
}
