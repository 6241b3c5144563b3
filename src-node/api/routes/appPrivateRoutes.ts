/**
 * `/app/api/private` (the Node page's private entities; docs/private.md
 * "The Node page"), registered inside the guarded app API plugin
 * (appApi.ts: loopback only, the app token, no foreign Host or Origin):
 *
 * - `GET /app/api/private`: this node's entity, public key and fingerprint,
 *   the pinned entities, and each party set's private chain (steps, running
 *   digest, the newest comparison with each other party; `diverged` when
 *   any comparison found the histories differ).
 * - `POST /app/api/private/trusted/check` `{"name", "publicKey"}`: what
 *   pinning would store (fingerprint included), checked, nothing stored.
 * - `POST /app/api/private/trusted` `{"name", "publicKey"}`: pins the entity.
 * - `DELETE /app/api/private/trusted/{name}`: removes a pin made in the app.
 * @module
 */
import type { FastifyInstance } from "fastify";
import { appRoutes } from "../../appContract/appRoutes.ts";
import { registerAppRoute } from "../registerAppRoute.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

const pinSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name", "publicKey"],
  properties: { name: { type: "string" }, publicKey: { type: "string" } },
} as const;

export function registerAppPrivateRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  const service = ctx.node.private;
  if (service === undefined) return;
  registerAppRoute(scope, appRoutes.private.entities, {
    handler: (_request, reply) => {
      const { heads, checks } = service.partyChains();
      const chains = heads.map((h) => ({
        chainId: h.chainId,
        parties: h.parties.split(","),
        steps: h.steps,
        digest: h.digest,
        checks: checks
          .filter((c) => c.chainId === h.chainId && c.parties === h.parties)
          .map((c) => ({
            entity: c.entity,
            at: new Date(c.at).toISOString(),
            result: c.result,
            theirSteps: c.theirSteps,
            ourSteps: c.ourSteps,
          })),
      }));
      sendJson(reply, {
        ...service.identity(),
        trusted: service.trust.list(),
        chains,
        diverged: checks.some((c) => c.result === "diverged"),
      });
    },
  });
  registerAppRoute(scope, appRoutes.private.checkPin, {
    bodySchema: pinSchema,
    handler: (request, reply) => {
      sendJson(reply, service.trust.check(request.body.name, request.body.publicKey));
    },
  });
  registerAppRoute(scope, appRoutes.private.pin, {
    bodySchema: pinSchema,
    handler: (request, reply) => {
      const pinned = service.trust.add(request.body.name, request.body.publicKey);
      ctx.node.log?.info(
        `p2p: private: the app pinned entity ${pinned.name} (${pinned.fingerprint})`,
      );
      sendJson(reply, pinned);
    },
  });
  registerAppRoute(scope, appRoutes.private.unpin, {
    handler: (request, reply) => {
      const name = request.params.name;
      service.trust.remove(name);
      ctx.node.log?.info(`p2p: private: the app removed the pin of entity ${name}`);
      reply.code(204).send();
    },
  });
}
