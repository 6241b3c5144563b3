/**
 * `GET /info` and `GET {base_url}/info`: the node information object (nodeInfo.ts).
 * @module
 */
import type { FastifyInstance } from "fastify";
import { nodeInfo } from "../nodeInfo.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

export function registerInfoRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const info = nodeInfo(ctx.node.version, ctx.node.packageVersion, ctx.node.serviceDate);
  for (const path of ["/info", `${ctx.base}/info`]) {
    server.get(path, (_request, reply) => sendJson(reply, info));
  }
}
