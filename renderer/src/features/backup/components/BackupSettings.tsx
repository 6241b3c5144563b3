/**
 * Where backups go (the desktop's folder picker, or a text field in a browser; "Use the
 * default" goes back to `backups` beside the data folder) and the automatic backups
 * (off / daily / weekly at an hour, keeping the last N). Both are saved by the node
 * (`saveBackupSettingsMutation`).
 * @module
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { clientErrorWords } from "../../../api/errorWords.ts";
import { formatDateTime } from "../../../format/dateTime.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { chooseBackupFolderMutation, saveBackupSettingsMutation } from "../api.ts";
import type { BackupEvery, BackupOverview, BackupSchedule } from "../backupWire.ts";
import { WEEKDAYS } from "../model.ts";

const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, "0")}:00`);

/** A panel's settings change: `saved` once the node took it, `error` in words when it did not. */
function useSave() {
  const { client } = useServices();
  const queries = useQueryClient();
  const m = useMutation(saveBackupSettingsMutation(client, queries));
  return {
    save: m.mutate,
    error: m.error === null ? null : clientErrorWords(clientErrorOf(m.error)),
    saved: m.isSuccess,
  };
}

export function BackupFolder({ overview }: { readonly overview: BackupOverview }) {
  const { desktop } = useServices();
  const { save, error } = useSave();
  const [text, setText] = useState(overview.directory);
  // The picker's own failures are not shown (nothing was chosen); a choice is saved.
  const choosing = useMutation(chooseBackupFolderMutation(desktop));
  const choose = () =>
    choosing.mutate(overview.directory, {
      onSuccess: (chosen) => {
        if (chosen !== null) save({ directory: chosen });
      },
    });
  return (
    <Panel id="backup-folder" title="Where backups go">
      <p>
        {overview.chosen
          ? "In the folder you chose."
          : "In a folder named “backups” beside the node's data folder, unless you choose another."}
      </p>
      {desktop === null ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            save({ directory: text.trim() === "" ? null : text.trim() });
          }}
        >
          <TextField
            label="Backup folder"
            value={text}
            onChange={setText}
            hint="An absolute path to an existing folder on the computer that runs the node."
            error={error}
            spellCheck={false}
          />
          <Button type="submit">Save folder</Button>
        </form>
      ) : (
        <>
          <p>
            <code>{overview.directory}</code>
          </p>
          <Button onPress={choose}>Choose folder…</Button>
          {error === null ? null : <ErrorMessage error={error} />}
        </>
      )}
      {overview.chosen ? (
        <Button tone="quiet" size="sm" onPress={() => save({ directory: null })}>
          Use the default folder
        </Button>
      ) : null}
    </Panel>
  );
}

export function AutomaticBackups({ overview }: { readonly overview: BackupOverview }) {
  const { save, error, saved } = useSave();
  const [s, setS] = useState<BackupSchedule>(overview.schedule);
  const [keepText, setKeepText] = useState(String(overview.schedule.keep));
  const keep = Number(keepText);
  const keepError =
    Number.isInteger(keep) && keep >= 1 && keep <= 1000 ? null : "A whole number from 1 to 1000.";
  return (
    <Panel id="automatic-backups" title="Automatic backups">
      <form
        className="schedule-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (keepError === null) save({ schedule: { ...s, keep } });
        }}
      >
        <label className="field">
          <span className="field-label">Back up automatically</span>
          <select
            className="input"
            value={s.every}
            onChange={(e) => setS({ ...s, every: e.target.value as BackupEvery })}
          >
            <option value="off">Off</option>
            <option value="daily">Daily</option>
            <option value="weekly">Weekly</option>
          </select>
        </label>
        {s.every === "weekly" ? (
          <label className="field">
            <span className="field-label">Day</span>
            <select
              className="input"
              value={s.weekday}
              onChange={(e) => setS({ ...s, weekday: Number(e.target.value) })}
            >
              {WEEKDAYS.map((d, i) => (
                <option key={d} value={i}>
                  {d}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {s.every === "off" ? null : (
          <label className="field">
            <span className="field-label">At</span>
            <select
              className="input"
              value={s.hour}
              onChange={(e) => setS({ ...s, hour: Number(e.target.value) })}
            >
              {HOURS.map((h) => (
                <option key={h} value={Number(h.slice(0, 2))}>
                  {h}
                </option>
              ))}
            </select>
          </label>
        )}
        <TextField
          label="Keep the last"
          value={keepText}
          onChange={setKeepText}
          inputMode="numeric"
          hint="Finished backups kept; older ones are removed after each automatic backup."
          error={keepError}
        />
        <Button type="submit">Save schedule</Button>
      </form>
      <p className="hint">
        Automatic backups run only while the node runs; a time missed while it was stopped runs when
        it starts again.
        {overview.nextAutomatic === null
          ? ""
          : ` Next: ${formatDateTime(Date.parse(overview.nextAutomatic))}.`}
      </p>
      {saved ? <p role="status">Schedule saved.</p> : null}
      {error === null ? null : <ErrorMessage error={error} />}
    </Panel>
  );
}
