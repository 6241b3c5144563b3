/**
 * Desktop app only: where the node keeps its data and its log, with a button to open the
 * data folder in the file manager (through the desktop bridge).
 * @module
 */
import { useEffect, useState } from "react";
import type { AppInfo, BridgeError } from "../../../../electron/ipc/contract.ts";
import type { DesktopApi } from "../../desktop/desktopBridge.ts";

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
    <section aria-labelledby="folders-title" className="panel">
      <h2 id="folders-title">On this computer</h2>
      {info === null ? null : (
        <dl className="facts">
          <dt>App version</dt>
          <dd>{info.version}</dd>
          <dt>Data folder</dt>
          <dd>
            <code>{info.dataDir}</code>{" "}
            <button type="button" onClick={() => open(info.dataDir)}>
              Open data folder
            </button>
          </dd>
          <dt>Log file</dt>
          <dd>
            <code>{info.logFile}</code>
          </dd>
        </dl>
      )}
      {error === null ? null : (
        <p className="notice notice-error" role="alert">
          {error.message}
        </p>
      )}
    </section>
  );
}
