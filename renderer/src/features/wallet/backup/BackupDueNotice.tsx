/**
 * "A fresh backup is due" on the wallet page, with the way to the Backup page: shown from the
 * moment the wallet is created or restored, or its keys (or password) change, until a backup
 * holds the keystore as it is now. The answer is the node's (`backupDueQuery`), asked again
 * whenever the wallet saves its file (`VaultProvider.tsx`).
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useServices } from "../../../services/services.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { backupDueQuery } from "../api.ts";
import { useVault } from "../vault/useVault.ts";

export function BackupDueNotice() {
  const { client } = useServices();
  const { keystore } = useVault();
  const due = useQuery(backupDueQuery(client));

  // Unknown (or unreadable) means nothing to say: the Backup page shows its own errors.
  if (keystore === null || due.data !== true) return null;
  return (
    <Notice tone="warning" testId="wallet-backup-due">
      <p>
        A fresh backup is due: this wallet was created, restored or its keys changed since the last
        backup. <Link to="/backup">Back up on the Backup page</Link>.
      </p>
    </Notice>
  );
}
