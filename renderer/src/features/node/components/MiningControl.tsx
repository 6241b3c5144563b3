/**
 * Turns the node's built-in miner on and off and shows its hash rate. Uses the app-private
 * route /app/api/mining, which the node answers only for its own app on this computer.
 * A refusal (e.g. no reward account) stays beside the switch until a change succeeds or the
 * user dismisses it.
 * @module
 */
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { formatHashRate, formatInteger } from "../../../format/number.ts";
import { Button } from "../../../ui/Button.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { Switch } from "../../../ui/Switch.tsx";
import { useMining } from "../hooks/useMining.ts";
import { isForbiddenHere } from "../model.ts";

export function MiningControl() {
  const { status, setEnabled, busy, refusal, dismissRefusal } = useMining();
  const loadError = status.status === "error" ? clientErrorOf(status.error) : null;
  const s = status.data;
  return (
    <Panel id="mining" title="Mining">
      {s === undefined && loadError === null ? <p>Loading the miner's state…</p> : null}
      {loadError === null ? null : isForbiddenHere(loadError) ? (
        <Notice tone="info">
          <p>Mining can be turned on and off only on the computer that runs the node.</p>
        </Notice>
      ) : (
        <ErrorNotice
          error={loadError}
          what="the miner's state"
          onRetry={() => void status.refetch()}
        />
      )}
      {s === undefined ? null : (
        <>
          <div className="switch-row">
            <Switch
              label="Mining"
              isSelected={s.enabled}
              isReadOnly={busy}
              onChange={setEnabled}
              aria-describedby={refusal === null ? "mining-help" : "mining-help mining-refusal"}
            />
            <span className={s.enabled ? "state good" : "state"} data-testid="mining-state">
              {s.enabled ? "On" : "Off"}
            </span>
          </div>
          {refusal === null ? null : (
            <Notice tone="error" id="mining-refusal" testId="mining-refusal">
              <p>
                <strong>{refusal.title}</strong> {refusal.detail}
              </p>
              <Button size="sm" onPress={dismissRefusal}>
                Dismiss
              </Button>
            </Notice>
          )}
          <p id="mining-help" className="hint">
            The built-in miner searches for blocks on this computer's processor.
          </p>
          <dl className="facts">
            <dt>Hash rate</dt>
            <dd data-testid="hash-rate">{formatHashRate(s.hashRate)}</dd>
            <dt>Threads</dt>
            <dd>{s.threads}</dd>
            <dt>Blocks found</dt>
            <dd data-testid="blocks-found">{formatInteger(s.blocksFound)}</dd>
            <dt>Reward account</dt>
            <dd data-testid="reward-account">
              {s.account === null ? (
                "None set"
              ) : (
                <LongValue value={s.account} what="reward account" />
              )}
            </dd>
          </dl>
        </>
      )}
    </Panel>
  );
}
