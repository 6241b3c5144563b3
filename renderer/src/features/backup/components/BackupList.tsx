/**
 * The backups in the folder (date, size, cut height, contents, status), each with "Restore"
 * (checked first, then confirmed: the node restarts on the backup's data) and "Delete"
 * (confirmed); "Open folder" (desktop: the file manager; a browser: the path to copy).
 * @module
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { clientErrorWords, desktopErrorWords, type ShownError } from "../../../api/errorWords.ts";
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
  type BackupEntry,
  type BackupOverview,
  type BackupSummary,
  backupCalls,
  backupKeys,
  listQuery,
  type Which,
} from "../api.ts";
import { contentsText, formatBytes, statusText } from "../model.ts";

/** "Restore" with its check and confirmation; used for listed backups and other folders. */
export function RestoreButton({
  which,
  restartable,
  onError,
}: {
  readonly which: Which;
  readonly restartable: boolean;
  readonly onError: (error: ShownError | null) => void;
}) {
  const { client, restart } = useServices();
  const [summary, setSummary] = useState<BackupSummary | null>(null);
  const [problem, setProblem] = useState<ShownError | null>(null);
  const check = () => {
    setSummary(null);
    setProblem(null);
    void backupCalls.check(client, which).then((r) => {
      if (r.ok) setSummary(r.value);
      else setProblem(clientErrorWords(r.error));
    });
  };
  const go = () => {
    onError(null);
    void backupCalls.restore(client, which).then((r) => {
      if (r.ok) restart.follow(r.value.launchId, "restore");
      else onError(clientErrorWords(r.error));
    });
  };
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
  const [error, setError] = useState<ShownError | null>(null);

  const remove = (id: string) => {
    setError(null);
    void backupCalls.remove(client, id).then((r) => {
      if (r.ok) void queries.invalidateQueries({ queryKey: backupKeys.list });
      else setError(clientErrorWords(r.error));
    });
  };
  const openFolder = () => {
    if (desktop === null) return;
    void (async () => {
      // The shell opens only folders it knows: the settings' backup folder is one.
      const s = await desktop.readSettings();
      if (s.ok && s.value.backupDir !== overview.directory) {
        await desktop.writeSettings({ backupDir: overview.directory });
      }
      const r = await desktop.openFolder(overview.directory);
      setError(r.ok ? null : desktopErrorWords(r.error));
    })();
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
                      onError={setError}
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
