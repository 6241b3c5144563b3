/**
 * Backup and restore (`#/backup`). One-click backups arrive with the backup issue; the page
 * already says where they will go.
 * @module
 */
import { useEffect, useState } from "react";
import { useServices } from "../../../services/services.tsx";
import { ComingSoon } from "../../../ui/ComingSoon.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { defaultBackupFolder } from "../model.ts";

export function BackupPage() {
  const { desktop } = useServices();
  const [dataDir, setDataDir] = useState<string | null>(null);
  useEffect(() => {
    if (desktop === null) return;
    let live = true;
    void desktop.appInfo().then((r) => {
      if (live && r.ok) setDataDir(r.value.dataDir);
    });
    return () => {
      live = false;
    };
  }, [desktop]);
  return (
    <>
      <PageTitle>Backup</PageTitle>
      <p className="lead">
        Back up the node's databases and your wallet with one click, and restore them.
      </p>
      <ComingSoon>
        Backing up and restoring from the app comes next. Until then, the node's backup API (
        <code>make-backup</code>), <code>weft backup list</code> and <code>weft restore</code> do
        it.
      </ComingSoon>
      <Panel id="backup-folder" title="Where backups go">
        {dataDir === null ? (
          <p>
            In a folder named “backups” beside the node's data folder, unless you choose another.
          </p>
        ) : (
          <dl className="facts">
            <dt>Backup folder</dt>
            <dd>
              <LongValue value={defaultBackupFolder(dataDir)} what="backup folder" />
            </dd>
          </dl>
        )}
      </Panel>
    </>
  );
}
