/**
 * Whether a fresh backup is due, as the wallet asks it: the Backup page's own answer (the
 * node's `freshBackupDue` in `GET /app/api/backup`: the wallet has a keystore and the newest
 * finished backup holds no copy of it, or another one), read here without the rest of that
 * page's overview. The query key sits under the backup page's (`["app", "backup"]`), so what
 * refreshes that page's data refreshes this too.
 * @module
 */
import { queryOptions } from "@tanstack/react-query";
import type { ClientResult } from "../../../api/clientError.ts";
import { unwrap } from "../../../api/clientFailure.ts";
import { boolean, type Decoded, decode, record } from "../../../api/decode.ts";
import type { NodeClient } from "../../../api/nodeClient.ts";

export const backupDueKey = ["app", "backup", "fresh-backup-due"] as const;

/** `freshBackupDue` of the backup overview; the other fields are the Backup page's. */
export function parseBackupDue(raw: unknown): Decoded<boolean> {
  return decode(raw, (x) => boolean(record(x, "backup").freshBackupDue, "freshBackupDue"));
}

export function readBackupDue(client: NodeClient): Promise<ClientResult<boolean>> {
  return client.appGet("backup", parseBackupDue);
}

/** Polled as slowly as the Backup page polls: an automatic backup may land meanwhile. */
export function backupDueQuery(client: NodeClient) {
  return queryOptions({
    queryKey: backupDueKey,
    queryFn: () => unwrap(readBackupDue(client)),
    refetchInterval: 30_000,
  });
}
