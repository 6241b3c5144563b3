/**
 * The built-in miner: the "Mining" switch with its state and, always beside it, why it is or
 * is not mining (with a button when one switch would make it mine), "Mine on demand" on
 * development networks, the reward account (one of the wallet's accounts, or a typed account
 * and its keys; a `k:` account needs none), the threads, and the miner's figures. Uses the
 * app-private route /app/api/mining, which the node answers only for its own app on this
 * computer. A refusal (no reward account, a `k:` account with other keys) stays beside the
 * switch until a change succeeds or the user dismisses it.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { formatHashRate, formatInteger } from "../../../format/number.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { Switch } from "../../../ui/Switch.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { nodeStatusQuery } from "../api.ts";
import { useMining } from "../hooks/useMining.ts";
import { useNow } from "../hooks/useNow.ts";
import {
  isForbiddenHere,
  minerReason,
  minerStateText,
  rewardAccountInput,
  threadChoices,
  timeSince,
} from "../model.ts";

/** `walletAccounts`: the wallet's accounts, offered as reward accounts. */
export function MiningControl({
  walletAccounts,
}: {
  readonly walletAccounts: readonly { readonly account: string; readonly label: string }[];
}) {
  const { client } = useServices();
  const mining = useMining();
  const { status, busy, refusal, dismissRefusal } = mining;
  const nodeStatus = useQuery(nodeStatusQuery(client));
  const now = useNow(1000);
  const threadsId = useId();
  const walletAccountId = useId();
  const loadError = status.status === "error" ? clientErrorOf(status.error) : null;
  const s = status.data;

  const [account, setAccount] = useState("");
  const [keys, setKeys] = useState("");
  const [walletAccount, setWalletAccount] = useState("");
  const [formError, setFormError] = useState<{ field: "account" | "keys"; error: string } | null>(
    null,
  );
  // The field starts with the node's account once it is known.
  const nodeAccount = s?.account ?? null;
  useEffect(() => {
    if (nodeAccount !== null) setAccount((a) => (a === "" ? nodeAccount : a));
  }, [nodeAccount]);
  const chosen = walletAccount || (walletAccounts[0]?.account ?? "");

  const submitAccount = () => {
    const input = rewardAccountInput(account, keys);
    if (!input.ok) {
      setFormError({ field: input.field, error: input.error });
      return;
    }
    setFormError(null);
    mining.setAccount(input.account, input.publicKeys);
  };
  const chooseWalletAccount = () => {
    setAccount(chosen);
    setKeys("");
    setFormError(null);
    mining.setAccount(chosen, []);
  };

  const reason = s === undefined ? null : minerReason(s);
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
      {s === undefined || reason === null ? null : (
        <>
          <div className="switch-row">
            <Switch
              label="Mining"
              isSelected={s.enabled}
              isReadOnly={busy}
              onChange={mining.setEnabled}
              aria-describedby={
                refusal === null ? "mining-reason mining-help" : "mining-reason mining-refusal"
              }
            />
            <span
              className={s.active ? "state good" : "state"}
              data-testid="mining-state"
              role="status"
            >
              {minerStateText(s)}
            </span>
          </div>
          <div className="miner-reason">
            <p id="mining-reason" data-testid="mining-reason">
              {reason.text}
            </p>
            {reason.fix === "on-demand" ? (
              <Button size="sm" isDisabled={busy} onPress={() => mining.setOnDemand(true)}>
                Turn mine on demand on
              </Button>
            ) : null}
          </div>
          {s.onDemandAvailable ? (
            <div className="switch-row">
              <Switch
                label="Mine on demand"
                isSelected={s.onDemand}
                isReadOnly={busy}
                onChange={mining.setOnDemand}
                aria-describedby="on-demand-help"
              />
            </div>
          ) : null}
          {refusal === null ? null : (
            <ErrorMessage
              id="mining-refusal"
              testId="mining-refusal"
              title={refusal.title}
              error={refusal.error}
            >
              <Button size="sm" onPress={dismissRefusal}>
                Dismiss
              </Button>
            </ErrorMessage>
          )}
          <p id="mining-help" className="hint">
            The built-in miner searches for blocks on this computer's processor.
          </p>
          {s.onDemandAvailable ? (
            <p id="on-demand-help" className="hint">
              Mine on demand (development networks): blocks are mined only while something waits for
              them (a transaction, until it is confirmed; a cross-chain transfer, until its target
              chain has the height its proof needs); without a reward account they pay the test
              account sender09. Mining, when on, mines all the time instead.
            </p>
          ) : null}
          <h3 className="panel-subtitle">Where rewards go</h3>
          {walletAccounts.length === 0 ? null : (
            <div className="wallet-reward">
              <div className="field">
                <label className="field-label" htmlFor={walletAccountId}>
                  Wallet account
                </label>
                <select
                  id={walletAccountId}
                  className="input"
                  value={chosen}
                  onChange={(e) => setWalletAccount(e.target.value)}
                >
                  {walletAccounts.map((a) => (
                    <option key={a.account} value={a.account}>
                      {a.label} — {a.account}
                    </option>
                  ))}
                </select>
              </div>
              <Button
                size="sm"
                isDisabled={busy || chosen === s.account}
                onPress={chooseWalletAccount}
              >
                Use as reward account
              </Button>
            </div>
          )}
          <form
            className="reward-form"
            onSubmit={(e) => {
              e.preventDefault();
              submitAccount();
            }}
          >
            <TextField
              label="Reward account"
              value={account}
              onChange={setAccount}
              error={formError?.field === "account" ? formError.error : null}
              hint={
                walletAccounts.length === 0
                  ? "The account block rewards go to, e.g. k:<your public key>; or create a wallet and use one of its accounts."
                  : "Or another account block rewards go to, e.g. k:<public key>."
              }
            />
            <TextField
              label="Public keys"
              value={keys}
              onChange={setKeys}
              error={formError?.field === "keys" ? formError.error : null}
              hint="Only for an account that is not a k: account; separate keys with commas."
            />
            <Button type="submit" size="sm" isDisabled={busy}>
              Set reward account
            </Button>
          </form>
          <div className="field">
            <label className="field-label" htmlFor={threadsId}>
              Threads
            </label>
            <select
              id={threadsId}
              className="input"
              value={s.threads}
              disabled={busy}
              onChange={(e) => mining.setThreads(Number(e.target.value))}
            >
              {threadChoices(nodeStatus.data?.cpus, s.threads).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <dl className="facts">
            <dt>Hash rate</dt>
            <dd data-testid="hash-rate">{formatHashRate(s.hashRate)}</dd>
            <dt>Blocks found</dt>
            <dd data-testid="blocks-found">{formatInteger(s.blocksFound)}</dd>
            <dt>Last block found</dt>
            <dd data-testid="last-block">{timeSince(s.lastBlockAt, now)}</dd>
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
