/**
 * The Node page's app routes (docs/desktop.md §3.3; not part of the ledger
 * spec), registered inside the guarded app API plugin (appApi.ts):
 *
 * - `GET /app/api/node/status`: `{network, dataDir, logFile, cpus,
 *   publicApis: {mining, backup}, catchingUp: [{what, done, total, etaS}]}`:
 *   what the catching-up banner shows (runtime/catchUpStatus.ts) and the facts the
 *   page's settings and threads choice need (`cpus`: the processor count the
 *   threads select goes up to; `publicApis`: whether this launch serves the
 *   public mining and backup APIs, the settings a restart applies).
 * - `GET /app/api/node/log?level=info|warn|error&limit=1..1000`: the
 *   node's recent log lines at that level or above, oldest first
 *   (recentLog.ts); 400 APP_BAD_REQUEST naming a bad parameter.
 * @module
 */
import { availableParallelism } from "node:os";
import type { FastifyInstance } from "fastify";
import { appRoutes } from "../../appContract/appRoutes.ts";
import { LOG_LEVELS, type LogLevel, RECENT_LOG_LINES } from "../../runtime/recentLog.ts";
import { AppError, AppErrorCode } from "../errors.ts";
import { registerAppRoute } from "../registerAppRoute.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";

/** The log route's query parameters (the table's). */
const LOG_QUERY: readonly string[] = appRoutes.node.log.query;

function badQuery(field: string, reason: string): AppError {
  return new AppError({ code: AppErrorCode.BadRequest, field, reason }, `${field}: ${reason}`);
}

/** `level` and `limit` of the log route's query. */
function logQuery(query: unknown): { level: LogLevel; limit: number } {
  const q = (typeof query === "object" && query !== null ? query : {}) as Record<string, unknown>;
  for (const k of Object.keys(q)) {
    if (!LOG_QUERY.includes(k)) throw badQuery(k, `unknown parameter (${LOG_QUERY.join(", ")})`);
  }
  const level = q.level ?? "info";
  if (typeof level !== "string" || !(LOG_LEVELS as readonly string[]).includes(level)) {
    throw badQuery("level", `expected one of ${LOG_LEVELS.join(", ")}`);
  }
  const limitText = q.limit ?? String(RECENT_LOG_LINES);
  const limit =
    typeof limitText === "string" && /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : 0;
  if (limit < 1 || limit > RECENT_LOG_LINES) {
    throw badQuery("limit", `expected an integer from 1 to ${RECENT_LOG_LINES}`);
  }
  return { level: level as LogLevel, limit };
}

/** The routes, for the app API plugin (buildServer.ts). */
export function registerAppNodeRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  const page = ctx.node.nodePage;
  if (page === undefined) return;
  registerAppRoute(scope, appRoutes.node.status, {
    handler: (_request, reply) => {
      sendJson(reply, {
        network: ctx.node.version.name,
        dataDir: page.dataDir,
        logFile: page.logFile ?? null,
        cpus: availableParallelism(),
        publicApis: {
          mining: ctx.node.miningApi !== undefined,
          backup: ctx.node.backup !== undefined,
        },
        catchingUp: page.catchUp.items(),
      });
    },
  });
  // The names are checked here, not by a query schema: the refusal says which names there are.
  registerAppRoute(scope, appRoutes.node.log, {
    handler: (request, reply) => {
      const { level, limit } = logQuery(request.query);
      sendJson(reply, { lines: page.recentLog.lines(level, limit) });
    },
  });
}
