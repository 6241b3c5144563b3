/**
 * The backup page's endpoints (`/app/api/backup/*`, docs/desktop.md §3.5) as contract entries
 * (`api/endpoint.ts`): the shared table's routes (src-node/appContract/appRoutes.ts, with the
 * slow ones' timeout) over the parsers of `backupWire.ts`; `app/appEndpoints.ts` lists them.
 * @module
 */
import { appRoutes } from "../../../../src-node/appContract/appRoutes.ts";
import { endpoint } from "../../api/endpoint.ts";
import {
  ids,
  parseJob,
  parseList,
  parseOverview,
  parseRestoreAccepted,
  parseSummary,
} from "./backupWire.ts";

export const backupEndpoints = {
  overview: endpoint(appRoutes.backup.overview, parseOverview),
  settings: endpoint(appRoutes.backup.settings, parseOverview),
  start: endpoint(appRoutes.backup.start, (x) => ids(x, "id")),
  job: endpoint(appRoutes.backup.job, parseJob),
  list: endpoint(appRoutes.backup.list, parseList),
  remove: endpoint(appRoutes.backup.remove, (x) => ids(x, "deleted")),
  check: endpoint(appRoutes.backup.check, parseSummary),
  restore: endpoint(appRoutes.backup.restore, parseRestoreAccepted),
};
