/**
 * `/app/api/peers` (the Node page's peers panel; docs/p2p.md): `GET` lists
 * the peers (address, source, network check, cut height, latency,
 * misbehaviour score, banned until, failures, last error) and the sync
 * status (`{peers: [...], sync: {...}}`); `POST {"address": "HOST:PORT"}`
 * adds a peer; `DELETE /app/api/peers/{HOST:PORT}` removes one. Registered
 * inside the app API plugin (appApi.ts), which guards it.
 * @module
 */
import type { FastifyInstance } from "fastify";
import { appRoutes } from "../../appContract/appRoutes.ts";
import { registerAppRoute } from "../registerAppRoute.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

const addPeerSchema = {
  type: "object",
  additionalProperties: false,
  required: ["address"],
  properties: { address: { type: "string" } },
} as const;

export function registerAppPeerRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  const p2p = ctx.node.p2p;
  if (p2p === undefined) return;
  registerAppRoute(scope, appRoutes.peers.list, {
    handler: (_request, reply) => {
      sendJson(reply, { peers: p2p.peers(), sync: p2p.status() });
    },
  });
  registerAppRoute(scope, appRoutes.peers.add, {
    bodySchema: addPeerSchema,
    handler: (request, reply) => {
      sendJson(reply, p2p.addPeer(request.body.address));
    },
  });
  registerAppRoute(scope, appRoutes.peers.remove, {
    handler: (request, reply) => {
      p2p.removePeer(request.params.address);
      reply.code(204).send();
    },
  });
}
