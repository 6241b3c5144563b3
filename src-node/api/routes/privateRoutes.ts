/**
 * The peer-only routes of `/private` (docs/private.md "Routes"), present
 * when the node has its private service: `GET {base_url}/private/entity`
 * (this node's entity name, or null, and its public identity key, base64url)
 * and `POST {base_url}/private/envelope` (a peer delivers a private command
 * sealed for this node's entity, signed by a trusted sender; 200 with the
 * entity's signed receipt `{"requestKey", "parties", "signature"}` once it ran).
 * Route kind `private`: no CORS, web pages refused. `/private` itself and
 * its results in `/poll` are in pactRoutes.ts.
 * @module
 */
import type { FastifyInstance } from "fastify";
import { type RouteContext, sendJson } from "../routeContext.ts";

export function registerPrivateRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const service = ctx.node.private;
  if (service === undefined) return;
  server.get(`${ctx.base}/private/entity`, { config: { access: "private" } }, (_request, reply) => {
    sendJson(reply, service.announced());
  });
  server.post(
    `${ctx.base}/private/envelope`,
    { config: { access: "private", bodyType: "application/json" } },
    (request, reply) => {
      sendJson(reply, service.receive(request.body));
    },
  );
}
