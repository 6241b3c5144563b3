/**
 * The contract command endpoints (spec "Contract command endpoints";
 * reference chainweb-api.md §11), under
 * `{base_url}/chain/{chain}/pact/api/v1/`:
 * - `POST local[?preflight&signatureVerification&rewindDepth]`: a command →
 *   its result (or `{preflightResult, preflightWarnings}`), nothing persists;
 * - `POST send`: `{cmds: [command, …]}` (non-empty) → `{requestKeys}`, all
 *   or nothing;
 * - `POST poll[?confirmationDepth]`: `{requestKeys: […]}` (non-empty) →
 *   `{requestKey: result}` for the keys found;
 * - `POST listen`: `{listen: requestKey}` → the result, once it exists
 *   (504 after the node's listen timeout);
 * - `POST private`: a command with private metadata → `{requestKeys}`
 *   once delivered to the addressed nodes (p2p/private/privateService.ts,
 *   docs/private.md); `/poll` also answers the results of private commands
 *   this node ran;
 * - `POST spv` (also `{base_url}/chain/{chain}/pact/spv`, the reference's
 *   path): `{requestKey, targetChainId}` → the proof as a JSON string,
 *   once the target chain is high enough (waits, bounded by a timeout).
 * Body shapes are checked here (400 text/plain naming the field); commands
 * by exec/ and mempool/ (CMD_*, EXEC_*: statuses in errorStatus.ts).
 * @module
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type CommandService, pollAnswer } from "../../mempool/commandService.ts";
import { badRequest } from "../errors.ts";
import { parseChainParam, parseNaturalParam, propertyOf } from "../params.ts";
import type { RouteContext } from "../routeContext.ts";

const REQUEST_KEY = /^[a-zA-Z0-9_-]{43}$/;

/** Fastify's body schema: an object; the members are checked by the handlers (clearer texts). */
const objectBody = { body: { type: "object" } } as const;

function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.code(200).header("content-type", "application/json; charset=utf-8").send(text);
}

/** A `true`/`false` query parameter (absent: `fallback`). */
export function parseBooleanParam(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (Array.isArray(value)) throw badRequest(field, "given more than once");
  if (value === "true" || value === "") return true;
  if (value === "false") return false;
  throw badRequest(field, `expected true or false, got ${JSON.stringify(value)}`);
}

/** A request key (43 characters of a-z A-Z 0-9 _ -). */
export function parseRequestKey(value: unknown, field: string): string {
  if (typeof value !== "string") throw badRequest(field, "expected a request key (a string)");
  if (!REQUEST_KEY.test(value)) {
    throw badRequest(
      field,
      `expected a request key: 43 characters of a-z A-Z 0-9 _ -, got ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}`,
    );
  }
  return value;
}

function nonEmptyArray(body: unknown, key: string, what: string): unknown[] {
  const v = propertyOf(body, key);
  if (v === undefined) throw badRequest(key, `missing: the body must be {"${key}": [${what}, …]}`);
  if (!Array.isArray(v)) throw badRequest(key, `expected an array of ${what}s`);
  if (v.length === 0) throw badRequest(key, `empty: give at least one ${what}`);
  return v;
}

export function registerPactRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const commands: CommandService | undefined = ctx.node.commands;
  if (commands === undefined) return;
  const { blocks } = ctx.node;
  const prefix = `${ctx.base}/chain/:chain/pact/api/v1`;
  const chainOf = (params: unknown) => parseChainParam(blocks, propertyOf(params, "chain"));

  server.post(`${prefix}/local`, { schema: objectBody }, (request, reply) => {
    const chainId = chainOf(request.params);
    const q = request.query;
    const options = {
      preflight: parseBooleanParam(propertyOf(q, "preflight"), "preflight", false),
      signatureVerification: parseBooleanParam(
        propertyOf(q, "signatureVerification"),
        "signatureVerification",
        true,
      ),
      rewindDepth: parseNaturalParam(propertyOf(q, "rewindDepth"), "rewindDepth") ?? 0,
    };
    const answer = commands.localNowOrLater(chainId, request.body, options);
    // A command run on the node's thread is answered in this turn, without a
    // promise (the small commands wallets send: the busiest path).
    if (typeof answer === "string") {
      sendJsonText(reply, answer);
      return;
    }
    return answer.then((text) => {
      sendJsonText(reply, text);
    });
  });

  server.post(`${prefix}/send`, { schema: objectBody }, (request, reply) => {
    const chainId = chainOf(request.params);
    const cmds = nonEmptyArray(request.body, "cmds", "command");
    const requestKeys = commands.send(chainId, cmds);
    sendJsonText(reply, JSON.stringify({ requestKeys }));
  });

  server.post(`${prefix}/poll`, { schema: objectBody }, (request, reply) => {
    const chainId = chainOf(request.params);
    const depth =
      parseNaturalParam(propertyOf(request.query, "confirmationDepth"), "confirmationDepth") ?? 0;
    const keys = nonEmptyArray(request.body, "requestKeys", "request key").map((k, i) =>
      parseRequestKey(k, `requestKeys[${i}]`),
    );
    // Results of private commands this node ran (docs/private.md) join the public ones.
    const privately = ctx.node.private?.poll(chainId, keys);
    if (privately === undefined || privately.size === 0) {
      sendJsonText(reply, commands.poll(chainId, keys, depth));
    } else {
      const publicly = commands.executor.poll(chainId, keys, depth);
      sendJsonText(reply, pollAnswer(new Map([...publicly, ...privately])));
    }
  });

  server.post(`${prefix}/listen`, { schema: objectBody }, async (request, reply) => {
    const chainId = chainOf(request.params);
    const key = propertyOf(request.body, "listen");
    if (key === undefined)
      throw badRequest("listen", 'missing: the body must be {"listen": <request key>}');
    const requestKey = parseRequestKey(key, "listen");
    const abort = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) abort.abort();
    };
    reply.raw.on("close", onClose);
    try {
      const text = await commands.listen(chainId, requestKey, abort.signal);
      return sendJsonText(reply, text);
    } finally {
      reply.raw.off("close", onClose);
    }
  });

  server.post(`${prefix}/private`, { schema: objectBody }, async (request, reply) => {
    const chainId = chainOf(request.params);
    const service = ctx.node.private;
    if (service === undefined) return commands.private(chainId, request.body);
    return sendJsonText(reply, JSON.stringify(await service.send(chainId, request.body)));
  });

  const spv = async (request: FastifyRequest, reply: FastifyReply) => {
    const chainId = chainOf(request.params);
    const body = request.body;
    for (const key of ["requestKey", "targetChainId"]) {
      if (propertyOf(body, key) === undefined)
        throw badRequest(
          key,
          'missing: the body must be {"requestKey": <request key>, "targetChainId": <chain id>}',
        );
    }
    const abort = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) abort.abort();
    };
    reply.raw.on("close", onClose);
    try {
      const proof = await commands.spv.proof(
        chainId,
        propertyOf(body, "requestKey"),
        propertyOf(body, "targetChainId"),
        abort.signal,
      );
      return sendJsonText(reply, JSON.stringify(proof));
    } finally {
      reply.raw.off("close", onClose);
    }
  };
  server.post(`${prefix}/spv`, { schema: objectBody }, spv);
  server.post(`${ctx.base}/chain/:chain/pact/spv`, { schema: objectBody }, spv);
}
