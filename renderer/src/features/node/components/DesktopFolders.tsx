/**
 * Desktop app only: where the node keeps its data and its log, with a button to open the
 * data folder in the file manager (through the desktop bridge: `appInfoQuery`,
 * `openFolderMutation`).
 * @module
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { desktopErrorWords } from "../../../api/errorWords.ts";
import { bridgeErrorOf } from "../../../desktop/bridgeFailure.ts";
import type { DesktopApi } from "../../../desktop/desktopBridge.ts";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { appInfoQuery, openFolderMutation } from "../api.ts";

export function DesktopFolders({ desktop }: { readonly desktop: DesktopApi }) {
  const appInfo = useQuery(appInfoQuery(desktop));
  const info = appInfo.data ?? null;
  const opening = useMutation(openFolderMutation(desktop));
  const open = (path: string) => opening.mutate(path);
  const failed = opening.error ?? appInfo.error;

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
      {failed === null ? null : <ErrorMessage error={desktopErrorWords(bridgeErrorOf(failed))} />}
    </Panel>
  );
}
