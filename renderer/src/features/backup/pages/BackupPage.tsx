/**
 * Backup and restore (`#/backup`): "Back up now" with progress and result, the backups in
 * the folder with Restore, Delete and Open folder, a backup from another folder, where
 * backups go, and the automatic backups; notices when a fresh backup is due (the wallet's
 * keys changed since the last one) and after a restore (what came back, where the old data
 * went). Everything goes through the app's guarded routes `/app/api/backup/*`.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { clientErrorWords } from "../../../api/errorWords.ts";
import { formatDateTime } from "../../../format/dateTime.ts";
import { formatInteger } from "../../../format/number.ts";
import { useServices } from "../../../services/services.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { overviewQuery } from "../api.ts";
import type { LastRestore } from "../backupWire.ts";
import { BackUpNow } from "../components/BackUpNow.tsx";
import { BackupList, RestoreButton, useRestoreBackup } from "../components/BackupList.tsx";
import { AutomaticBackups, BackupFolder } from "../components/BackupSettings.tsx";
import { backupFailureWords } from "../model.ts";

function LastRestoreNotice({ last }: { readonly last: LastRestore }) {
  if (!last.ok) {
    return (
      <ErrorMessage
        title={`The restore of backup ${last.id} failed.`}
        error={
          last.error === null
            ? "The node went on with the data it had."
            : backupFailureWords(last.error, "restore")
        }
      />
    );
  }
  return (
    <Notice tone="info" testId="last-restore">
      <p>
        Restored backup <code>{last.id}</code> ({formatDateTime(Date.parse(last.at))}), cut height{" "}
        {last.cutHeight === null ? "—" : formatInteger(last.cutHeight)}. Your wallet unlocks with
        the password it had then.
      </p>
      {last.replacedDir === null ? null : (
        <p>
          The data it replaced is kept in <LongValue value={last.replacedDir} what="folder" />
        </p>
      )}
    </Notice>
  );
}

function RestoreOther({ restartable }: { readonly restartable: boolean }) {
  const [folder, setFolder] = useState("");
  const restoring = useRestoreBackup();
  const error = restoring.error === null ? null : clientErrorWords(clientErrorOf(restoring.error));
  const path = folder.trim();
  return (
    <Panel id="restore-other" title="Restore a backup from another folder">
      <TextField
        label="Backup folder to restore"
        value={folder}
        onChange={setFolder}
        hint="The folder of one backup (it holds manifest.json), as an absolute path."
        spellCheck={false}
        error={error}
      />
      {path === "" ? null : (
        <RestoreButton
          which={{ folder: path }}
          restartable={restartable}
          onRestore={(which) => restoring.mutate(which)}
        />
      )}
    </Panel>
  );
}

export function BackupPage() {
  const { client } = useServices();
  const overview = useQuery(overviewQuery(client));
  const o = overview.data;
  return (
    <>
      <PageTitle>Backup</PageTitle>
      <p className="lead">
        Back up the node's databases and your wallet with one click, and restore them.
      </p>
      {overview.error === null ? null : (
        <ErrorNotice
          error={clientErrorOf(overview.error)}
          what="the backup settings"
          onRetry={() => void overview.refetch()}
        />
      )}
      {o === undefined ? null : (
        <>
          {o.freshBackupDue ? (
            <Notice tone="warning" testId="backup-due">
              <p>
                A fresh backup is due: your wallet's keys changed since the last backup (or no
                backup holds them yet).
              </p>
            </Notice>
          ) : null}
          {o.lastRestore === null ? null : <LastRestoreNotice last={o.lastRestore} />}
          <BackUpNow overview={o} />
          <BackupList overview={o} />
          <RestoreOther restartable={o.restartable} />
          <BackupFolder overview={o} />
          <AutomaticBackups overview={o} />
        </>
      )}
    </>
  );
}
