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
import { useState } from "react";
import { commandModel } from "../../../../../src-node/command/commandModel.ts";
import type { CommandPayload } from "../../../../../src-node/command/commandTypes.ts";
import { accountNameProblem } from "../../../format/accountName.ts";
import { COIN_DECIMALS, formatAmount } from "../../../format/amount.ts";
import { formatDateTime } from "../../../format/dateTime.ts";
import { useServices } from "../../../services/services.tsx";
import { Button } from "../../../ui/Button.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { SelectField } from "../../../ui/SelectField.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { describeGuard } from "../accounts/accountDetails.ts";
import { readAccounts } from "../accounts/readAccounts.ts";
import { usePactClient, walletKeys } from "../accounts/useAccountsOnChains.ts";
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
  checkAmount,
  checkReceiver,
  DEFAULT_GAS_LIMIT,
  DEFAULT_TTL,
  MIN_GAS_PRICE,
} from "../transfer/transferRules.ts";
import {
  checkSigners,
  type MultisigAccount,
  multisigTransferPayload,
  requiredSignatures,
} from "./multisigAccount.ts";

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
  const { config } = useServices();
  const pact = usePactClient();
  const [fromName, setFromName] = useState(multisig[0]?.account ?? "");
  const [chainText, setChainText] = useState("");
  const [receiver, setReceiver] = useState("");
  const [amountText, setAmountText] = useState("");
  const [chosen, setChosen] = useState<readonly string[] | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [prepared, setPrepared] = useState<Prepared | null>(null);
  const [sent, setSent] = useState<{ chainId: number; requestKey: string } | null>(null);

  const from = multisig.find((m) => m.account === fromName) ?? multisig[0];
  const chainShown = chainText === "" ? String(from?.chains[0] ?? 0) : chainText;
  const chainId = /^\d{1,3}$/.test(chainShown.trim()) ? Number(chainShown.trim()) : null;
  const senderRead = useQuery({
    queryKey: walletKeys.details(chainId ?? -1, [from?.account ?? ""]),
    queryFn: () => readAccounts(pact, config.networkId, chainId ?? 0, [from?.account ?? ""]),
    enabled: from !== undefined && chainId !== null,
  });
  const senderOn = senderRead.data?.[0];
  // The guard on chain is the truth; the stored keys stand in until it is read.
  const guard =
    senderOn?.exists === true && senderOn.guard.kind === "keyset"
      ? senderOn.guard
      : from === undefined
        ? null
        : { kind: "keyset" as const, keys: from.keys, pred: from.pred };
  const heldKeys = accounts.map((a) => a.publicKey);
  // By default: the keys held here first, then the others, as many as the predicate needs.
  const defaultSigners =
    guard === null
      ? []
      : guard.pred === "keys-all"
        ? guard.keys
        : [
            ...guard.keys.filter((k) => heldKeys.includes(k)),
            ...guard.keys.filter((k) => !heldKeys.includes(k)),
          ].slice(0, requiredSignatures(guard));
  const signers = chosen ?? defaultSigners;
  const signerCheck = guard === null ? null : checkSigners(guard, signers);

  const receiverName = receiver.trim();
  const receiverNameOk = accountNameProblem(receiverName) === null;
  const receiverRead = useQuery({
    queryKey: walletKeys.details(chainId ?? -1, [receiverName]),
    queryFn: () => readAccounts(pact, config.networkId, chainId ?? 0, [receiverName]),
    enabled: receiverNameOk && chainId !== null,
  });
  const receiverOn = receiverRead.data?.[0];
  const receiverCheck =
    from === undefined || receiverOn === undefined
      ? null
      : checkReceiver(from.account, receiverName, receiverOn, "");
  const balance = senderOn === undefined ? undefined : senderOn.exists ? senderOn.balance : null;
  const amount = checkAmount(amountText, balance ?? null, DEFAULT_GAS_LIMIT, MIN_GAS_PRICE);

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
          setAmountText("");
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

  const chainProblem =
    chainId === null
      ? "Enter a chain."
      : senderOn !== undefined && !senderOn.exists
        ? `${from.account} does not exist on chain ${chainId}.`
        : null;
  const receiverProblem =
    receiverName === ""
      ? "Enter the receiving account."
      : !receiverNameOk
        ? accountNameProblem(receiverName)
        : receiverCheck?.kind === "refused"
          ? receiverCheck.message
          : receiverCheck?.kind === "needs-key"
            ? "This account does not exist on this chain: send to a k: account or an existing one."
            : receiverCheck === null
              ? "Reading the receiver on this chain…"
              : null;

  const onReview = () => {
    setShowErrors(true);
    if (
      chainId === null ||
      chainProblem !== null ||
      receiverProblem !== null ||
      receiverCheck === null ||
      (receiverCheck.kind !== "transfer" && receiverCheck.kind !== "create") ||
      !amount.ok ||
      signerCheck === null ||
      !signerCheck.ok
    ) {
      return;
    }
    const plan: TransferPlan = {
      networkId: config.networkId,
      chainId,
      sender: from.account,
      signerPublicKey: signerCheck.value[0] ?? "",
      receiver: receiverName,
      createGuard: receiverCheck.kind === "create" ? receiverCheck.guard : null,
      amount: amount.value,
      gasLimit: DEFAULT_GAS_LIMIT,
      gasPrice: MIN_GAS_PRICE,
      ttl: DEFAULT_TTL,
      creationTime: Math.floor(Date.now() / 1000) - 15,
      nonce: crypto.randomUUID(),
    };
    const payload = multisigTransferPayload(plan, signerCheck.value);
    const unsigned = commandModel.buildCommand(payload);
    setPrepared({
      plan,
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
          onChange={(v) => {
            setFromName(v);
            setChosen(null);
            setChainText("");
          }}
        />
        <TextField
          label="Chain"
          value={chainShown}
          onChange={setChainText}
          inputMode="numeric"
          error={chainProblem}
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
                    setChosen(e.target.checked ? [...signers, k] : signers.filter((s) => s !== k))
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
          value={receiver}
          onChange={setReceiver}
          error={showErrors || receiverCheck?.kind === "refused" ? receiverProblem : null}
          hint="A k: account, or an account that exists on the chain."
        />
        <TextField
          label="Amount"
          value={amountText}
          onChange={setAmountText}
          inputMode="decimal"
          error={(showErrors || amountText !== "") && !amount.ok ? amount.error : null}
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
