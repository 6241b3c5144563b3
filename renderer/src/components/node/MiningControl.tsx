/**
 * Turns the node's built-in miner on and off and shows its hash rate. Uses the app-private
 * route /app/api/mining, which the node answers only for clients on this computer.
 * @module
 */
import { useCallback, useState } from "react";
import { ClientErrorCode } from "../../api/clientError.ts";
import type { NodeClient } from "../../api/nodeClient.ts";
import { formatHashRate, formatInteger } from "../../format/number.ts";
import { usePolled } from "../../hooks/usePolled.ts";
import { ErrorNotice } from "../ErrorNotice.tsx";

const MINING_EVERY_MS = 2000;

export function MiningControl({ client }: { readonly client: NodeClient }) {
  const mining = usePolled(
    useCallback(() => client.mining(), [client]),
    MINING_EVERY_MS,
  );
  const [busy, setBusy] = useState(false);
  const r = mining.result;

  const toggle = (enabled: boolean) => {
    setBusy(true);
    void client.setMining({ enabled }).then((reply) => {
      mining.set(reply);
      setBusy(false);
    });
  };

  const forbidden =
    r !== null && !r.ok && r.error.code === ClientErrorCode.HttpStatus && r.error.status === 403;
  return (
    <section aria-labelledby="mining-title" className="panel">
      <h2 id="mining-title">Mining</h2>
      {r === null ? <p>Loading the miner's state…</p> : null}
      {forbidden ? (
        <p className="notice">
          Mining can be turned on and off only on the computer that runs the node.
        </p>
      ) : r !== null && !r.ok ? (
        <ErrorNotice error={r.error} what="the miner's state" onRetry={mining.refresh} />
      ) : null}
      {r?.ok ? (
        <>
          <div className="switch-row">
            <input
              id="mining-switch"
              type="checkbox"
              role="switch"
              checked={r.value.enabled}
              aria-checked={r.value.enabled}
              disabled={busy}
              aria-describedby="mining-help"
              onChange={(e) => toggle(e.currentTarget.checked)}
            />
            <label htmlFor="mining-switch">Mining</label>
            <span className={r.value.enabled ? "good" : ""} data-testid="mining-state">
              {r.value.enabled ? "On" : "Off"}
            </span>
          </div>
          <p id="mining-help" className="hint">
            The built-in miner searches for blocks on this computer's processor.
          </p>
          <dl className="facts">
            <dt>Hash rate</dt>
            <dd data-testid="hash-rate">{formatHashRate(r.value.hashRate)}</dd>
            <dt>Threads</dt>
            <dd>{r.value.threads}</dd>
            <dt>Blocks found</dt>
            <dd data-testid="blocks-found">{formatInteger(r.value.blocksFound)}</dd>
            <dt>Reward account</dt>
            <dd>{r.value.account === null ? "None set" : <code>{r.value.account}</code>}</dd>
          </dl>
        </>
      ) : null}
    </section>
  );
}
