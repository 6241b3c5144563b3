/**
 * The peer-only routes (docs/p2p.md), present when the node has its peer
 * network: `PUT {base_url}/cut` (a peer publishes its cut: body the cut JSON
 * with `origin` naming the sender, 204; reference chainweb-api.md §5.2) and
 * `GET {base_url}/cut/peer` (the peers this node uses, a page of
 * `{id, address: {hostname, port}}`, for peer exchange). Route kind
 * `private`: no CORS, web pages refused.
 * @module
 */
import type { FastifyInstance } from "fastify";
import { type RouteContext, sendJson } from "../routeContext.ts";

export function registerP2pRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const p2p = ctx.node.p2p;
  if (p2p === undefined) return;
  server.put(
    `${ctx.base}/cut`,
    { config: { access: "private", bodyType: "application/json" } },
    (request, reply) => {
      // Where it came from bounds the addresses it may make this node verify (peerBook.ts).
      p2p.receiveCut(request.body, request.ip);
      reply.code(204).send();
    },
  );
  server.get(`${ctx.base}/cut/peer`, { config: { access: "private" } }, (_request, reply) => {
    const items = p2p.peerAddresses().map((a) => ({
      id: a.id ?? null,
      address: { hostname: a.hostname, port: a.port },
    }));
    sendJson(reply, { limit: items.length, items, next: null });
  });
}
