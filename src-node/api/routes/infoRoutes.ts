/**
 * `GET /info` and `GET {base_url}/info`: the node information object (nodeInfo.ts).
 * With `?challenge=C` (32 bytes of base64url) and a peer network, it also
 * carries the node's identity and its signature over the challenge
 * (`nodeId`, `nodeProof`: p2p/nodeIdentity.ts), which a peer verifying this
 * node asks for (docs/p2p.md).
 * @module
 */
import type { FastifyInstance } from "fastify";
import { parseChallenge } from "../../p2p/nodeIdentity.ts";
import { nodeInfo } from "../nodeInfo.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

// Other query parameters are ignored, as before the challenge.
const querystring = { type: "object", properties: { challenge: { type: "string" } } } as const;

export function registerInfoRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const info = nodeInfo(ctx.node.version, ctx.node.packageVersion, ctx.node.serviceDate);
  const identity = ctx.node.p2p?.identity;
  for (const path of ["/info", `${ctx.base}/info`]) {
    server.get(path, { schema: { querystring } }, (request, reply) => {
      const challenge = (request.query as { challenge?: unknown }).challenge;
      if (challenge === undefined || identity === undefined) return sendJson(reply, info);
      return sendJson(reply, {
        ...info,
        ...identity.prove(ctx.node.version.name, parseChallenge(challenge)),
      });
    });
  }
}
