/**
 * `GET/POST /app/api/mining`: the node's own UI turns the built-in miner on
 * and off, and sets its threads and reward account (docs/desktop.md §3.3; not
 * part of the ledger spec). Registered inside the app API plugin (appApi.ts),
 * which guards it (loopback, Host, Origin, app token, JSON only, no CORS).
 *
 * POST body (its JSON schema below): any of `{"enabled": boolean, "threads":
 * integer, "account": string, "onDemand": boolean}`, plus Weft's optional
 * `"publicKeys": [hex…]` and `"predicate"` for accounts that are not
 * `k:<key>` accounts. The answer is the new status; 409 MINING_CANNOT_START
 * when mining (or mine on demand) cannot start, 400 MINING_BAD_ARGUMENT for
 * threads outside 1..1024, 400 MINING_BAD_MINER_INFO for a bad account or key.
 *
 * `GET /app/api/mining/history`: the last hour of hash rates and found
 * blocks, for the Node page's charts (builtInMiner.ts `MinerHistory`).
 * @module
 */
import type { FastifyInstance } from "fastify";
import { appRoutes, type MinerChange } from "../../appContract/appRoutes.ts";
import type { MinerInfo } from "../../chain/minerData.ts";
import { isNodeError } from "../../errors/nodeError.ts";
import type { BuiltInMiner } from "../../mining/builtInMiner.ts";
import { MiningError, MiningErrorCode } from "../../mining/errors.ts";
import { minerInfoOf } from "../../mining/minerInfo.ts";
import { AppError, AppErrorCode } from "../errors.ts";
import { registerAppRoute } from "../registerAppRoute.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

/** The POST body: checked by Fastify before the handler runs (appApi.ts answers APP_BAD_REQUEST). */
export const minerChangeSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    enabled: { type: "boolean" },
    threads: { type: "integer" },
    account: { type: "string" },
    publicKeys: { type: "array", items: { type: "string" } },
    predicate: { type: "string" },
    onDemand: { type: "boolean" },
  },
} as const;

/** The body Fastify checked against {@link minerChangeSchema}, and what the schema cannot say. */
function parseChange(change: MinerChange): MinerChange {
  if (change.account === undefined && (change.publicKeys ?? change.predicate) !== undefined) {
    throw new AppError(
      {
        code: AppErrorCode.BadRequest,
        field: "account",
        reason: "needed with publicKeys or predicate",
      },
      "account: needed with publicKeys or predicate",
    );
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
  if (change.onDemand === false) await miner.setOnDemand(false);
  if (change.enabled === true || change.onDemand === true) {
    try {
      if (change.onDemand === true) await miner.setOnDemand(true);
      if (change.enabled === true) await miner.start();
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

/** The routes, for the app API plugin (buildServer.ts). */
export function registerAppMiningRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  const miner = ctx.node.miner;
  if (miner === undefined) return;
  registerAppRoute(scope, appRoutes.mining.status, {
    handler: (_request, reply) => {
      sendJson(reply, miner.status());
    },
  });
  registerAppRoute(scope, appRoutes.mining.history, {
    handler: (_request, reply) => {
      sendJson(reply, miner.history());
    },
  });
  registerAppRoute(scope, appRoutes.mining.change, {
    bodySchema: minerChangeSchema,
    // An async handler must return the reply it sent: resolving to undefined
    // makes Fastify send a second time (ERR_HTTP_HEADERS_SENT).
    handler: async (request, reply) => {
      await apply(miner, parseChange(request.body));
      sendJson(reply, miner.status());
      return reply;
    },
  });
}
