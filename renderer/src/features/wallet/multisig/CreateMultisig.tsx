/**
 * "Create a multi-signature account": public keys typed or pasted and the wallet's own picked,
 * a predicate (keys-all, keys-any, keys-2), the chains, and the wallet account that pays; the
 * account's name is the keyset's `w:` principal. "Review" shows exactly what is signed (the
 * code, the keyset, the payer's capability, gas, expiry) before anything is; "Create the
 * account" then signs one `coin.create-account` per chain with the payer's key, has the node
 * check it first and sends it. Each goes into the history, whose polling follows it: the
 * outcome of each chain reads "Sent, waiting for a block" until it is "Created in block N" or
 * failed. The account joins the wallet's multi-signature accounts (watched like the others).
 * @module
 */
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { commandModel } from "../../../../../src-node/command/commandModel.ts";
import type { Command } from "../../../../../src-node/command/commandTypes.ts";
import type { HistoryEntry } from "../../../../../src-node/walletFiles/historyEntry.ts";
import {
  KEYSET_PREDS,
  type KeysetPred,
} from "../../../../../src-node/walletFiles/multisigAccount.ts";
import { COIN_DECIMALS, formatAmount } from "../../../format/amount.ts";
import { formatDateTime } from "../../../format/dateTime.ts";
import { useLiveChain, useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { SelectField } from "../../../ui/SelectField.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { usePendingTransfers } from "../crosschain/PendingProvider.tsx";
import { newHistoryEntry } from "../history/historyModel.ts";
import { preflightAndSend } from "../transfer/preflightAndSend.ts";
import { accountOptions, type SigningAccount } from "../transfer/TransferFlow.tsx";
import { DEFAULT_GAS_LIMIT, DEFAULT_TTL, MIN_GAS_PRICE } from "../transfer/transferRules.ts";
import {
  ACCOUNT_GUARD_KEY,
  buildKeyset,
  createAccountCode,
  createAccountPayload,
  describePred,
  multisigAccountName,
  parseChains,
  parsePublicKeys,
} from "./multisigAccount.ts";

/** A chain's creation: refused before sending (`text`), or sent and followed by request key. */
type ChainOutcome =
  | { readonly chain: number; readonly ok: false; readonly text: string }
  | { readonly chain: number; readonly ok: true; readonly requestKey: string };

/** A sent creation as the history follows it (`pollHistory.ts`). */
function sentText(entry: HistoryEntry | undefined, requestKey: string): string {
  switch (entry?.status) {
    case "succeeded":
      return `Created in block ${entry.blockHeight ?? "?"}`;
    case "failed":
      return `Failed${entry.message === null ? "" : `: ${entry.message}`}`;
    case "expired":
      return "Expired: no block took it in time";
    default:
      return `Sent, waiting for a block (request key ${requestKey})`;
  }
}

export function CreateMultisig({
  accounts,
  sign,
}: {
  readonly accounts: readonly SigningAccount[];
  readonly sign: (keyId: string, requestKey: string) => Promise<string>;
}) {
  const { config, pact } = useServices();
  const { heights } = useLiveChain();
  const { recordHistory, addMultisig, history } = usePendingTransfers();
  const keysId = useId();
  const [keysText, setKeysText] = useState("");
  const [own, setOwn] = useState<readonly string[]>([]);
  const [pred, setPred] = useState<KeysetPred>("keys-all");
  const [chainsText, setChainsText] = useState("0");
  const [payerKey, setPayerKey] = useState(accounts[0]?.keyId ?? "");
  // Which chain "Create the account" is on now, and what came of each chain so far.
  const [step, setStep] = useState<string | null>(null);
  const [outcomes, setOutcomes] = useState<readonly ChainOutcome[]>([]);
  const [tried, setTried] = useState(false);
  // The review's moment: the commands signed then are the ones reviewed (their creation time).
  const [reviewing, setReviewing] = useState<number | null>(null);

  const available = heights.heads.map((h) => h.chainId);
  const typed = parsePublicKeys(keysText);
  const keyset = typed.ok ? buildKeyset(typed.value, own, pred) : typed;
  const chains = parseChains(chainsText, available);
  const payer = accounts.find((a) => a.keyId === payerKey) ?? accounts[0];
  const name = keyset.ok ? multisigAccountName(keyset.value) : null;

  const review = () => {
    setTried(true);
    setOutcomes([]);
    if (!keyset.ok || !chains.ok || payer === undefined || name === null) return;
    setReviewing(Math.floor(Date.now() / 1000) - 15);
  };

  /** One creation per chain, each said as it ends; a failure is an outcome, never thrown. */
  const createOnChains = async (creationTime: number) => {
    setOutcomes([]);
    if (!keyset.ok || !chains.ok || payer === undefined || name === null) return;
    const done: ChainOutcome[] = [];
    const say = (o: ChainOutcome) => {
      done.push(o);
      setOutcomes([...done]);
    };
    try {
      for (const chain of chains.value) {
        setStep(`Creating the account on chain ${chain}…`);
        const payload = createAccountPayload({
          networkId: config.networkId,
          chainId: chain,
          account: name,
          guard: keyset.value,
          payer: payer.account,
          payerPublicKey: payer.publicKey,
          gasLimit: DEFAULT_GAS_LIMIT,
          gasPrice: MIN_GAS_PRICE,
          ttl: DEFAULT_TTL,
          creationTime,
          nonce: crypto.randomUUID(),
        });
        const unsigned = commandModel.buildCommand(payload);
        const sig = await sign(payer.keyId, unsigned.hash);
        const command: Command = { ...unsigned, sigs: [{ sig }] };
        const problem = await preflightAndSend(pact, chain, command);
        if (problem !== null) {
          say({ chain, ok: false, text: problem.text });
          continue;
        }
        recordHistory(
          newHistoryEntry({
            requestKey: unsigned.hash,
            kind: "create-account",
            chain,
            sender: payer.account,
            receiver: name,
            gasPrice: formatAmount(MIN_GAS_PRICE, COIN_DECIMALS, { group: false }),
            expiresAt: creationTime + DEFAULT_TTL,
            createdAt: Date.now(),
          }),
        );
        say({ chain, ok: true, requestKey: unsigned.hash });
      }
      const created = done.filter((o) => o.ok).map((o) => o.chain);
      if (created.length > 0) {
        addMultisig({
          account: name,
          keys: keyset.value.keys,
          pred: keyset.value.pred,
          chains: created,
          createdAt: Date.now(),
        });
      }
    } catch (e) {
      say({ chain: -1, ok: false, text: e instanceof Error ? e.message : String(e) });
    }
  };
  const create = useMutation({
    mutationFn: createOnChains,
    onSettled: () => setReviewing(null),
  });
  const busy = create.isPending ? (step ?? "Creating the account…") : null;

  if (accounts.length === 0) {
    return (
      <Notice tone="info">
        <p>The wallet has no key to pay with yet: add or import a key first.</p>
      </Notice>
    );
  }
  return (
    <Panel id="multisig-create" title="Create a multi-signature account">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          review();
        }}
      >
        <fieldset className="plain-fieldset" disabled={reviewing !== null}>
          <div className="field">
            <label className="field-label" htmlFor={keysId}>
              Public keys
            </label>
            <textarea
              id={keysId}
              className="input"
              rows={3}
              spellCheck={false}
              value={keysText}
              onChange={(e) => setKeysText(e.target.value)}
              placeholder="64 hex digits per key (or k: accounts), separated by spaces, commas or new lines"
            />
            {!typed.ok ? (
              <p className="field-error" role="alert">
                {typed.error}
              </p>
            ) : null}
          </div>
          <fieldset className="field">
            <legend className="field-label">Keys of this wallet</legend>
            {accounts.map((a) => (
              <label key={a.keyId} className="check">
                <input
                  type="checkbox"
                  checked={own.includes(a.publicKey)}
                  onChange={(e) =>
                    setOwn(
                      e.target.checked
                        ? [...own, a.publicKey]
                        : own.filter((k) => k !== a.publicKey),
                    )
                  }
                />{" "}
                {a.label} ({a.publicKey.slice(0, 12)}…)
              </label>
            ))}
          </fieldset>
          <SelectField
            label="Who signs"
            value={pred}
            options={KEYSET_PREDS.map((p) => ({ value: p, label: p }))}
            onChange={(v) => setPred(v as KeysetPred)}
          />
          <TextField
            label="Chains"
            value={chainsText}
            onChange={setChainsText}
            error={chains.ok ? null : chains.error}
            hint="The chains to create it on, e.g. 0, 3 (or all)."
          />
          <SelectField
            label="Paid by"
            value={payer?.keyId}
            options={accountOptions(accounts)}
            onChange={setPayerKey}
          />
          {keyset.ok && name !== null ? (
            <dl className="facts" data-testid="multisig-preview">
              <dt>Account</dt>
              <dd>
                <code data-testid="multisig-name">{name}</code>
              </dd>
              <dt>Guard</dt>
              <dd>
                {keyset.value.pred} ({describePred(keyset.value.pred, keyset.value.keys.length)}):{" "}
                {keyset.value.keys.join(", ")}
              </dd>
              <dt>Fee</dt>
              <dd>
                at most {formatAmount(BigInt(DEFAULT_GAS_LIMIT) * MIN_GAS_PRICE, COIN_DECIMALS)}{" "}
                coins per chain, paid by {payer?.account}
              </dd>
            </dl>
          ) : tried || keysText !== "" || own.length > 0 ? (
            <Notice tone="warning" testId="multisig-keyset-problem">
              <p>{keyset.ok ? "" : keyset.error}</p>
            </Notice>
          ) : null}
        </fieldset>
        {reviewing !== null ? null : (
          <Button type="submit" tone="primary" isDisabled={busy !== null}>
            Review
          </Button>
        )}
      </form>
      {reviewing !== null && keyset.ok && chains.ok && name !== null && payer !== undefined ? (
        <section aria-labelledby="multisig-create-review" className="review">
          <h3 id="multisig-create-review">Review</h3>
          <p>
            This is exactly what the payer's key signs, once per chain (
            {chains.value.length === 1 ? "1 transaction" : `${chains.value.length} transactions`}
            ):
          </p>
          <dl className="facts" data-testid="multisig-create-review">
            <dt>Network</dt>
            <dd>{config.networkId}</dd>
            <dt>Chains</dt>
            <dd>{chains.value.join(", ")}</dd>
            <dt>Code</dt>
            <dd>
              <code className="break-anywhere">{createAccountCode(name)}</code>
            </dd>
            <dt>Guard ({ACCOUNT_GUARD_KEY})</dt>
            <dd className="break-anywhere">
              {keyset.value.pred} of {keyset.value.keys.join(", ")}
            </dd>
            <dt>Signed by</dt>
            <dd className="break-anywhere">
              {payer.publicKey}, allowing only <code>(coin.GAS)</code>: it pays the gas
            </dd>
            <dt>Gas</dt>
            <dd>
              {DEFAULT_GAS_LIMIT.toLocaleString("en")} ×{" "}
              {formatAmount(MIN_GAS_PRICE, COIN_DECIMALS)} = at most{" "}
              {formatAmount(BigInt(DEFAULT_GAS_LIMIT) * MIN_GAS_PRICE, COIN_DECIMALS)} coins per
              chain, paid by <span className="break-anywhere">{payer.account}</span>
            </dd>
            <dt>Expires</dt>
            <dd>{formatDateTime((reviewing + DEFAULT_TTL) * 1000)}</dd>
          </dl>
          {busy === null ? null : <p role="status">{busy}</p>}
          <div className="dialog-actions">
            <Button onPress={() => setReviewing(null)} isDisabled={busy !== null}>
              Back
            </Button>
            <Button
              tone="primary"
              onPress={() => create.mutate(reviewing)}
              isDisabled={busy !== null}
            >
              Create the account
            </Button>
          </div>
        </section>
      ) : null}
      {outcomes.length === 0 ? null : (
        <ul className="plain-list" data-testid="multisig-create-outcomes">
          {outcomes.map((o) => (
            <li key={o.chain} className="break-anywhere">
              {o.chain < 0 ? "" : `Chain ${o.chain}: `}
              {o.ok
                ? sentText(
                    history.find((h) => h.requestKey === o.requestKey),
                    o.requestKey,
                  )
                : `not created — ${o.text}`}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
