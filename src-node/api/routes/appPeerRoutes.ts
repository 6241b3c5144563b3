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
import { propertyOf } from "../params.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

export const APP_PEERS_PATH = "/app/api/peers";

const addPeerSchema = {
  type: "object",
  additionalProperties: false,
  required: ["address"],
  properties: { address: { type: "string" } },
} as const;

export function registerAppPeerRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  const p2p = ctx.node.p2p;
  if (p2p === undefined) return;
  scope.get(APP_PEERS_PATH, (_request, reply) => {
    sendJson(reply, { peers: p2p.peers(), sync: p2p.status() });
  });
  scope.post(APP_PEERS_PATH, { schema: { body: addPeerSchema } }, (request, reply) => {
    const peer = p2p.addPeer(propertyOf(request.body, "address"));
    sendJson(reply, peer);
  });
  scope.delete(`${APP_PEERS_PATH}/:address`, (request, reply) => {
    p2p.removePeer(propertyOf(request.params, "address"));
    reply.code(204).send();
  });
}
