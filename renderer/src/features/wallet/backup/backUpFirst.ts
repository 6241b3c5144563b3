/**
 * What the wallet asks of the node's backups before it replaces itself (docs/wallet.md
 * "Replacing the wallet"): whether a backup holds the keystore as it is now (the Backup page's
 * `freshBackupDue`, with its `includeState` setting and a running job), and starting one
 * (`POST /app/api/backup/start`, as the Backup page's "Back up now"; both calls in
 * `../api.ts`). The Backup page owns the rest; features do not import each other, so the
 * answer is read here.
 * @module
 */
import { boolean, type Decoded, decode, record, string } from "../../../api/decode.ts";

export type BackupState = {
  /** No finished backup holds the keystore as it is now. */
  readonly due: boolean;
  /** The Backup page's "Include contract state" setting, used for a backup started here. */
  readonly includeState: boolean;
  /** A backup running now (started here, there or by the schedule), else null. */
  readonly runningId: string | null;
};

export function parseBackupState(raw: unknown): Decoded<BackupState> {
  return decode(raw, (x) => {
    const r = record(x, "backup");
    return {
      due: boolean(r.freshBackupDue, "freshBackupDue"),
      includeState: boolean(r.includeState, "includeState"),
      runningId: r.runningId === null ? null : string(r.runningId, "runningId"),
    };
  });
}
