/**
 * The backup page's endpoints (`/app/api/backup/*`, docs/desktop.md §3.5) as contract entries
 * (`api/endpoint.ts`) over the parsers of `backupWire.ts`; `app/appEndpoints.ts` lists them.
 * @module
 */
import { bodyType, endpoint } from "../../api/endpoint.ts";
import {
  type BackupSchedule,
  ids,
  parseJob,
  parseList,
  parseOverview,
  parseRestoreAccepted,
  parseSummary,
  type Which,
} from "./backupWire.ts";

/** Checking reads every file back: large backups take a while. */
const SLOW_MS = 300_000;

export const backupEndpoints = {
  overview: endpoint({ method: "GET", route: "/app/api/backup", reply: parseOverview }),
  settings: endpoint({
    method: "POST",
    route: "/app/api/backup/settings",
    body: bodyType<{
      readonly directory?: string | null;
      readonly includeState?: boolean;
      readonly schedule?: BackupSchedule;
    }>(),
    reply: parseOverview,
  }),
  start: endpoint({
    method: "POST",
    route: "/app/api/backup/start",
    body: bodyType<{ readonly includeState: boolean }>(),
    reply: (x) => ids(x, "id"),
  }),
  job: endpoint({ method: "GET", route: "/app/api/backup/jobs/:id", reply: parseJob }),
  list: endpoint({ method: "GET", route: "/app/api/backup/list", reply: parseList }),
  remove: endpoint({
    method: "POST",
    route: "/app/api/backup/delete",
    body: bodyType<{ readonly id: string }>(),
    reply: (x) => ids(x, "deleted"),
  }),
  check: endpoint({
    method: "POST",
    route: "/app/api/backup/check",
    body: bodyType<Which>(),
    reply: parseSummary,
    timeoutMs: SLOW_MS,
  }),
  restore: endpoint({
    method: "POST",
    route: "/app/api/backup/restore",
    body: bodyType<Which>(),
    reply: parseRestoreAccepted,
    timeoutMs: SLOW_MS,
  }),
};
