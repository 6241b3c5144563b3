/**
 * What the wallet asks of the node's backups before it replaces itself (docs/wallet.md
 * "Replacing the wallet"): whether a backup holds the keystore as it is now (the Backup page's
 * `freshBackupDue`, with its `includeState` setting and a running job), and starting one
 * (`POST /app/api/backup/start`, as the Backup page's "Back up now"). The Backup page owns
 * the rest; features do not import each other, so these two calls are read here.
 * @module
 */
import type { ClientResult } from "../../../api/clientError.ts";
import { boolean, type Decoded, decode, record, string } from "../../../api/decode.ts";
import type { NodeClient } from "../../../api/nodeClient.ts";

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

export function readBackupState(client: NodeClient): Promise<ClientResult<BackupState>> {
  return client.appGet("backup", parseBackupState);
}

/** Starts an app backup (the node's databases and the wallet's files); its id. */
export function startBackup(
  client: NodeClient,
  includeState: boolean,
): Promise<ClientResult<string>> {
  return client.appPost("backup/start", { includeState }, (raw) =>
    decode(raw, (x) => string(record(x, "answer").id, "id")),
  );
}
