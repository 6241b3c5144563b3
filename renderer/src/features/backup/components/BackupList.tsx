/**
 * The backups in the folder (date, size, cut height, contents, status), each with "Restore"
 * (checked first, then confirmed: the node restarts on the backup's data) and "Delete"
 * (confirmed); "Open folder" (desktop: the file manager; a browser: the path to copy). Each
 * is a mutation of `../api.ts`; the panel shows the last one's failure.
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { clientErrorWords, desktopErrorWords } from "../../../api/errorWords.ts";
import { bridgeErrorOf } from "../../../desktop/bridgeFailure.ts";
import { formatDateTime } from "../../../format/dateTime.ts";
import { formatInteger } from "../../../format/number.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ConfirmButton } from "../../../ui/ConfirmButton.tsx";
import { DataTable } from "../../../ui/DataTable.tsx";
import { DateTime } from "../../../ui/DateTime.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import {
  checkBackupMutation,
  listQuery,
  openBackupFolderMutation,
  removeBackupMutation,
  restoreBackupMutation,
} from "../api.ts";
import type { BackupEntry, BackupOverview, Which } from "../backupWire.ts";
import { contentsText, formatBytes, statusText } from "../model.ts";

/** Restoring a backup (`RestoreButton`'s confirmed action); its failure is the caller's to show. */
export function useRestoreBackup() {
  const { client, restart } = useServices();
  return useMutation(restoreBackupMutation(client, restart));
}

/** "Restore" with its check and confirmation; used for listed backups and other folders. */
export function RestoreButton({
  which,
  restartable,
  onRestore,
}: {
  readonly which: Which;
  readonly restartable: boolean;
  /** Restores `which`, once checked and confirmed (`useRestoreBackup`). */
  readonly onRestore: (which: Which) => void;
}) {
  const { client } = useServices();
  const checking = useMutation(checkBackupMutation(client));
  const summary = checking.data ?? null;
  const problem = checking.error === null ? null : clientErrorWords(clientErrorOf(checking.error));
  const check = () => checking.mutate(which);
  const go = () => onRestore(which);
  return (
    <ConfirmButton
      label="Restore"
      title="Restore this backup?"
      size="sm"
      isDisabled={!restartable}
      canConfirm={summary !== null}
      onOpen={check}
      onConfirm={go}
    >
      {summary === null && problem === null ? <p role="status">Checking the backup…</p> : null}
      {problem === null ? null : <ErrorMessage error={problem} />}
      {summary === null ? null : (
        <>
          <p>
            Checked: every file matches its checksum. The node stops, its data is replaced by this
            backup (the current data is kept aside, in a folder the page shows afterwards), and it
            starts again. Anything newer than the backup, such as later transfers, is no longer on
            this node.
          </p>
          <dl className="facts">
            <dt>Backup</dt>
            <dd>
              <code>{summary.id}</code>
            </dd>
            <dt>Made</dt>
            <dd>{formatDateTime(Date.parse(summary.startedAt))}</dd>
            <dt>Holds</dt>
            <dd>{contentsText(summary.contents)}</dd>
            <dt>Cut height</dt>
            <dd>{summary.cutHeight === null ? "—" : formatInteger(summary.cutHeight)}</dd>
            <dt>Size</dt>
            <dd>{formatBytes(summary.bytes)}</dd>
          </dl>
        </>
      )}
    </ConfirmButton>
  );
}

export function BackupList({ overview }: { readonly overview: BackupOverview }) {
  const { client, desktop } = useServices();
  const queries = useQueryClient();
  const list = useQuery(listQuery(client));
  const removing = useMutation(removeBackupMutation(client, queries));
  const opening = useMutation(openBackupFolderMutation(desktop));
  const restoring = useRestoreBackup();
  // The last action's failure only: starting one forgets the others'.
  const actions = [removing, opening, restoring];
  const only = (m: (typeof actions)[number]) => {
    for (const a of actions) if (a !== m) a.reset();
  };
  const failed = removing.error ?? restoring.error;
  const error =
    opening.error !== null
      ? desktopErrorWords(bridgeErrorOf(opening.error))
      : failed !== null
        ? clientErrorWords(clientErrorOf(failed))
        : null;

  const remove = (id: string) => {
    only(removing);
    removing.mutate(id);
  };
  const openFolder = () => {
    only(opening);
    opening.mutate(overview.directory);
  };
  const restore = (which: Which) => {
    only(restoring);
    restoring.mutate(which);
  };

  return (
    <Panel
      id="backup-list"
      title="Backups in the folder"
      actions={
        desktop === null ? null : (
          <Button size="sm" onPress={openFolder}>
            Open folder
          </Button>
        )
      }
    >
      <div className="backup-folder-line">
        <LongValue value={overview.directory} what="backup folder" />
      </div>
      {error === null ? null : <ErrorMessage error={error} />}
      {list.error === null ? null : (
        <ErrorMessage
          title="Could not list the backups."
          error={clientErrorWords(clientErrorOf(list.error))}
        />
      )}
      {list.data === undefined ? null : list.data.length === 0 ? (
        <p>No backups in this folder yet.</p>
      ) : (
        <DataTable<BackupEntry>
          id="backups"
          caption="Backups, newest first"
          rows={list.data}
          rowKey={(b) => b.id}
          fold
          columns={[
            {
              header: "Date",
              rowHeader: true,
              cell: (b) =>
                b.startedAt === null ? b.id : <DateTime ms={Date.parse(b.startedAt)} />,
            },
            {
              header: "Size",
              numeric: true,
              cell: (b) => (b.bytes > 0 ? formatBytes(b.bytes) : "—"),
            },
            {
              header: "Cut height",
              numeric: true,
              cell: (b) => (b.cutHeight === null ? "—" : formatInteger(b.cutHeight)),
            },
            { header: "Contents", cell: (b) => contentsText(b.databases) },
            {
              header: "Status",
              cell: (b) => (
                <span title={b.error?.message}>
                  {statusText(b.status)}
                  {b.error === null ? "" : `: ${b.error.message}`}
                </span>
              ),
            },
            {
              header: "Actions",
              cell: (b) => (
                <span className="row-actions">
                  {b.status === "backup-done" ? (
                    <RestoreButton
                      which={{ id: b.id }}
                      restartable={overview.restartable}
                      onRestore={restore}
                    />
                  ) : null}
                  <ConfirmButton
                    label="Delete"
                    title="Delete this backup?"
                    tone="danger"
                    size="sm"
                    isDisabled={b.status === "backup-in-progress"}
                    onConfirm={() => remove(b.id)}
                  >
                    <p>
                      The backup <code>{b.id}</code> and its files are removed from the folder. This
                      cannot be undone.
                    </p>
                  </ConfirmButton>
                </span>
              ),
            },
          ]}
        />
      )}
      {overview.restartable ? null : (
        <p className="hint">
          This node was started with <code>weft node</code>, which cannot restart it: to restore,
          stop it and run <code>weft restore</code>.
        </p>
      )}
    </Panel>
  );
}
