/**
 * `/app/api/backup/*`: the backup page's routes (docs/backup.md "The app's backups",
 * docs/desktop.md §3.5), served whether or not the public backup API is on. Registered
 * inside the app API plugin (appApi.ts), which guards them (loopback, Host, Origin, app
 * token, JSON bodies matching the schemas below).
 *
 * | route | body | answer |
 * | GET  /app/api/backup | — | the overview (folder, switch, schedule, estimate, running job, fresh backup due, last restore) |
 * | POST /app/api/backup/settings | any of `directory` (absolute or null), `includeState`, `schedule` | the overview |
 * | POST /app/api/backup/start | `{includeState}` | `{id}` of the job started (or running) |
 * | GET  /app/api/backup/jobs/:id | — | the job's progress or result |
 * | GET  /app/api/backup/list | — | `{directory, backups}` newest first |
 * | POST /app/api/backup/delete | `{id}` | `{deleted: id}` |
 * | POST /app/api/backup/check | `{id}` or `{folder}` | what the backup holds, after checking it |
 * | POST /app/api/backup/restore | `{id}` or `{folder}` | 202 `{launchId, restarting, backup}`, then the restart that restores |
 * @module
 */
import { isAbsolute, join } from "node:path";
import type { FastifyInstance } from "fastify";
import { appRoutes, type BackupWhich } from "../../appContract/appRoutes.ts";
import type { AppBackups } from "../../backup/appBackups.ts";
import { checkForApp, readLastRestore, restoreAndRecord } from "../../backup/appRestore.ts";
import { parseBackupId } from "../../backup/backupId.ts";
import { BackupError, BackupErrorCode } from "../../backup/errors.ts";
import { AppError, AppErrorCode } from "../errors.ts";
import { registerAppRoute } from "../registerAppRoute.ts";
import { type RouteContext, sendJson } from "../routeContext.ts";
import { answerThenRestart, requireRestarter } from "./appNodeRestartRoutes.ts";

const scheduleSchema = {
  type: "object",
  additionalProperties: false,
  required: ["every", "hour", "weekday", "keep"],
  properties: {
    every: { type: "string", enum: ["off", "daily", "weekly"] },
    hour: { type: "integer", minimum: 0, maximum: 23 },
    weekday: { type: "integer", minimum: 0, maximum: 6 },
    keep: { type: "integer", minimum: 1, maximum: 1000 },
  },
} as const;

const settingsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    directory: { type: ["string", "null"], minLength: 1, maxLength: 4096 },
    includeState: { type: "boolean" },
    schedule: scheduleSchema,
  },
} as const;

const startSchema = {
  type: "object",
  additionalProperties: false,
  required: ["includeState"],
  properties: { includeState: { type: "boolean" } },
} as const;

const idSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id"],
  properties: { id: { type: "string", maxLength: 100 } },
} as const;

/** A listed backup (`id`) or any folder (`folder`, absolute): exactly one. */
const whichSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    id: { type: "string", maxLength: 100 },
    folder: { type: "string", minLength: 1, maxLength: 4096 },
  },
} as const;

/** The backup folder a `{id}` or `{folder}` body names. */
function folderOf(backups: AppBackups, body: BackupWhich): { folder: string; id: string } {
  // The schema lets both, or neither, through.
  if ((body.id === undefined) === (body.folder === undefined)) {
    throw new AppError(
      { code: AppErrorCode.BadRequest, field: "body", reason: "give either id or folder" },
      "body: give either id (a backup in the folder) or folder (a backup folder elsewhere)",
    );
  }
  if (body.id !== undefined) {
    const id = parseBackupId(body.id);
    return { folder: join(backups.directory, id), id };
  }
  const folder = body.folder as string;
  if (!isAbsolute(folder)) {
    throw new AppError(
      { code: AppErrorCode.BadRequest, field: "folder", reason: "not an absolute path" },
      "folder: not an absolute path",
    );
  }
  return {
    folder,
    id:
      folder
        .split(/[\\/]/)
        .filter((p) => p !== "")
        .pop() ?? folder,
  };
}

async function overview(ctx: RouteContext, backups: AppBackups) {
  const s = backups.settings;
  const next = backups.nextAutomatic();
  return {
    directory: backups.directory,
    defaultDirectory: backups.defaultDirectory,
    chosen: s.directory !== null,
    includeState: s.includeState,
    schedule: s.schedule,
    nextAutomatic: next === null ? null : new Date(next).toISOString(),
    runningId: backups.runningId ?? null,
    estimate: backups.estimate(),
    freshBackupDue: await backups.freshBackupDue(),
    lastRestore: ctx.node.networkDir === undefined ? null : readLastRestore(ctx.node.networkDir),
    restartable: ctx.node.restart !== undefined,
  };
}

export function registerAppBackupRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  const backups = ctx.node.appBackups;
  if (backups === undefined) return;
  const network = ctx.node.version.name;

  registerAppRoute(scope, appRoutes.backup.overview, {
    handler: async (_request, reply) => {
      sendJson(reply, await overview(ctx, backups));
      return reply;
    },
  });

  registerAppRoute(scope, appRoutes.backup.settings, {
    bodySchema: settingsSchema,
    handler: async (request, reply) => {
      const body = request.body;
      if (body.directory !== undefined) backups.setDirectory(body.directory);
      if (body.includeState !== undefined) backups.setIncludeState(body.includeState);
      if (body.schedule !== undefined) backups.setSchedule(body.schedule);
      sendJson(reply, await overview(ctx, backups));
      return reply;
    },
  });

  registerAppRoute(scope, appRoutes.backup.start, {
    bodySchema: startSchema,
    handler: async (request, reply) => {
      sendJson(reply, { id: backups.start({ includeState: request.body.includeState }) });
      return reply;
    },
  });

  registerAppRoute(scope, appRoutes.backup.job, {
    handler: async (request, reply) => {
      sendJson(reply, backups.job(request.params.id));
      return reply;
    },
  });

  registerAppRoute(scope, appRoutes.backup.list, {
    handler: async (_request, reply) => {
      reply.header("cache-control", "no-store");
      sendJson(reply, { directory: backups.directory, backups: backups.list() });
      return reply;
    },
  });

  registerAppRoute(scope, appRoutes.backup.remove, {
    bodySchema: idSchema,
    handler: async (request, reply) => {
      const { id } = request.body;
      backups.delete(id);
      sendJson(reply, { deleted: id });
      return reply;
    },
  });

  registerAppRoute(scope, appRoutes.backup.check, {
    bodySchema: whichSchema,
    handler: async (request, reply) => {
      const { folder } = folderOf(backups, request.body);
      sendJson(reply, await checkForApp(folder, network));
      return reply;
    },
  });

  registerAppRoute(scope, appRoutes.backup.restore, {
    bodySchema: whichSchema,
    handler: async (request, reply) => {
      const { folder, id } = folderOf(backups, request.body);
      const restart = requireRestarter(ctx.node.restart);
      const running = backups.runningId;
      if (running !== undefined) {
        throw new BackupError(
          { code: BackupErrorCode.Running, id: running },
          `backup ${running} is running; restore once it has finished`,
        );
      }
      // Checked before the node stops: a backup that cannot be restored leaves it running.
      const summary = await checkForApp(folder, network);
      const dataDir = ctx.node.dataDir;
      const networkDir = ctx.node.networkDir;
      if (dataDir === undefined || networkDir === undefined) {
        throw new AppError(
          { code: AppErrorCode.RestartUnavailable },
          "this node has no data folder to restore into",
        );
      }
      const log = ctx.node.log;
      log?.info("restore asked by the app", { id: summary.id, folder });
      return answerThenRestart(
        reply,
        restart,
        {
          reason: "restore",
          whileStopped: async () => {
            const r = await restoreAndRecord({ folder, id, dataDir, networkDir, log });
            if (r.ok) log?.info("restored", { id: r.id, replacedDir: r.replacedDir });
            else log?.error("restore failed", { id, error: r.error?.message });
          },
        },
        { launchId: ctx.node.launchId ?? "", restarting: true, backup: summary },
      );
    },
  });
}
