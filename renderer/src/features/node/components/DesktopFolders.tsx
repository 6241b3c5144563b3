/**
 * Desktop app only: where the node keeps its data and its log, with a button to open the
 * data folder in the file manager (through the desktop bridge).
 * @module
 */
import { useEffect, useState } from "react";
import type { AppInfo, BridgeError } from "../../../../../electron/ipc/contract.ts";
import { desktopErrorWords } from "../../../api/errorWords.ts";
import type { DesktopApi } from "../../../desktop/desktopBridge.ts";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Panel } from "../../../ui/Panel.tsx";

export function DesktopFolders({ desktop }: { readonly desktop: DesktopApi }) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState<BridgeError | null>(null);

  useEffect(() => {
    let live = true;
    void desktop.appInfo().then((r) => {
      if (!live) return;
      if (r.ok) setInfo(r.value);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [desktop]);

  const open = (path: string) => {
    void desktop.openFolder(path).then((r) => setError(r.ok ? null : r.error));
  };

  return (
    <Panel id="folders" title="On this computer">
      {info === null ? null : (
        <dl className="facts">
          <dt>App version</dt>
          <dd>{info.version}</dd>
          <dt>Data folder</dt>
          <dd>
            <LongValue value={info.dataDir} what="data folder" />
            <Button size="sm" onPress={() => open(info.dataDir)}>
              Open data folder
            </Button>
          </dd>
          <dt>Log file</dt>
          <dd>
            <LongValue value={info.logFile} what="log file path" />
          </dd>
        </dl>
      )}
      {error === null ? null : <ErrorMessage error={desktopErrorWords(error)} />}
    </Panel>
  );
}
