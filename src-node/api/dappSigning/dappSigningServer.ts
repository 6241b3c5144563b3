/**
 * The HTTP server of Chainweaver's local signing API on its own port (docs/dapp-signing.md):
 * `POST /v1/sign`, `POST /v1/quicksign` and their CORS preflights, nothing else. Web dapps
 * call it from any origin, so CORS is open (as Chainweaver's); what guards the keys is the
 * user's click on the wallet page, which sees every request with its `Origin`. The server
 * only takes requests from this computer (bound to 127.0.0.1, the peer address checked too)
 * naming a loopback `Host` with this port (no DNS rebinding), with JSON bodies matching the
 * API's schema, read with the exact JSON parser (exactBody.ts: a `/v1/sign` request's numbers
 * reach the command as the dapp wrote them); each request is held in the
 * {@link SignRequestQueue} until it is answered.
 * @module
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from "fastify";
import { isLoopbackHost, isLoopbackPeer } from "../hostCheck.ts";
import { exactBodyText, parseBodiesExactly } from "./exactBody.ts";
import { checkQuicksign, quicksignError, quicksignRules, signRules } from "./signingAnswers.ts";
import {
  type QuicksignBody,
  quicksignBodySchema,
  type SignBody,
  signBodySchema,
} from "./signingApiSchemas.ts";
import type {
  AnswerRules,
  HttpAnswer,
  SignRequestKind,
  SignRequestQueue,
} from "./signRequestQueue.ts";

export const SIGN_PATH = "/v1/sign";
export const QUICKSIGN_PATH = "/v1/quicksign";

/** Largest body: 1 MiB (50 commands). */
const BODY_LIMIT = 1024 * 1024;

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-max-age": "600",
  // Chromium's private network access: a public dapp may call this loopback address.
  "access-control-allow-private-network": "true",
} as const;

function send(reply: FastifyReply, answer: HttpAnswer): void {
  reply.code(answer.status).headers(CORS);
  if ("json" in answer) {
    reply
      .header("content-type", "application/json; charset=utf-8")
      .send(JSON.stringify(answer.json));
  } else {
    reply.header("content-type", "text/plain; charset=utf-8").send(answer.text);
  }
}

/** The refusal of a bad request in the endpoint's own error form. */
function refusal(url: string, status: number, message: string): HttpAnswer {
  return url.startsWith(QUICKSIGN_PATH)
    ? quicksignError(status, { type: "other", msg: message })
    : { status, text: message };
}

function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (first === undefined) return error.message;
  const params = first.params as Record<string, unknown>;
  const path = first.instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (typeof params.additionalProperty === "string") {
    const field = path === "" ? params.additionalProperty : `${path}.${params.additionalProperty}`;
    return `${field}: unknown field`;
  }
  return `${path === "" ? "body" : path}: ${first.message ?? "invalid"}`;
}

/** The signing API's server over `queue`, not listening. */
export function buildDappSigningServer(queue: SignRequestQueue): FastifyInstance {
  const server = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false } },
  });
  server.removeContentTypeParser("text/plain");
  parseBodiesExactly(server);

  server.addHook("onRequest", (request, reply, done) => {
    if (!isLoopbackPeer(request) || !isLoopbackHost(request)) {
      send(
        reply,
        refusal(
          request.url,
          403,
          "the signing API answers only this computer, at 127.0.0.1 or localhost with its port",
        ),
      );
      return;
    }
    done();
  });

  server.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation !== undefined) {
      send(reply, refusal(request.url, 400, validationMessage(error)));
      return;
    }
    const s = error.statusCode;
    if (typeof s === "number" && s >= 400 && s < 500) {
      const message =
        s === 415
          ? "the body must be JSON (Content-Type: application/json)"
          : `body: ${error.message}`;
      send(reply, refusal(request.url, s, message));
      return;
    }
    send(reply, refusal(request.url, 500, "internal error"));
  });

  server.setNotFoundHandler((request, reply) => {
    send(reply, {
      status: 404,
      text: `no route for ${request.method} ${request.url.split("?")[0]}: the signing API serves POST ${SIGN_PATH} and POST ${QUICKSIGN_PATH}`,
    });
  });

  for (const path of [SIGN_PATH, QUICKSIGN_PATH]) {
    server.options(path, (_request, reply) => {
      reply.code(204).headers(CORS).send();
    });
  }

  /** Holds the request in the queue until it ends, or answers at once when the queue is full. */
  const hold = async (
    kind: SignRequestKind,
    origin: string | null,
    body: unknown,
    rules: AnswerRules,
    reply: FastifyReply,
    text: string | null,
  ) => {
    if (queue.full) {
      send(
        reply,
        refusal(reply.request.url, 429, "too many signing requests wait for the user already"),
      );
      return;
    }
    const held = queue.ask(kind, origin, body, rules, text);
    // The dapp went away (tab closed, fetch aborted): the request leaves the page's list.
    reply.raw.once("close", () => {
      if (!reply.raw.writableEnded) held.cancel();
    });
    send(reply, await held.answer);
  };

  const originOf = (header: string | undefined) =>
    header === undefined || header === "null" ? null : header.slice(0, 300);

  server.post(SIGN_PATH, { schema: { body: signBodySchema } }, async (request, reply) => {
    const body = request.body as SignBody;
    const text = exactBodyText(request) ?? null;
    await hold("sign", originOf(request.headers.origin), body, signRules(body), reply, text);
  });

  server.post(QUICKSIGN_PATH, { schema: { body: quicksignBodySchema } }, async (request, reply) => {
    const checked = checkQuicksign(request.body as QuicksignBody);
    if (!checked.ok) {
      send(reply, checked.error);
      return;
    }
    await hold(
      "quicksign",
      originOf(request.headers.origin),
      { cmdSigDatas: checked.value },
      quicksignRules(checked.value),
      reply,
      null,
    );
  });

  return server;
}
