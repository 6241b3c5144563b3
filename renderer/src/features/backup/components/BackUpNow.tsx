/**
 * "Back up now": the contract-state switch with the expected size and time, the button, the
 * running job's progress (a bar per database and overall, time left) and the result (id,
 * size, duration, cut height, and "verified", "in progress" or "failed" with the reason).
 * @module
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { clientErrorWords } from "../../../api/errorWords.ts";
import { formatInteger } from "../../../format/number.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { Switch } from "../../../ui/Switch.tsx";
import { backupKeys, jobQuery, saveBackupSettingsMutation, startBackupMutation } from "../api.ts";
import type { BackupOverview } from "../backupWire.ts";
import {
  backupFailureWords,
  durationSeconds,
  formatBytes,
  formatSeconds,
  progressShare,
  statusText,
  timeLeftText,
} from "../model.ts";

function Bar({ label, share }: { readonly label: string; readonly share: number }) {
  const percent = Math.round(share * 100);
  return (
    <div className="backup-bar">
      <span className="backup-bar-label">{label}</span>
      <progress className="backup-bar-track" aria-label={label} value={percent} max={100} />
      <span className="backup-bar-value">{percent} %</span>
    </div>
  );
}

function Job({ id }: { readonly id: string }) {
  const { client } = useServices();
  const queries = useQueryClient();
  const job = useQuery(jobQuery(client, id));
  const status = job.data?.status;
  useEffect(() => {
    if (status !== undefined && status !== "backup-in-progress") {
      void queries.invalidateQueries({ queryKey: backupKeys.overview });
    }
  }, [status, queries]);
  if (job.error !== null) {
    return (
      <ErrorMessage
        title="Could not follow the backup."
        error={clientErrorWords(clientErrorOf(job.error))}
      />
    );
  }
  const j = job.data;
  if (j === undefined) return <p role="status">Starting the backup…</p>;
  const text = statusText(j.status);
  const seconds = durationSeconds(j.startedAt, j.finishedAt);
  return (
    <div className="backup-job" data-testid="backup-job">
      <p role="status">
        Backup <code>{j.id}</code>: <strong data-testid="backup-status">{text}</strong>
        {j.status === "backup-in-progress" && j.secondsLeft !== null
          ? ` · ${timeLeftText(j.secondsLeft)}`
          : ""}
      </p>
      {j.status === "backup-in-progress" && (
        <>
          <Bar label="All databases" share={progressShare(j.databases)} />
          {j.databases.map((d) => (
            <Bar key={d.name} label={d.name} share={progressShare([d])} />
          ))}
        </>
      )}
      {j.status === "backup-done" && (
        <dl className="facts">
          <dt>Size</dt>
          <dd>{formatBytes(j.bytes)}</dd>
          <dt>Duration</dt>
          <dd>{seconds === null ? "—" : formatSeconds(seconds)}</dd>
          <dt>Cut height</dt>
          <dd>{j.cutHeight === null ? "—" : formatInteger(j.cutHeight)}</dd>
        </dl>
      )}
      {j.status === "backup-failed" && j.error !== null && (
        <ErrorMessage title="The backup failed." error={backupFailureWords(j.error)} />
      )}
    </div>
  );
}

export function BackUpNow({ overview }: { readonly overview: BackupOverview }) {
  const { client } = useServices();
  const queries = useQueryClient();
  // The job followed: the one running when the page opened, then the one started here.
  const [jobId, setJobId] = useState<string | null>(overview.runningId);
  const saving = useMutation(saveBackupSettingsMutation(client, queries));
  const starting = useMutation(startBackupMutation(client, queries));
  const busy = starting.isPending;
  // The last action's failure only: starting one forgets the other's.
  const failed = starting.error ?? saving.error;
  const error = failed === null ? null : clientErrorWords(clientErrorOf(failed));
  const e = overview.estimate;
  const withState = overview.includeState;

  const toggle = (includeState: boolean) => {
    starting.reset();
    saving.mutate({ includeState });
  };
  const start = () => {
    saving.reset();
    starting.mutate(withState, { onSuccess: setJobId });
  };

  return (
    <Panel id="back-up-now" title="Back up now">
      <Switch label="Include contract state" isSelected={withState} onChange={toggle} />
      <p className="hint" data-testid="backup-estimate">
        Expected: about {formatBytes(withState ? e.bytes : e.bytesWithoutState)}, taking{" "}
        {formatSeconds(withState ? e.seconds : e.secondsWithoutState)}.
        {withState
          ? " The contract state makes a restore ready at once."
          : " Without the contract state, a restored node rebuilds it by replaying the blocks."}
      </p>
      <Button tone="primary" onPress={start} isDisabled={busy}>
        Back up now
      </Button>
      {error === null ? null : <ErrorMessage error={error} />}
      {jobId === null ? null : <Job id={jobId} />}
    </Panel>
  );
}
