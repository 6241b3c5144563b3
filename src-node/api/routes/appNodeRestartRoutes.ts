/**
 * `GET/POST /app/api/node/restart`: the app asks the node's host to stop
 * the node and start it again on the same address (docs/desktop.md §3.4).
 * Registered inside the app API plugin (appApi.ts), which guards it.
 *
 * - `GET` answers `{"launchId", "restartable"}`: `launchId` is new for
 *   every start of the node, so the UI knows a restart has happened when
 *   it reads another one; `restartable` says whether the host can restart.
 * - `POST` with the body `{}` answers `202 {"launchId", "restarting": true}`
 *   (the id of the node that is about to stop), then asks the host to
 *   restart; 409 APP_RESTART_UNAVAILABLE when the host cannot.
 * @module
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { appRoutes } from "../../appContract/appRoutes.ts";
import { AppError, AppErrorCode } from "../errors.ts";
import type { NodeRestarter, NodeRestartRequest } from "../nodeRestart.ts";
import { registerAppRoute } from "../registerAppRoute.ts";
import type { RouteContext } from "../routeContext.ts";

/** The POST body: nothing to say yet, and nothing else accepted. */
export const restartBodySchema = {
  type: "object",
  additionalProperties: false,
  properties: {},
} as const;

/** The JSON `GET` answers. */
export type RestartStatus = { readonly launchId: string; readonly restartable: boolean };

/**
 * The host's restarter, or the refusal when it has none.
 * @throws {AppError} APP_RESTART_UNAVAILABLE
 */
export function requireRestarter(restart: NodeRestarter | undefined): NodeRestarter {
  if (restart === undefined) {
    throw new AppError(
      { code: AppErrorCode.RestartUnavailable },
      "this node cannot be restarted from the app: it was started by `weft node`, which has " +
        "no supervisor; stop it and start it again yourself (the desktop app and " +
        "`npm start -- --headless` can restart it)",
    );
  }
  return restart;
}

/**
 * Answers 202 with `body`, then, once the answer is on its way, asks the host
 * to restart (the host closes the server, which waits for this request).
 */
export function answerThenRestart(
  reply: FastifyReply,
  restart: NodeRestarter,
  request: NodeRestartRequest,
  body: unknown,
): FastifyReply {
  reply
    .code(202)
    .header("content-type", "application/json; charset=utf-8")
    .send(Buffer.from(JSON.stringify(body)));
  setImmediate(() => restart(request));
  return reply;
}

export function registerAppNodeRestartRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  const launchId = ctx.node.launchId ?? "";
  registerAppRoute(scope, appRoutes.node.restartStatus, {
    handler: async (_request, reply) => {
      const status: RestartStatus = { launchId, restartable: ctx.node.restart !== undefined };
      return reply.header("cache-control", "no-store").send(status);
    },
  });
  registerAppRoute(scope, appRoutes.node.restart, {
    bodySchema: restartBodySchema,
    handler: async (_request, reply) => {
      const restart = requireRestarter(ctx.node.restart);
      ctx.node.log?.info("restart asked by the app", { launchId });
      return answerThenRestart(
        reply,
        restart,
        { reason: "restart" },
        { launchId, restarting: true },
      );
    },
  });
}
