/**
 * The wallet page's side of the dapp signing API (docs/dapp-signing.md), inside the app API
 * plugin (appApi.ts), which guards it:
 * - `GET /app/api/wallet/dapp-signing`: `{enabled, port, listening, problem, timeoutSeconds}`;
 *   `POST` the same path `{enabled, port}` switches the API on (listening first: 409
 *   APP_DAPP_PORT_UNAVAILABLE when the port is taken) or off, and saves the setting.
 * - `GET /app/api/wallet/sign-requests?since=N`: the requests waiting for the user
 *   `{version, requests: [{id, kind, origin, receivedAt, expiresAt, body, text}], ended: [{id,
 *   reason, endedAt}]}` (how the latest ones stopped waiting: the page says so of the one on
 *   screen); when `since` is the current version it waits (up to 8 s) for a change first: the
 *   page long-polls it.
 * - `POST /app/api/wallet/sign-requests/:id` `{answer: "refused"}` or `{answer: "signed", sigs,
 *   cmd?}`: the user's answer to the request `id` the page showed, handed to that request's
 *   dapp only (`{answered: true}`); 410 APP_SIGN_REQUEST_WITHDRAWN when its dapp withdrew it,
 *   404 APP_SIGN_REQUEST_GONE when it no longer waits otherwise, 400 when the signatures do not
 *   fit it.
 * @module
 */
import type { FastifyInstance } from "fastify";
import { appRoutes } from "../../appContract/appRoutes.ts";
import type { SignerAnswer } from "../dappSigning/signRequestQueue.ts";
import { parseNaturalParam, propertyOf } from "../params.ts";
import { registerAppRoute } from "../registerAppRoute.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

/** How long a long-poll waits for a change (under the page client's 10 s timeout). */
export const SIGN_REQUESTS_WAIT_MS = 8000;

const settingsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["enabled", "port"],
  properties: {
    enabled: { type: "boolean" },
    port: { type: "integer", minimum: 1024, maximum: 65535 },
  },
} as const;

const SIG_OR_NULL = {
  anyOf: [{ type: "null" }, { type: "string", pattern: "^[0-9a-fA-F]{128}$" }],
} as const;

const answerSchema = {
  type: "object",
  additionalProperties: false,
  required: ["answer"],
  properties: {
    answer: { enum: ["signed", "refused"] },
    cmd: { type: "string", maxLength: 500_000 },
    sigs: {
      type: "array",
      maxItems: 100,
      items: { anyOf: [SIG_OR_NULL, { type: "array", maxItems: 100, items: SIG_OR_NULL }] },
    },
  },
} as const;

export function registerAppDappSigningRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  const dapp = ctx.node.dappSigning;
  if (dapp === undefined) return;
  registerAppRoute(scope, appRoutes.wallet.dappSigning, {
    handler: (_request, reply) => {
      sendJson(reply, dapp.status());
    },
  });
  registerAppRoute(scope, appRoutes.wallet.setDappSigning, {
    bodySchema: settingsSchema,
    handler: async (request, reply) => {
      const { enabled, port } = request.body;
      sendJson(reply, await dapp.configure({ enabled, port }));
      return reply;
    },
  });
  registerAppRoute(scope, appRoutes.wallet.signRequests, {
    handler: async (request, reply) => {
      const since = parseNaturalParam(propertyOf(request.query, "since"), "since");
      if (since !== undefined) {
        const gone = new AbortController();
        reply.raw.once("close", () => gone.abort());
        await dapp.queue.waitForChange(since, SIGN_REQUESTS_WAIT_MS, gone.signal);
      }
      sendJson(reply, {
        version: dapp.queue.version,
        requests: dapp.queue.list(),
        ended: dapp.queue.ended(),
      });
      return reply;
    },
  });
  registerAppRoute(scope, appRoutes.wallet.answerSignRequest, {
    bodySchema: answerSchema,
    handler: (request, reply) => {
      const body = request.body;
      const answer: SignerAnswer =
        body.answer === "refused"
          ? { answer: "refused" }
          : {
              answer: "signed",
              // The schema lets a signed answer without sigs through: checked as one with none.
              sigs: body.sigs ?? [],
              ...(body.cmd === undefined ? {} : { cmd: body.cmd }),
            };
      dapp.queue.answer(request.params.id, answer);
      sendJson(reply, { answered: true });
    },
  });
}
