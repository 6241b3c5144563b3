/**
 * The node's settings: network, port, data folder, and the public mining and backup APIs.
 * In the desktop app they are saved in the app's settings (through the desktop bridge,
 * `<userData>/settings.json`) and apply when the node starts again: the panel says so and
 * offers "Restart node" (`POST /app/api/node/restart`, docs/desktop.md §3.4): the app's
 * supervisor reads the saved settings again when it restarts the node. A node run headless
 * takes its settings from its command line or its `--settings` file, read again on restart
 * (docs/user-guide.md): the panel shows the running ones and how to change them. "Restart
 * node" is offered in both.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useId, useState } from "react";
import {
  type AppSettings,
  type BridgeError,
  type DesktopNetwork,
  desktopNetworks,
  type SettingsPatch,
} from "../../../../../electron/ipc/contract.ts";
import {
  clientErrorWords,
  desktopErrorWords,
  type ShownError,
  withLead,
} from "../../../api/errorWords.ts";
import type { DesktopApi } from "../../../desktop/desktopBridge.ts";
import { useRestartPhase, useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { Switch } from "../../../ui/Switch.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { nodeStatusQuery } from "../api.ts";
import { settingsPatchOf } from "../model.ts";

export function NodeSettings() {
  const { desktop } = useServices();
  return (
    <Panel id="settings" title="Settings">
      {desktop === null ? <HeadlessSettings /> : <DesktopSettings desktop={desktop} />}
      <RestartButton />
    </Panel>
  );
}

function RestartButton() {
  const { restart } = useServices();
  const phase = useRestartPhase();
  const [error, setError] = useState<ShownError | null>(null);
  const busy = phase.kind === "restarting";
  return (
    <>
      <Button
        isDisabled={busy}
        onPress={() =>
          void restart
            .restart()
            .then((r) =>
              setError(
                r.ok ? null : withLead("The node did not restart.", clientErrorWords(r.error)),
              ),
            )
        }
      >
        Restart node
      </Button>
      {error === null ? null : <ErrorMessage testId="restart-refusal" error={error} />}
    </>
  );
}

function HeadlessSettings() {
  const { client } = useServices();
  const status = useQuery(nodeStatusQuery(client));
  const s = status.data;
  return (
    <>
      {s === undefined ? null : (
        <dl className="facts">
          <dt>Network</dt>
          <dd>{s.network}</dd>
          <dt>Data folder</dt>
          <dd>
            <LongValue value={s.dataDir} what="data folder" />
          </dd>
          <dt>Public mining API</dt>
          <dd data-testid="public-mining-api">{s.publicApis.mining ? "On" : "Off"}</dd>
          <dt>Public backup API</dt>
          <dd data-testid="public-backup-api">{s.publicApis.backup ? "On" : "Off"}</dd>
        </dl>
      )}
      <p className="hint">
        This node runs without the desktop app: its settings are the options it was started with on
        the command line (<code>npm start -- --headless</code> and its options), or the settings
        file it was started with (<code>npm start -- --headless --settings FILE</code>, the desktop
        app's <code>settings.json</code> format). Changes to that file apply on "Restart node";
        other options need the node started again by hand.
      </p>
    </>
  );
}

function DesktopSettings({ desktop }: { readonly desktop: DesktopApi }) {
  const [saved, setSaved] = useState<AppSettings | null>(null);
  const [running, setRunning] = useState<AppSettings | null>(null);
  const [network, setNetwork] = useState<DesktopNetwork>("development");
  const [port, setPort] = useState("");
  const [dataDir, setDataDir] = useState("");
  const [miningApi, setMiningApi] = useState(false);
  const [backupApi, setBackupApi] = useState(false);
  const [error, setError] = useState<BridgeError | string | null>(null);
  const networkId = useId();
  const phase = useRestartPhase();

  const show = useCallback((s: AppSettings) => {
    setSaved(s);
    setNetwork(s.network);
    setPort(String(s.port));
    setDataDir(s.dataDir ?? "");
    setMiningApi(s.miningApi);
    setBackupApi(s.backupApi);
  }, []);
  useEffect(() => {
    let live = true;
    void desktop.readSettings().then((r) => {
      if (!live) return;
      if (r.ok) {
        show(r.value);
        setRunning(r.value);
      } else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [desktop, show]);

  // Back from a restart: the node runs the settings saved until then (the supervisor read them).
  const back = phase.kind === "back";
  useEffect(() => {
    if (!back) return;
    let live = true;
    void desktop.readSettings().then((r) => {
      if (live && r.ok) setRunning(r.value);
    });
    return () => {
      live = false;
    };
  }, [back, desktop]);

  const save = () => {
    const patch = settingsPatchOf({ network, port, dataDir, miningApi, backupApi });
    if (!patch.ok) {
      setError(patch.error);
      return;
    }
    void desktop.writeSettings(patch.value satisfies SettingsPatch).then((r) => {
      if (r.ok) {
        show(r.value);
        setError(null);
      } else setError(r.error);
    });
  };

  const pending =
    saved !== null &&
    running !== null &&
    (saved.network !== running.network ||
      saved.port !== running.port ||
      saved.dataDir !== running.dataDir ||
      saved.miningApi !== running.miningApi ||
      saved.backupApi !== running.backupApi);

  return (
    <form
      className="reward-form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <div className="field">
        <label className="field-label" htmlFor={networkId}>
          Network
        </label>
        <select
          id={networkId}
          className="input"
          value={network}
          onChange={(e) => setNetwork(e.target.value as DesktopNetwork)}
        >
          {desktopNetworks.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <TextField label="Port" value={port} onChange={setPort} inputMode="numeric" />
      <TextField
        label="Data folder"
        value={dataDir}
        onChange={setDataDir}
        hint="Empty: the app's default folder."
      />
      <Switch label="Public mining API" isSelected={miningApi} onChange={setMiningApi} />
      <Switch label="Public backup API" isSelected={backupApi} onChange={setBackupApi} />
      <Button type="submit" size="sm">
        Save settings
      </Button>
      {error === null ? null : (
        <ErrorMessage error={typeof error === "string" ? error : desktopErrorWords(error)} />
      )}
      {pending ? (
        <Notice tone="info" testId="settings-pending">
          <p>Saved. The node uses the new settings once it starts again: restart it below.</p>
        </Notice>
      ) : null}
    </form>
  );
}
