/**
 * The HTTP server of Chainweaver's local signing API on its own port (docs/dapp-signing.md):
 * `POST /v1/sign`, `POST /v1/quicksign` and their CORS preflights, nothing else. Web dapps
 * call it from any origin, so CORS is open (as Chainweaver's); what guards the keys is the
 * user's click on the wallet page, which sees every request with its `Origin`. The server
 * only takes requests from this computer (bound to 127.0.0.1, the peer address checked too)
 * naming a loopback `Host` with this port (no DNS rebinding), with JSON bodies matching the
 * API's schema, read with the exact JSON parser (exactBody.ts: a `/v1/sign` request's numbers
 * reach the command as the dapp wrote them), and an `Origin` that is a web origin, `null` or
 * absent; each request is held in the {@link SignRequestQueue} until it is answered, or refused
 * at once when the queue's bounds say so (409 one per origin, 429 too often or too many).
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
  SignRequestRefusal,
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
  // A dapp told to wait may read how long.
  "access-control-expose-headers": "retry-after",
  // Chromium's private network access: a public dapp may call this loopback address.
  "access-control-allow-private-network": "true",
} as const;

function send(reply: FastifyReply, answer: HttpAnswer): void {
  reply.code(answer.status).headers(CORS);
  if (answer.headers !== undefined) reply.headers(answer.headers);
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

/**
 * What a request the queue turned away is answered: 409 naming the origin's waiting request
 * (MetaMask's "already pending for origin"), 429 with `Retry-After` when the origin asked too
 * often, 429 when the queue is full.
 */
function queueRefusal(url: string, r: SignRequestRefusal): HttpAnswer {
  switch (r.reason) {
    case "originBusy":
      return refusal(
        url,
        409,
        `a ${r.pending.kind} request from this origin (id ${r.pending.id}, received ${new Date(r.pending.receivedAt).toISOString()}) waits for the user in Weft already: one request at a time per origin; wait for its answer`,
      );
    case "rateLimited": {
      const seconds = Math.ceil(r.retryAfterMs / 1000);
      return {
        ...refusal(
          url,
          429,
          `too many signing requests from this origin: ask again in ${seconds} s`,
        ),
        headers: { "retry-after": String(seconds) },
      };
    }
    case "full":
      return refusal(
        url,
        429,
        `too many signing requests wait for the user already (${r.max}, from all origins)`,
      );
  }
}

/** A serialized web origin (`scheme://host[:port]`), as browsers send it. */
const WEB_ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]+$/;

/**
 * The requesting page as its `Origin` header names it: null without the header (a program
 * on this computer: browsers send it with every cross-origin POST), `"null"` for a page whose
 * origin is hidden (a sandboxed frame, a `file:` page, a redirect), else the web origin;
 * undefined when the header is none of these (no browser sends that).
 */
export function originOf(header: string | string[] | undefined): string | null | undefined {
  if (header === undefined) return null;
  if (typeof header !== "string") return undefined;
  if (header === "null") return "null";
  return header.length <= 300 && WEB_ORIGIN.test(header) ? header : undefined;
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

  /**
   * Holds the request in the queue until it ends, or answers at once when the queue turns it
   * away (or its `Origin` is not one).
   */
  const hold = async (
    kind: SignRequestKind,
    body: unknown,
    rules: AnswerRules,
    reply: FastifyReply,
    text: string | null,
  ) => {
    const url = reply.request.url;
    const origin = originOf(reply.request.headers.origin);
    if (origin === undefined) {
      send(reply, refusal(url, 400, "Origin: not a web origin (scheme://host[:port]) nor null"));
      return;
    }
    const held = queue.ask(kind, origin, body, rules, text);
    if (!held.ok) {
      send(reply, queueRefusal(url, held.refusal));
      return;
    }
    // The dapp went away (tab closed, fetch aborted): it withdrew the request.
    reply.raw.once("close", () => {
      if (!reply.raw.writableEnded) held.cancel();
    });
    send(reply, await held.answer);
  };

  server.post(SIGN_PATH, { schema: { body: signBodySchema } }, async (request, reply) => {
    const body = request.body as SignBody;
    const text = exactBodyText(request) ?? null;
    await hold("sign", body, signRules(body), reply, text);
  });

  server.post(QUICKSIGN_PATH, { schema: { body: quicksignBodySchema } }, async (request, reply) => {
    const checked = checkQuicksign(request.body as QuicksignBody);
    if (!checked.ok) {
      send(reply, checked.error);
      return;
    }
    await hold(
      "quicksign",
      { cmdSigDatas: checked.value },
      quicksignRules(checked.value),
      reply,
      null,
    );
  });

  return server;
}
