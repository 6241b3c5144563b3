/**
 * "A fresh backup is due" on the wallet page, with the way to the Backup page: shown from the
 * moment the wallet is created or restored, or its keys (or password) change, until a backup
 * holds the keystore as it is now. The answer is the node's (`backupDue.ts`), asked again
 * whenever the wallet saves its file.
 * @module
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect } from "react";
import { useServices } from "../../../services/services.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { useVault } from "../vault/useVault.ts";
import { backupDueKey, backupDueQuery } from "./backupDue.ts";

export function BackupDueNotice() {
  const { client } = useServices();
  const queries = useQueryClient();
  const { keystore } = useVault();
  const due = useQuery(backupDueQuery(client));

  // Every save gives a new file object: the answer may have changed with it.
  useEffect(() => {
    if (keystore !== null) void queries.invalidateQueries({ queryKey: backupDueKey });
  }, [keystore, queries]);

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
