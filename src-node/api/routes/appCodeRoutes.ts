/**
 * `POST /app/api/app-code` with the body `{}`: a new one-time code that opens
 * the app in a browser (appCodes.ts), for `weft app-url` (cli/appUrl.ts).
 * Registered inside the app API plugin (appApi.ts), which guards it: only a
 * client that already holds the app token (the token file's header, the
 * cookie) gets one. Answers `200 {"code", "expiresAt"}` (`expiresAt`: ISO
 * 8601; the code works once, for five minutes); the address to open is
 * `<the node's origin>/app/?code=<code>`.
 * @module
 */
import type { FastifyInstance } from "fastify";
import { appRoutes } from "../../appContract/appRoutes.ts";
import { APP_CODE_LIFETIME_MS } from "../appCodes.ts";
import { registerAppRoute } from "../registerAppRoute.ts";
import type { RouteContext } from "../routeContext.ts";

/** What `POST /app/api/app-code` answers. */
export type AppCodeAnswer = { readonly code: string; readonly expiresAt: string };

const bodySchema = { type: "object", additionalProperties: false, properties: {} } as const;

export function registerAppCodeRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  registerAppRoute(scope, appRoutes.app.code, {
    bodySchema,
    handler: async (_request, reply) => {
      const issued = ctx.appToken.codes.issue(APP_CODE_LIFETIME_MS);
      const answer: AppCodeAnswer = {
        code: issued.code,
        expiresAt: new Date(issued.expiresAt ?? 0).toISOString(),
      };
      return reply.header("cache-control", "no-store").send(answer);
    },
  });
}
