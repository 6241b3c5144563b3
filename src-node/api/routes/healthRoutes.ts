/**
 * `GET /health-check` and `GET {base_url}/health-check`: 200 text/plain
 * "Health check OK.\n" whenever the node answers requests (reference §8.2).
 * @module
 */
import type { FastifyInstance } from "fastify";
import type { RouteContext } from "../routeContext.ts";

export const HEALTH_CHECK_TEXT = "Health check OK.\n";

export function registerHealthRoutes(server: FastifyInstance, ctx: RouteContext): void {
  for (const path of ["/health-check", `${ctx.base}/health-check`]) {
    server.get(path, (_request, reply) => {
      reply.code(200).type("text/plain; charset=utf-8").send(HEALTH_CHECK_TEXT);
    });
  }
}
