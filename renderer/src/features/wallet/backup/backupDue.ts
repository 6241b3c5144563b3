/**
 * Whether a fresh backup is due, as the wallet asks it: the Backup page's own answer (the
 * node's `freshBackupDue` in `GET /app/api/backup`: the wallet has a keystore and the newest
 * finished backup holds no copy of it, or another one), read here without the rest of that
 * page's overview (the query: `backupDueQuery` in `../api.ts`).
 * @module
 */
import { boolean, type Decoded, decode, record } from "../../../api/decode.ts";

/** `freshBackupDue` of the backup overview; the other fields are the Backup page's. */
export function parseBackupDue(raw: unknown): Decoded<boolean> {
  return decode(raw, (x) => boolean(record(x, "backup").freshBackupDue, "freshBackupDue"));
}
