/**
 * The backup API (spec "Backup endpoints"; reference chainweb-api.md §10),
 * registered only when it is enabled (`backup.api.enabled` with
 * `backup.directory`, or `--enable-backup-api --backup-directory DIR`);
 * otherwise its paths answer 404 like any unknown route.
 *
 * - `POST {base_url}/make-backup[?backupPact]` → 200 text/plain, the job's id
 *   (the running job's id when one runs). `backupPact` without a value or
 *   `=true` includes the contract-state database, `=false` does not.
 * - `GET {base_url}/check-backup/{backupId}` → 200 text/plain
 *   `backup-in-progress`, `backup-done` or `backup-failed`; 404 for an id no
 *   job has; 400 for an id with a character outside a-zA-Z0-9_- (any text
 *   after `check-backup/`, slashes included, is taken as the id).
 *
 * Bodies are the bare id or status, without a line end (what clients of the
 * reference parse). Any request body is ignored. Both routes are private
 * (browserGuard.ts): a request with an Origin other than the node's own
 * (every cross-origin POST from a browser) is refused with 403.
 * @module
 */
import type { FastifyInstance } from "fastify";
import { badRequest } from "../errors.ts";
import { propertyOf } from "../params.ts";
import type { RouteContext } from "../routeContext.ts";

const TEXT = "text/plain; charset=utf-8";

/**
 * No CORS, and a present Origin must be the node's own (browserGuard.ts):
 * web pages cannot start backups, `curl -X POST` (no Origin) still can.
 */
const PRIVATE = { access: "private", bodyType: null } as const;

/** `?backupPact`: absent → false; no value or `true` → true; `false` → false. */
function parseBackupPact(value: unknown): boolean {
  if (value === undefined) return false;
  if (value === "" || value === "true") return true;
  if (value === "false") return false;
  throw badRequest("backupPact", `expected no value, true or false, got ${JSON.stringify(value)}`);
}

export function registerBackupRoutes(server: FastifyInstance, ctx: RouteContext): void {
  const backup = ctx.node.backup;
  if (backup === undefined) return;

  server.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, _body, done) => {
      done(null, undefined);
    });

    scope.post(`${ctx.base}/make-backup`, { config: PRIVATE }, async (request, reply) => {
      const backupPact = parseBackupPact(propertyOf(request.query, "backupPact"));
      const id = backup.start({ backupPact });
      return reply.code(200).header("content-type", TEXT).send(id);
    });

    scope.get(`${ctx.base}/check-backup/*`, { config: PRIVATE }, async (request, reply) => {
      const id = propertyOf(request.params, "*");
      const status = backup.status(typeof id === "string" ? id : "");
      return reply.code(200).header("content-type", TEXT).send(status);
    });
  });
}
