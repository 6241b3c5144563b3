/**
 * The node's settings: network, port, data folder, and the public mining and backup APIs.
 * In the desktop app they are saved in the app's settings (through the desktop bridge,
 * `<userData>/settings.json`) and apply when the node starts again: the panel says so and
 * offers "Restart node" (`POST /app/api/node/restart`, docs/desktop.md §3.4): the app's
 * supervisor reads the saved settings again when it restarts the node. A node run headless
 * takes its settings from its command line or its `--settings` file, read again on restart
 * (docs/user-guide.md): the panel shows the running ones and how to change them. "Restart
 * node" is offered in both. The file is read and saved through the queries and mutations of
 * `../api.ts` (`savedSettingsQuery`, `saveSettingsMutation`); what the node runs is the file as
 * read when the form shows and when the node is back from a restart (`runningSettingsQuery`).
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import {
  type AppSettings,
  type DesktopNetwork,
  desktopNetworks,
  type SettingsPatch,
} from "../../../../../electron/ipc/contract.ts";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { clientErrorWords, desktopErrorWords, withLead } from "../../../api/errorWords.ts";
import { bridgeErrorOf } from "../../../desktop/bridgeFailure.ts";
import type { DesktopApi } from "../../../desktop/desktopBridge.ts";
import { useRestartPhase, useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { Switch } from "../../../ui/Switch.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import {
  nodeStatusQuery,
  restartNodeMutation,
  runningSettingsQuery,
  savedSettingsQuery,
  saveSettingsMutation,
} from "../api.ts";
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
  const restarting = useMutation(restartNodeMutation(restart));
  const error =
    restarting.error === null
      ? null
      : withLead("The node did not restart.", clientErrorWords(clientErrorOf(restarting.error)));
  const busy = phase.kind === "restarting";
  return (
    <>
      <Button isDisabled={busy} onPress={() => restarting.mutate()}>
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

/** The form's fields. */
type SettingsForm = {
  readonly network: DesktopNetwork;
  readonly port: string;
  readonly dataDir: string;
  readonly miningApi: boolean;
  readonly backupApi: boolean;
};

/** The form showing `s` (before the file is read: the defaults, empty port and folder). */
function formOf(s: AppSettings | undefined): SettingsForm {
  return {
    network: s?.network ?? "development",
    port: s === undefined ? "" : String(s.port),
    dataDir: s?.dataDir ?? "",
    miningApi: s?.miningApi ?? false,
    backupApi: s?.backupApi ?? false,
  };
}

function DesktopSettings({ desktop }: { readonly desktop: DesktopApi }) {
  const queries = useQueryClient();
  const savedQuery = useQuery(savedSettingsQuery(desktop));
  const runningQuery = useQuery(runningSettingsQuery(desktop));
  const saving = useMutation(saveSettingsMutation(desktop, queries));
  // The user's changes since the file was read or saved; null: the form shows the file.
  const [edited, setEdited] = useState<SettingsForm | null>(null);
  // What is wrong with the form, found before saving.
  const [formProblem, setFormProblem] = useState<string | null>(null);
  const networkId = useId();
  const saved = savedQuery.data ?? null;
  const running = runningQuery.data ?? null;
  const form = edited ?? formOf(savedQuery.data);
  const edit = (change: Partial<SettingsForm>) => setEdited({ ...form, ...change });
  const { network, port, dataDir, miningApi, backupApi } = form;
  const failed = saving.error ?? (saved === null ? savedQuery.error : null);
  const error = formProblem ?? (failed === null ? null : desktopErrorWords(bridgeErrorOf(failed)));

  const save = () => {
    const patch = settingsPatchOf(form);
    if (!patch.ok) {
      setFormProblem(patch.error);
      return;
    }
    setFormProblem(null);
    // Saved, the form shows the file as saved from then on.
    saving.mutate(patch.value satisfies SettingsPatch, { onSuccess: () => setEdited(null) });
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
          onChange={(e) => edit({ network: e.target.value as DesktopNetwork })}
        >
          {desktopNetworks.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <TextField
        label="Port"
        value={port}
        onChange={(v) => edit({ port: v })}
        inputMode="numeric"
      />
      <TextField
        label="Data folder"
        value={dataDir}
        onChange={(v) => edit({ dataDir: v })}
        hint="Empty: the app's default folder."
      />
      <Switch
        label="Public mining API"
        isSelected={miningApi}
        onChange={(on) => edit({ miningApi: on })}
      />
      <Switch
        label="Public backup API"
        isSelected={backupApi}
        onChange={(on) => edit({ backupApi: on })}
      />
      <Button type="submit" size="sm">
        Save settings
      </Button>
      {error === null ? null : <ErrorMessage error={error} />}
      {pending ? (
        <Notice tone="info" testId="settings-pending">
          <p>Saved. The node uses the new settings once it starts again: restart it below.</p>
        </Notice>
      ) : null}
    </form>
  );
}
