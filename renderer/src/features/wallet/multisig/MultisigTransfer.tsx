/**
 * A transfer from a multi-signature account: the form (account, chain, receiver, amount, the
 * signers chosen so the predicate is met), the review of exactly what is signed, then "Sign"
 * with the keys this wallet holds. The result is SigData (`{cmd, hash, sigs: [{pubKey, sig |
 * null}]}`) to Copy or Save for the other signers, who sign it on "Sign a transaction" (here or
 * in another wallet); pasted back with every signature it is sent from there. When this wallet
 * holds every key chosen, "Send" sends it at once. The transfer is in the history from the first
 * signature ("Waiting for signatures") and followed until it is in a block.
 * @module
 */
import { useQuery } from "@tanstack/react-query";
import { useReducer, useState } from "react";
import { commandModel } from "../../../../../src-node/command/commandModel.ts";
import type { CommandPayload } from "../../../../../src-node/command/commandTypes.ts";
import type { MultisigAccount } from "../../../../../src-node/walletFiles/multisigAccount.ts";
import { COIN_DECIMALS, formatAmount } from "../../../format/amount.ts";
import { formatDateTime } from "../../../format/dateTime.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { SelectField } from "../../../ui/SelectField.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { describeGuard } from "../accounts/accountDetails.ts";
import { accountsQuery } from "../api.ts";
import { usePendingTransfers } from "../crosschain/PendingProvider.tsx";
import { commandFacts } from "../history/commandFacts.ts";
import { newHistoryEntry } from "../history/historyModel.ts";
import { SignActions, useSignActions } from "../sign/SignActions.tsx";
import { SignerList } from "../sign/SignerList.tsx";
import {
  isComplete,
  type SignRequest,
  serializeSignRequest,
  unsignedSigData,
} from "../sign/signRequest.ts";
import type { SigningAccount } from "../transfer/TransferFlow.tsx";
import { TransferStatus } from "../transfer/TransferStatus.tsx";
import { type TransferPlan, transferCode } from "../transfer/transferCommand.ts";
import {
  newTransferForm,
  readTransferForm,
  transferFormReducer,
  transferPlanOf,
  transferWhere,
} from "../transfer/transferForm.ts";
import { DEFAULT_GAS_LIMIT, MIN_GAS_PRICE } from "../transfer/transferRules.ts";
import { multisigTransferPayload } from "./multisigAccount.ts";

const fmt = (units: bigint) => formatAmount(units, COIN_DECIMALS);

type Prepared = {
  readonly plan: TransferPlan;
  readonly payload: CommandPayload;
  readonly request: SignRequest;
  readonly signed: boolean;
};

function PreparedPanel({
  prepared,
  accounts,
  sign,
  onChange,
  onSent,
}: {
  readonly prepared: Prepared;
  readonly accounts: readonly SigningAccount[];
  readonly sign: (keyId: string, requestKey: string) => Promise<string>;
  readonly onChange: (p: Prepared) => void;
  readonly onSent: (chainId: number, requestKey: string) => void;
}) {
  const { recordHistory } = usePendingTransfers();
  const { plan, payload, request } = prepared;
  const entry = (status: "prepared" | "pending") =>
    newHistoryEntry({
      ...commandFacts(payload),
      requestKey: request.hash,
      kind: "multisig",
      status,
      createdAt: Date.now(),
    });
  const actions = useSignActions({
    request,
    accounts,
    sign,
    onSigned: (next) => {
      onChange({ ...prepared, request: next, signed: true });
      recordHistory(entry("prepared"));
    },
    onSent: (chainId, requestKey) => {
      recordHistory(entry("pending"));
      onSent(chainId, requestKey);
    },
  });
  const held = actions.held;

  const expiry = new Date((plan.creationTime + plan.ttl) * 1000);
  return (
    <Panel id="multisig-review" title="Review">
      <p>This is exactly what the signers sign:</p>
      <dl className="facts" data-testid="multisig-review">
        <dt>Network</dt>
        <dd>{plan.networkId}</dd>
        <dt>Chain</dt>
        <dd>{plan.chainId}</dd>
        <dt>From</dt>
        <dd>{plan.sender}</dd>
        <dt>To</dt>
        <dd>{plan.receiver}</dd>
        <dt>Amount</dt>
        <dd data-testid="multisig-amount">{fmt(plan.amount)}</dd>
        <dt>Code</dt>
        <dd>
          <code>{transferCode(plan)}</code>
        </dd>
        <dt>Signers and their capabilities</dt>
        <dd>
          <SignerList request={request} accounts={accounts} testId="multisig-signers" />
        </dd>
        <dt>Gas</dt>
        <dd>
          {plan.gasLimit.toLocaleString("en")} × {fmt(plan.gasPrice)}, paid by {plan.sender}
        </dd>
        <dt>Expires</dt>
        <dd>{formatDateTime(expiry.getTime())}</dd>
        <dt>Request key</dt>
        <dd>
          <code data-testid="multisig-hash">{request.hash}</code>
        </dd>
      </dl>
      <p data-testid="multisig-summary">
        {isComplete(request)
          ? "Every signature is present: it can be sent."
          : prepared.signed
            ? "Signed with this wallet's keys. Copy or save it for the other signers; whoever adds the last signature sends it from “Sign a transaction”."
            : held.length > 0
              ? `This wallet holds ${held.length} of the ${payload.signers.length} signers' keys.`
              : "This wallet holds none of these keys: copy or save it for the signers."}
      </p>
      <SignActions state={actions} failureTestId="multisig-failure" />
      <details open={prepared.signed}>
        <summary>The transaction for the other signers (SigData)</summary>
        <pre className="code" data-testid="multisig-output">
          {serializeSignRequest(request)}
        </pre>
      </details>
    </Panel>
  );
}

export function MultisigTransfer({
  multisig,
  accounts,
  sign,
}: {
  readonly multisig: readonly MultisigAccount[];
  readonly accounts: readonly SigningAccount[];
  readonly sign: (keyId: string, requestKey: string) => Promise<string>;
}) {
  const { config, pact } = useServices();
  const [form, dispatch] = useReducer(transferFormReducer, multisig[0]?.account ?? "", (name) =>
    newTransferForm("multisig", name),
  );
  const [prepared, setPrepared] = useState<Prepared | null>(null);
  const [sent, setSent] = useState<{ chainId: number; requestKey: string } | null>(null);

  const from = multisig.find((m) => m.account === form.from) ?? multisig[0];
  const sender =
    from === undefined
      ? undefined
      : {
          account: from.account,
          publicKey: "",
          keyset: { keys: from.keys, pred: from.pred },
          chains: from.chains,
        };
  // A chain the account is not on is said by its read there, not by the network's chains.
  const chainFacts = { chains: [], chainsKnown: false, sender };
  const where = transferWhere(form, chainFacts);
  const senderRead = useQuery({
    ...accountsQuery(pact, config.networkId, where.chainId ?? -1, [from?.account ?? ""]),
    enabled: from !== undefined && where.chainId !== null,
  });
  const receiverRead = useQuery({
    ...accountsQuery(pact, config.networkId, where.chainId ?? -1, [where.receiverName]),
    enabled: where.readReceiver,
  });
  const senderOn = senderRead.data?.[0];
  const heldKeys = accounts.map((a) => a.publicKey);
  const balance = senderOn === undefined ? undefined : senderOn.exists ? senderOn.balance : null;
  const facts = { ...chainFacts, senderOn, balance, receiverOn: receiverRead.data?.[0], heldKeys };
  const v = readTransferForm(form, facts);
  const { guard, signers, signerCheck } = v;

  if (multisig.length === 0 || from === undefined) {
    return (
      <Notice tone="info">
        <p>No multi-signature account yet: create one above.</p>
      </Notice>
    );
  }
  if (sent !== null) {
    return (
      <TransferStatus
        chainId={sent.chainId}
        requestKey={sent.requestKey}
        onAnother={() => {
          setSent(null);
          setPrepared(null);
          dispatch({ type: "another" });
        }}
      />
    );
  }
  if (prepared !== null) {
    return (
      <>
        <PreparedPanel
          prepared={prepared}
          accounts={accounts}
          sign={sign}
          onChange={setPrepared}
          onSent={(c, k) => setSent({ chainId: c, requestKey: k })}
        />
        <Button onPress={() => setPrepared(null)}>Back to the form</Button>
      </>
    );
  }

  const onReview = () => {
    dispatch({ type: "review" });
    const ready = transferPlanOf(form, facts, config.networkId, {
      nowSeconds: Math.floor(Date.now() / 1000),
      nonce: crypto.randomUUID(),
    });
    if (ready === null) return;
    const payload = multisigTransferPayload(ready.plan, ready.signers);
    const unsigned = commandModel.buildCommand(payload);
    setPrepared({
      plan: ready.plan,
      payload,
      request: unsignedSigData(unsigned.cmd, unsigned.hash, payload),
      signed: false,
    });
  };

  return (
    <Panel id="multisig-transfer" title="Send from a multi-signature account">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onReview();
        }}
      >
        <SelectField
          label="From"
          value={from.account}
          options={multisig.map((m) => ({ value: m.account, label: m.account }))}
          onChange={(value) => dispatch({ type: "from", value })}
        />
        <TextField
          label="Chain"
          value={v.chainShown}
          onChange={(value) => dispatch({ type: "chain", value })}
          inputMode="numeric"
          error={v.chainProblem}
          hint={
            balance === undefined
              ? "Balance on this chain: …"
              : balance === null
                ? "Not created on this chain."
                : `Balance on this chain: ${fmt(balance)}`
          }
        />
        {guard === null ? null : (
          <fieldset className="field">
            <legend className="field-label">
              Signers ({guard.pred}: {describeGuard(guard)})
            </legend>
            {guard.keys.map((k) => (
              <label key={k}>
                <input
                  type="checkbox"
                  checked={signers.includes(k)}
                  disabled={guard.pred === "keys-all"}
                  onChange={(e) =>
                    dispatch({
                      type: "signers",
                      value: e.target.checked ? [...signers, k] : signers.filter((s) => s !== k),
                    })
                  }
                />{" "}
                <code>{k.slice(0, 16)}…</code>
                {heldKeys.includes(k) ? " (held here)" : ""}
              </label>
            ))}
            {signerCheck !== null && !signerCheck.ok ? (
              <p className="field-error" role="alert">
                {signerCheck.error}
              </p>
            ) : null}
          </fieldset>
        )}
        <TextField
          label="Receiver"
          value={form.receiver}
          onChange={(value) => dispatch({ type: "receiver", value })}
          error={v.receiverError}
          hint="A k: account, or an account that exists on the chain."
        />
        <TextField
          label="Amount"
          value={form.amountText}
          onChange={(value) => dispatch({ type: "amount", value })}
          inputMode="decimal"
          error={v.amountError}
        />
        <p>
          Gas: at most {fmt(BigInt(DEFAULT_GAS_LIMIT) * MIN_GAS_PRICE)} coins, paid by the
          multi-signature account.
        </p>
        <Button type="submit" tone="primary">
          Review
        </Button>
      </form>
    </Panel>
  );
}
