/**
 * Sending coins: the form (from, chain or "pick the chain with enough funds", target chain
 * (another chain: a cross-chain transfer, `../crosschain/`), receiver with its guard read on
 * the target chain, amount and "Max", gas limit and price with
 * the fee in the coin), the review of exactly what is signed, then "Sign and send" (the
 * vault signs the request key; a `/local` preflight, then `/send`) and the status.
 * The form's state and rules are `transferForm.ts` (shared with the multi-signature transfer);
 * nothing is signed before every rule passes.
 * @module
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useReducer, useState } from "react";
import { commandModel } from "../../../../../src-node/command/commandModel.ts";
import type { Command, UnsignedCommand } from "../../../../../src-node/command/commandTypes.ts";
import { thrownErrorWords, WordedError } from "../../../api/errorWords.ts";
import { COIN_DECIMALS, formatAmount, maxGasFee } from "../../../format/amount.ts";
import { formatDateTime } from "../../../format/dateTime.ts";
import { useLiveChain, useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { ErrorMessage } from "../../../ui/ErrorMessage.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { SelectField, type SelectOption } from "../../../ui/SelectField.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { describeGuard } from "../accounts/accountDetails.ts";
import { useAccountsOnChains } from "../accounts/useAccountsOnChains.ts";
import { accountsQuery } from "../api.ts";
import { usePendingTransfers } from "../crosschain/PendingProvider.tsx";
import { newPending } from "../crosschain/pendingTransfer.ts";
import { newHistoryEntry } from "../history/historyModel.ts";
import { PreparedForOthers } from "../sign/PreparedForOthers.tsx";
import { preflightAndSend } from "./preflightAndSend.ts";
import { SendAnother, TransferStatus } from "./TransferStatus.tsx";
import {
  capabilityText,
  isCrossChain,
  type TransferPlan,
  transferCode,
  transferPayload,
} from "./transferCommand.ts";
import {
  newTransferForm,
  readTransferForm,
  transferFormReducer,
  transferPlanOf,
  transferWhere,
} from "./transferForm.ts";

/** An account the wallet can sign for: its vault key. */
export type SigningAccount = {
  readonly keyId: string;
  readonly account: string;
  readonly publicKey: string;
  readonly label: string;
};

/** The accounts as a select's options: "label — account", by key. */
export const accountOptions = (accounts: readonly SigningAccount[]): SelectOption[] =>
  accounts.map((a) => ({ value: a.keyId, label: `${a.label} — ${a.account}` }));

export type TransferFlowProps = {
  readonly accounts: readonly SigningAccount[];
  /** The account chosen first (the page's `?from=`); default the first account. */
  readonly from?: string | undefined;
  /** The vault's signature (128 hex) of a request key with a key. */
  readonly sign: (keyId: string, requestKey: string) => Promise<string>;
};

type Review = {
  readonly plan: TransferPlan;
  readonly unsigned: UnsignedCommand;
  readonly keyId: string;
};

const fmt = (units: bigint) => formatAmount(units, COIN_DECIMALS);

function ReviewPanel({
  review,
  onBack,
  onSent,
  sign,
}: {
  readonly review: Review;
  readonly onBack: () => void;
  readonly onSent: (requestKey: string) => void;
  readonly sign: TransferFlowProps["sign"];
}) {
  const { pact } = useServices();
  // What "Sign and send" is doing now: signing, the preflight, the send itself.
  const [step, setStep] = useState<string | null>(null);
  const [prepared, setPrepared] = useState(false);
  const { plan, unsigned } = review;
  const payload = transferPayload(plan);
  const caps = payload.signers[0]?.clist ?? [];
  const crossChain = isCrossChain(plan);
  const expiry = new Date((plan.creationTime + plan.ttl) * 1000);

  const signAndSend = useMutation({
    mutationFn: async () => {
      setStep("Signing…");
      const sig = await sign(review.keyId, unsigned.hash);
      const command: Command = { ...unsigned, sigs: [{ sig }] };
      const problem = await preflightAndSend(pact, plan.chainId, command, setStep);
      if (problem !== null) throw new WordedError(problem);
    },
    onSuccess: () => onSent(unsigned.hash),
  });
  const busy = signAndSend.isPending ? (step ?? "Signing…") : null;
  const failure =
    signAndSend.error === null ? null : thrownErrorWords(signAndSend.error, "Nothing was sent.");

  return (
    <Panel id="transfer-review" title="Review">
      <p>This is exactly what your key signs:</p>
      <dl className="facts" data-testid="review">
        <dt>Network</dt>
        <dd data-testid="review-network">{plan.networkId}</dd>
        <dt>Chain</dt>
        <dd data-testid="review-chain">{plan.chainId}</dd>
        {crossChain ? (
          <>
            <dt>Target chain</dt>
            <dd data-testid="review-target-chain">
              {plan.targetChainId} (the wallet finishes the transfer there by itself; the gas
              station pays that step's gas)
            </dd>
          </>
        ) : null}
        <dt>From</dt>
        <dd>{plan.sender}</dd>
        <dt>To</dt>
        <dd>{plan.receiver}</dd>
        <dt>Amount</dt>
        <dd data-testid="review-amount">{fmt(plan.amount)}</dd>
        <dt>Code</dt>
        <dd>
          <code data-testid="review-code">{transferCode(plan)}</code>
        </dd>
        {plan.createGuard === null ? null : (
          <>
            <dt>{crossChain ? "Receiver's guard" : "New account's guard"}</dt>
            <dd>{describeGuard({ kind: "keyset", ...plan.createGuard })}</dd>
          </>
        )}
        <dt>Capabilities</dt>
        <dd>
          <ul data-testid="review-capabilities">
            {caps.map((c) => (
              <li key={c.name}>
                <code>{capabilityText(c)}</code>
              </li>
            ))}
          </ul>
        </dd>
        <dt>Gas</dt>
        <dd data-testid="review-gas">
          {plan.gasLimit.toLocaleString("en")} × {fmt(plan.gasPrice)} = at most{" "}
          {fmt(maxGasFee(plan.gasLimit, plan.gasPrice))} coins, paid by {plan.sender}
        </dd>
        <dt>Time to live</dt>
        <dd>{plan.ttl.toLocaleString("en")} s</dd>
        <dt>Expires</dt>
        <dd data-testid="review-expiry">{formatDateTime(expiry.getTime())}</dd>
        <dt>Request key</dt>
        <dd>
          <code>{unsigned.hash}</code>
        </dd>
      </dl>
      {failure === null ? null : <ErrorMessage testId="transfer-failure" error={failure} />}
      {busy === null ? null : <p role="status">{busy}</p>}
      <div className="dialog-actions">
        <Button onPress={onBack} isDisabled={busy !== null}>
          Back
        </Button>
        <Button tone="primary" onPress={() => signAndSend.mutate()} isDisabled={busy !== null}>
          Sign and send
        </Button>
        <Button onPress={() => setPrepared(true)} isDisabled={busy !== null}>
          Prepare for others to sign
        </Button>
      </div>
      {prepared ? <PreparedForOthers unsigned={unsigned} payload={payload} /> : null}
    </Panel>
  );
}

export function TransferFlow({ accounts, sign, from: fromAccount }: TransferFlowProps) {
  const { config, pact } = useServices();
  const { heights } = useLiveChain();
  const [form, dispatch] = useReducer(
    transferFormReducer,
    (accounts.find((a) => a.account === fromAccount) ?? accounts[0])?.keyId ?? "",
    (keyId) => newTransferForm("single", keyId),
  );
  const [review, setReview] = useState<Review | null>(null);
  const pending = usePendingTransfers();
  const sent = pending.lastSent;
  const setSent = pending.setLastSent;

  const from = accounts.find((a) => a.keyId === form.from) ?? accounts[0];
  const senderChains = useAccountsOnChains(from === undefined ? [] : [from.account]);
  const senderBalances = new Map(
    senderChains.flatMap((c) => {
      const on = c.accounts?.[0];
      return on === undefined ? [] : [[c.chainId, on.exists ? on.balance : null] as const];
    }),
  );
  const chainFacts = {
    chains: heights.heads.map((h) => h.chainId),
    chainsKnown: heights.loaded,
    sender: from,
  };
  const where = transferWhere(form, chainFacts);
  const receiverRead = useQuery({
    ...accountsQuery(pact, config.networkId, where.receiverChain ?? -1, [where.receiverName]),
    enabled: where.readReceiver,
  });
  const balance = where.chainId === null ? undefined : senderBalances.get(where.chainId);
  const facts = { ...chainFacts, balance, receiverOn: receiverRead.data?.[0] };
  const v = readTransferForm(form, facts);
  const { chainId, targetId, crossChain, receiverChain, receiverCheck } = v;
  const receiverName = v.receiverName;

  const sentTransfer = pending.transfers.find((t) => t.requestKey === sent?.requestKey);
  const another = () => {
    setSent(null);
    setReview(null);
    dispatch({ type: "another" });
  };
  if (sent !== null && sentTransfer !== undefined) {
    return (
      <SendAnother onAnother={another}>
        <Panel id="transfer-status" title="Status">
          <p>
            Step 1 is sent on chain {sentTransfer.sourceChain}. The wallet finishes the transfer on
            chain {sentTransfer.targetChain} by itself, even after a restart; its state is under
            "Cross-chain transfers" below.
          </p>
        </Panel>
      </SendAnother>
    );
  }
  if (sent !== null) {
    return (
      <TransferStatus chainId={sent.chainId} requestKey={sent.requestKey} onAnother={another} />
    );
  }
  if (review !== null) {
    return (
      <ReviewPanel
        review={review}
        sign={sign}
        onBack={() => setReview(null)}
        onSent={(requestKey) => {
          const p = review.plan;
          const crossChain = isCrossChain(p) && p.targetChainId !== undefined;
          pending.recordHistory(
            newHistoryEntry({
              requestKey,
              kind: crossChain ? "crosschain" : "transfer",
              chain: p.chainId,
              targetChain: crossChain ? (p.targetChainId ?? null) : null,
              sender: p.sender,
              receiver: p.receiver,
              amount: formatAmount(p.amount, COIN_DECIMALS, { group: false }),
              gasPrice: formatAmount(p.gasPrice, COIN_DECIMALS, { group: false }),
              expiresAt: p.creationTime + p.ttl,
              createdAt: Date.now(),
            }),
          );
          if (crossChain && p.targetChainId !== undefined) {
            pending.add(
              newPending({
                requestKey,
                sourceChain: p.chainId,
                targetChain: p.targetChainId,
                sender: p.sender,
                receiver: p.receiver,
                amount: formatAmount(p.amount, COIN_DECIMALS, { group: false }),
                createdAt: Date.now(),
              }),
            );
          }
          setSent({ chainId: p.chainId, requestKey });
        }}
      />
    );
  }

  const onReview = () => {
    dispatch({ type: "review" });
    const ready = transferPlanOf(form, facts, config.networkId, {
      nowSeconds: Math.floor(Date.now() / 1000),
      nonce: crypto.randomUUID(),
    });
    if (ready === null || from === undefined) return;
    setReview({
      plan: ready.plan,
      unsigned: commandModel.buildCommand(transferPayload(ready.plan)),
      keyId: from.keyId,
    });
  };

  if (accounts.length === 0) {
    return (
      <Notice tone="info">
        <p>The wallet has no key to send with yet: add or import a key first.</p>
      </Notice>
    );
  }

  const gasOk = v.fee !== null;
  return (
    <Panel id="transfer-form" title="Send">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onReview();
        }}
      >
        <SelectField
          label="From"
          value={from?.keyId}
          options={accountOptions(accounts)}
          onChange={(value) => dispatch({ type: "from", value })}
        />
        <TextField
          label="Chain"
          value={v.chainShown}
          onChange={(value) => dispatch({ type: "chain", value })}
          inputMode="numeric"
          error={v.chainProblem ?? form.pickProblem}
          hint={
            balance === undefined
              ? "Balance on this chain: …"
              : balance === null
                ? "Your account does not exist on this chain."
                : `Balance on this chain: ${fmt(balance)}`
          }
        />
        {/* Under the field, not beside it: the chain's number needs little room, the button much. */}
        <div className="field-action">
          <Button size="sm" onPress={() => dispatch({ type: "pick", balances: senderBalances })}>
            Pick the chain with enough funds
          </Button>
        </div>
        <TextField
          label="Target chain"
          value={v.targetShown}
          onChange={(value) => dispatch({ type: "target", value })}
          inputMode="numeric"
          error={v.targetProblem}
          hint={
            crossChain
              ? `A cross-chain transfer: the coins leave chain ${chainId} and arrive on chain ${targetId}; the wallet finishes it there by itself (the gas station pays that step).`
              : "The same chain, or another for a cross-chain transfer."
          }
        />
        <TextField
          label="Receiver"
          value={form.receiver}
          onChange={(value) => dispatch({ type: "receiver", value })}
          error={v.receiverError}
          hint="A k: account, or the name of an account that exists on the chain."
        />
        {receiverCheck?.kind === "transfer" ? (
          <p data-testid="receiver-guard" className="break-anywhere">
            Guard on chain {receiverChain}: {describeGuard(receiverCheck.on.guard)}
          </p>
        ) : null}
        {receiverCheck?.kind === "needs-key" ||
        (receiverCheck?.kind === "create" && !receiverName.startsWith("k:")) ? (
          <TextField
            label="Public key of the new account"
            value={form.newKey}
            onChange={(value) => dispatch({ type: "newKey", value })}
          />
        ) : null}
        {receiverCheck?.kind === "create" ? (
          <Notice tone="warning" testId="create-guard">
            <p>
              {receiverName} does not exist on chain {receiverChain}. The transfer creates it,
              guarded by {describeGuard({ kind: "keyset", ...receiverCheck.guard })}. Whoever holds
              that key owns the coins.
            </p>
            <label>
              <input
                type="checkbox"
                checked={form.confirmGuard}
                onChange={(e) => dispatch({ type: "confirmGuard", value: e.target.checked })}
              />{" "}
              Create the account with this guard
            </label>
          </Notice>
        ) : null}
        <div className="lookup">
          <TextField
            label="Amount"
            value={form.amountText}
            onChange={(value) => dispatch({ type: "amount", value })}
            inputMode="decimal"
            error={v.amountError}
          />
          <Button
            onPress={() => dispatch({ type: "max", balance })}
            isDisabled={!gasOk || balance == null}
          >
            Max
          </Button>
        </div>
        <TextField
          label="Gas limit"
          value={form.gasLimitText}
          onChange={(value) => dispatch({ type: "gasLimit", value })}
          inputMode="numeric"
          error={v.gasLimit.ok ? null : v.gasLimit.error}
        />
        <TextField
          label="Gas price"
          value={form.gasPriceText}
          onChange={(value) => dispatch({ type: "gasPrice", value })}
          inputMode="decimal"
          error={v.gasPrice.ok ? null : v.gasPrice.error}
        />
        <p data-testid="max-fee">
          Gas fee: at most {v.fee === null ? "…" : fmt(v.fee)} coins (gas limit × gas price; you pay
          for the gas used).
        </p>
        <Button type="submit" tone="primary">
          Review
        </Button>
      </form>
    </Panel>
  );
}
