/**
 * `GET/POST /app/api/mining`: the node's own UI turns the built-in miner on
 * and off, and sets its threads and reward account (docs/desktop.md §3.3; not
 * part of the ledger spec).
 *
 * Any web page the user visits can send requests to 127.0.0.1, so:
 * 1. the peer address must be 127.0.0.1, ::1 or ::ffff:127.0.0.1;
 * 2. the Host header must be `127.0.0.1:PORT`, `localhost:PORT` or
 *    `[::1]:PORT` where PORT is the port the request came in on (a Host
 *    without a port means 80), against DNS rebinding;
 * 3. an Origin header, when present, must be the origin of that Host (the
 *    node's own origin);
 * 4. a POST must be `application/json` (browsers then send a preflight,
 *    which is refused: OPTIONS answers 403);
 * 5. no CORS headers (cors.ts adds none under /app/).
 * Errors are JSON `{"code", "message"}`: 400 bad body, 403 (1–3 and
 * OPTIONS), 415 (4), 409 when mining cannot start.
 *
 * POST body: any of `{"enabled": boolean, "threads": 1..1024, "account":
 * string}`, plus Weft's optional `"publicKeys": [hex…]` and `"predicate"`
 * for accounts that are not `k:<key>` accounts. The answer is the new status.
 * @module
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { MinerInfo } from "../../chain/minerData.ts";
import { isNodeError } from "../../errors/nodeError.ts";
import type { BuiltInMiner } from "../../mining/builtInMiner.ts";
import { MiningError, MiningErrorCode } from "../../mining/errors.ts";
import { minerInfoOf } from "../../mining/minerInfo.ts";
import { statusOfCode } from "../errorStatus.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

export const APP_MINING_PATH = "/app/api/mining";

const FIELDS = new Set(["enabled", "threads", "account", "publicKeys", "predicate"]);
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const LOOPBACK_PEERS = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

function forbidden(reason: string): MiningError {
  return new MiningError(
    { code: MiningErrorCode.Forbidden, reason },
    `mining can be controlled only from the computer that runs the node (${reason})`,
  );
}

function badField(field: string, reason: string): MiningError {
  return new MiningError(
    { code: MiningErrorCode.BadRequest, field, reason },
    `${field}: ${reason}`,
  );
}

function isLoopbackAddress(address: string | undefined): boolean {
  return address !== undefined && LOOPBACK_PEERS.has(address);
}

/** @throws {MiningError} MINING_FORBIDDEN unless the request comes from this computer's own origin. */
function checkLocal(request: FastifyRequest): void {
  if (!isLoopbackAddress(request.raw.socket?.remoteAddress)) {
    throw forbidden("the request does not come from the loopback address");
  }
  const host = (request.headers.host ?? "").toLowerCase();
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(host);
  // inject() has no socket port; a real connection always has one.
  const localPort = request.raw.socket?.localPort;
  if (
    m === null ||
    !LOOPBACK_HOSTS.has(m[1] as string) ||
    (localPort !== undefined && Number(m[2] ?? "80") !== localPort)
  ) {
    throw forbidden(`Host ${JSON.stringify(host)} is not this computer's address`);
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) {
    throw forbidden(`Origin ${JSON.stringify(origin)} is not the node's own origin`);
  }
}

function contentTypeOf(request: FastifyRequest): string {
  return (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

type MinerChange = {
  enabled?: boolean;
  threads?: number;
  account?: string;
  publicKeys?: string[];
  predicate?: string;
};

function parseChange(body: unknown): MinerChange {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badField("body", "expected a JSON object");
  }
  const o = body as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!FIELDS.has(k)) throw badField(k, "unknown field");
  const change: MinerChange = {};
  if (o.enabled !== undefined) {
    if (typeof o.enabled !== "boolean") throw badField("enabled", "expected true or false");
    change.enabled = o.enabled;
  }
  if (o.threads !== undefined) {
    if (typeof o.threads !== "number") throw badField("threads", "expected an integer");
    change.threads = o.threads;
  }
  if (o.account !== undefined) {
    if (typeof o.account !== "string") throw badField("account", "expected a string");
    change.account = o.account;
  }
  if (o.publicKeys !== undefined) {
    if (!Array.isArray(o.publicKeys) || !o.publicKeys.every((k) => typeof k === "string")) {
      throw badField("publicKeys", "expected an array of hex public keys");
    }
    change.publicKeys = o.publicKeys;
  }
  if (o.predicate !== undefined) {
    if (typeof o.predicate !== "string") throw badField("predicate", "expected a string");
    change.predicate = o.predicate;
  }
  if (change.account === undefined && (change.publicKeys ?? change.predicate) !== undefined) {
    throw badField("account", "needed with publicKeys or predicate");
  }
  return change;
}

/** The miner the change names (keeping the current keys when the account stays the same). */
function minerOf(change: MinerChange, current: MinerInfo | undefined): MinerInfo | undefined {
  if (change.account === undefined) return undefined;
  const same = current?.account === change.account;
  return minerInfoOf(
    change.account,
    change.publicKeys ?? (same ? current.publicKeys : []),
    change.predicate ?? (same ? current.predicate : "keys-all"),
  );
}

async function apply(miner: BuiltInMiner, change: MinerChange): Promise<void> {
  const minerInfo = minerOf(change, miner.minerInfo);
  if (change.threads !== undefined || minerInfo !== undefined) {
    await miner.configure({ threads: change.threads, minerInfo });
  }
  if (change.enabled === false) await miner.stop();
  if (change.enabled === true) {
    try {
      await miner.start();
    } catch (e) {
      if (isNodeError(e, MiningErrorCode.CannotStart)) throw e;
      throw new MiningError(
        { code: MiningErrorCode.CannotStart, reason: e instanceof Error ? e.message : String(e) },
        `mining cannot start: ${e instanceof Error ? e.message : String(e)}`,
        { cause: e },
      );
    }
  }
}

export function registerAppMiningRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const miner = ctx.node.miner;
  if (miner === undefined) return;
  server.register(async (scope) => {
    scope.addHook("onRequest", async (request) => {
      checkLocal(request);
      if (request.method === "POST" && contentTypeOf(request) !== "application/json") {
        throw new MiningError(
          { code: MiningErrorCode.NotJson, contentType: contentTypeOf(request) },
          "the body must be JSON (Content-Type: application/json)",
        );
      }
    });
    scope.addHook("onSend", async (_request, reply, payload) => {
      reply.removeHeader("access-control-allow-origin");
      return payload;
    });
    scope.setErrorHandler((error, request, reply) => {
      let status: number;
      let code: string;
      let message: string;
      if (isNodeError(error)) {
        status = statusOfCode(error.code);
        code = error.code;
        message = status === 500 ? "internal error" : error.message;
      } else {
        const s = (error as { statusCode?: unknown }).statusCode;
        status = typeof s === "number" && s >= 400 && s < 500 ? s : 500;
        code = status === 415 ? MiningErrorCode.NotJson : MiningErrorCode.BadRequest;
        message = status === 500 ? "internal error" : (error as Error).message;
      }
      if (status === 500) {
        ctx.node.log?.error("request failed", {
          method: request.method,
          url: request.url,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
        if (!isNodeError(error)) code = "INTERNAL";
      }
      reply
        .code(status)
        .header("content-type", "application/json; charset=utf-8")
        .send(JSON.stringify({ code, message }));
    });
    scope.get(APP_MINING_PATH, (_request, reply) => {
      sendJson(reply, miner.status());
    });
    // An async handler must return the reply it sent: resolving to undefined
    // makes Fastify send a second time (ERR_HTTP_HEADERS_SENT).
    scope.post(APP_MINING_PATH, async (request, reply) => {
      await apply(miner, parseChange(request.body));
      sendJson(reply, miner.status());
      return reply;
    });
    // A browser's preflight: the route is same-origin only.
    scope.options(APP_MINING_PATH, async () => {
      throw forbidden("cross-origin requests are refused");
    });
  });
}
