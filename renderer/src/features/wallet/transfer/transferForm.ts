/**
 * The transfer form as one pure reducer and one reading, shared by the single-key transfer
 * (`TransferFlow.tsx`) and the multi-signature one (`../multisig/MultisigTransfer.tsx`):
 * `transferFormReducer` keeps what was typed and what each edit resets; `readTransferForm`
 * checks it against what the node said (the chains, the sender's balance and the receiver on
 * the chain) with the rules of `transferRules.ts`, and says each field's problem in words;
 * `transferPlanOf` is the plan to sign once every rule passes, else null. The two kinds differ
 * on purpose: a multi-signature transfer stays on one chain, pays the default gas, names its
 * signers and never creates a plain-named account.
 * @module
 */
import { accountNameProblem } from "../../../format/accountName.ts";
import { COIN_DECIMALS, formatAmount, maxGasFee, maxSendable } from "../../../format/amount.ts";
import type { AccountOnChain } from "../accounts/accountDetails.ts";
import { checkSigners, requiredSignatures } from "../multisig/multisigAccount.ts";
import type { KeysetGuard, TransferPlan } from "./transferCommand.ts";
import {
  type Checked,
  checkAmount,
  checkGasLimit,
  checkGasPrice,
  checkReceiver,
  DEFAULT_GAS_LIMIT,
  DEFAULT_TTL,
  MIN_GAS_PRICE,
  pickChain,
  type ReceiverCheck,
} from "./transferRules.ts";

export type TransferKind = "single" | "multisig";

/** What was typed and chosen. */
export type TransferFormState = {
  readonly kind: TransferKind;
  /** The sending key's id (single) or the multi-signature account's name. */
  readonly from: string;
  /** The chain typed; "" (multi-signature) is the account's first chain. */
  readonly chainText: string;
  /** The target chain typed; null follows the chain (a transfer on one chain). */
  readonly targetText: string | null;
  readonly receiver: string;
  /** The public key that guards a new plain-named receiver. */
  readonly newKey: string;
  /** The user confirmed the new account's guard. */
  readonly confirmGuard: boolean;
  readonly amountText: string;
  readonly gasLimitText: string;
  readonly gasPriceText: string;
  /** The signers chosen (multi-signature); null: the default choice. */
  readonly signers: readonly string[] | null;
  /** "Review" was pressed: every problem is shown, not only the ones typed into. */
  readonly showErrors: boolean;
  /** Why "Pick the chain with enough funds" found none. */
  readonly pickProblem: string | null;
};

export type TransferFormAction =
  | { readonly type: "from"; readonly value: string }
  | { readonly type: "chain"; readonly value: string }
  | { readonly type: "target"; readonly value: string }
  | { readonly type: "receiver"; readonly value: string }
  | { readonly type: "newKey"; readonly value: string }
  | { readonly type: "confirmGuard"; readonly value: boolean }
  | { readonly type: "amount"; readonly value: string }
  | { readonly type: "gasLimit"; readonly value: string }
  | { readonly type: "gasPrice"; readonly value: string }
  | { readonly type: "signers"; readonly value: readonly string[] }
  /** "Max": all the balance on the chain minus the most the gas can cost. */
  | { readonly type: "max"; readonly balance: bigint | null | undefined }
  /** "Pick the chain with enough funds" over the sender's balances by chain. */
  | { readonly type: "pick"; readonly balances: ReadonlyMap<number, bigint | null> }
  /** "Review": show every problem. */
  | { readonly type: "review" }
  /** "Send another": the same form without the amount. */
  | { readonly type: "another" };

/** A new form: chain 0 (single) or the account's first chain (multi-signature), default gas. */
export function newTransferForm(kind: TransferKind, from: string): TransferFormState {
  return {
    kind,
    from,
    chainText: kind === "single" ? "0" : "",
    targetText: null,
    receiver: "",
    newKey: "",
    confirmGuard: false,
    amountText: "",
    gasLimitText: String(DEFAULT_GAS_LIMIT),
    gasPriceText: formatAmount(MIN_GAS_PRICE, COIN_DECIMALS),
    signers: null,
    showErrors: false,
    pickProblem: null,
  };
}

const plainAmount = (units: bigint) => formatAmount(units, COIN_DECIMALS, { group: false });

export function transferFormReducer(
  state: TransferFormState,
  action: TransferFormAction,
): TransferFormState {
  switch (action.type) {
    case "from":
      // Another multi-signature account has its own keys and chains.
      return state.kind === "multisig"
        ? { ...state, from: action.value, signers: null, chainText: "" }
        : { ...state, from: action.value };
    case "chain":
      return { ...state, chainText: action.value };
    case "target":
      return { ...state, targetText: action.value };
    case "receiver":
      // A confirmation is for one guard: another receiver or key asks again.
      return { ...state, receiver: action.value, confirmGuard: false };
    case "newKey":
      return { ...state, newKey: action.value, confirmGuard: false };
    case "confirmGuard":
      return { ...state, confirmGuard: action.value };
    case "amount":
      return { ...state, amountText: action.value };
    case "gasLimit":
      return { ...state, gasLimitText: action.value };
    case "gasPrice":
      return { ...state, gasPriceText: action.value };
    case "signers":
      return { ...state, signers: action.value };
    case "max": {
      const gasLimit = checkGasLimit(state.gasLimitText);
      const gasPrice = checkGasPrice(state.gasPriceText);
      if (!gasLimit.ok || !gasPrice.ok || action.balance == null) return state;
      return {
        ...state,
        amountText: plainAmount(maxSendable(action.balance, gasLimit.value, gasPrice.value)),
      };
    }
    case "pick": {
      const gasLimit = checkGasLimit(state.gasLimitText);
      const gasPrice = checkGasPrice(state.gasPriceText);
      if (!gasLimit.ok || !gasPrice.ok) {
        return { ...state, pickProblem: "Fix the gas settings first." };
      }
      const amount = checkAmount(state.amountText, 10n ** 40n, 0, 0n);
      if (!amount.ok) return { ...state, pickProblem: "Enter the amount first." };
      const chain = pickChain(action.balances, amount.value, gasLimit.value, gasPrice.value);
      if (chain === null) {
        return { ...state, pickProblem: "No chain holds enough for this amount and its gas." };
      }
      return { ...state, pickProblem: null, chainText: String(chain) };
    }
    case "review":
      return { ...state, showErrors: true };
    case "another":
      return { ...state, amountText: "" };
    default: {
      const never: never = action;
      return never;
    }
  }
}

/** The sending account as the form needs it. */
export type TransferSender = {
  readonly account: string;
  /** The key that signs a single-key transfer (64 hex); "" for a multi-signature account. */
  readonly publicKey: string;
  /** Multi-signature: its keyset as the wallet keeps it, and the chains it was created on. */
  readonly keyset?: KeysetGuard;
  readonly chains?: readonly number[];
};

/** What the node said, as far as it has answered. */
export type TransferFacts = {
  /** The node's chains (the live cut's). */
  readonly chains: readonly number[];
  /** Whether the chains are known yet (before, any chain typed passes). */
  readonly chainsKnown: boolean;
  readonly sender: TransferSender | undefined;
  /** The sender's balance on the chain: undefined while read, null when it has no account. */
  readonly balance: bigint | null | undefined;
  /** The sender on the chain (multi-signature: its guard there); undefined while read. */
  readonly senderOn?: AccountOnChain | undefined;
  /** The receiver on the chain where the coins arrive; undefined while read. */
  readonly receiverOn: AccountOnChain | undefined;
  /** The public keys this wallet holds (multi-signature: the default signers come first). */
  readonly heldKeys?: readonly string[];
};

/** Where the form reads: the chains and the receiver to ask the node about. */
export type TransferWhere = {
  readonly chainShown: string;
  readonly chainId: number | null;
  readonly targetShown: string;
  readonly targetId: number | null;
  readonly crossChain: boolean;
  /** The chain the receiver is read on: where the coins arrive. */
  readonly receiverChain: number | null;
  readonly receiverName: string;
  /** Whether the receiver can be read yet (its name and the chains are valid). */
  readonly readReceiver: boolean;
};

const chainOf = (text: string): number | null =>
  /^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : null;

function networkChainProblem(
  id: number | null,
  facts: Pick<TransferFacts, "chains" | "chainsKnown">,
) {
  return id === null || (facts.chainsKnown && !facts.chains.includes(id))
    ? `Enter a chain of this network (0 to ${Math.max(0, facts.chains.length - 1)}).`
    : null;
}

/** The chains and the receiver the form asks the node about, from what was typed. */
export function transferWhere(
  state: TransferFormState,
  facts: Pick<TransferFacts, "chains" | "chainsKnown" | "sender">,
): TransferWhere {
  const chainShown =
    state.kind === "multisig" && state.chainText === ""
      ? String(facts.sender?.chains?.[0] ?? 0)
      : state.chainText;
  const chainId = chainOf(chainShown);
  const receiverName = state.receiver.trim();
  const nameOk = accountNameProblem(receiverName) === null;
  if (state.kind === "multisig") {
    return {
      chainShown,
      chainId,
      targetShown: chainShown,
      targetId: chainId,
      crossChain: false,
      receiverChain: chainId,
      receiverName,
      readReceiver: nameOk && chainId !== null,
    };
  }
  // The target chain follows the chain until the user types another one.
  const targetShown = state.targetText ?? chainShown;
  const targetId = chainOf(targetShown);
  const crossChain = targetId !== null && chainId !== null && targetId !== chainId;
  return {
    chainShown,
    chainId,
    targetShown,
    targetId,
    crossChain,
    receiverChain: crossChain ? targetId : chainId,
    receiverName,
    readReceiver:
      nameOk &&
      networkChainProblem(chainId, facts) === null &&
      networkChainProblem(targetId, facts) === null,
  };
}

/** The form read against the facts: every check, and each field's problem as shown. */
export type TransferFormView = TransferWhere & {
  readonly chainProblem: string | null;
  readonly targetProblem: string | null;
  readonly gasLimit: Checked<number>;
  readonly gasPrice: Checked<bigint>;
  /** The most the gas can cost; null while the gas settings are wrong. */
  readonly fee: bigint | null;
  /** Null while the gas settings are wrong. */
  readonly amount: Checked<bigint> | null;
  readonly receiverCheck: ReceiverCheck | null;
  /** A cross-chain transfer names the receiver's guard: its keyset, or the new one. */
  readonly crossGuard: KeysetGuard | null;
  /** Every receiver problem, shown once "Review" was pressed (or a refusal at once). */
  readonly receiverProblem: string | null;
  /** As shown under the fields. */
  readonly receiverError: string | null;
  readonly amountError: string | null;
  /** Multi-signature: the guard whose keys sign, the signers chosen and their check. */
  readonly guard: (KeysetGuard & { readonly kind: "keyset" }) | null;
  readonly signers: readonly string[];
  readonly signerCheck: Checked<readonly string[]> | null;
};

function receiverProblemOf(
  kind: TransferKind,
  state: TransferFormState,
  where: TransferWhere,
  check: ReceiverCheck | null,
  crossGuard: KeysetGuard | null,
): string | null {
  const name = where.receiverName;
  if (name === "") return "Enter the receiving account.";
  const nameProblem = accountNameProblem(name);
  if (nameProblem !== null) return nameProblem;
  if (check?.kind === "refused") return check.message;
  if (kind === "single" && where.crossChain && check?.kind === "transfer" && crossGuard === null) {
    return `The receiver's guard on chain ${where.targetId} is not a keyset: the wallet cannot name it for a cross-chain transfer.`;
  }
  if (check?.kind === "needs-key") {
    return kind === "single"
      ? "This account does not exist on this chain: give the public key that will guard it."
      : "This account does not exist on this chain: send to a k: account or an existing one.";
  }
  if (kind === "single" && check?.kind === "create" && !state.confirmGuard) {
    return "Confirm the new account's guard.";
  }
  if (check === null) return "Reading the receiver on this chain…";
  return null;
}

/** The multi-signature guard (the one on chain is the truth; the kept keys stand in). */
function signingGuard(facts: TransferFacts): (KeysetGuard & { readonly kind: "keyset" }) | null {
  const on = facts.senderOn;
  if (on?.exists === true && on.guard.kind === "keyset") return on.guard;
  const kept = facts.sender?.keyset;
  return kept === undefined ? null : { kind: "keyset", keys: kept.keys, pred: kept.pred };
}

/** By default: the keys held here first, then the others, as many as the predicate needs. */
function defaultSigners(guard: KeysetGuard, held: readonly string[]): readonly string[] {
  if (guard.pred === "keys-all") return guard.keys;
  return [
    ...guard.keys.filter((k) => held.includes(k)),
    ...guard.keys.filter((k) => !held.includes(k)),
  ].slice(0, requiredSignatures(guard));
}

export function readTransferForm(state: TransferFormState, facts: TransferFacts): TransferFormView {
  const where = transferWhere(state, facts);
  const { kind } = state;
  const sender = facts.sender;
  const chainProblem =
    kind === "single"
      ? networkChainProblem(where.chainId, facts)
      : where.chainId === null
        ? "Enter a chain."
        : facts.balance === null && sender !== undefined
          ? `${sender.account} does not exist on chain ${where.chainId}.`
          : null;
  const targetProblem = kind === "single" ? networkChainProblem(where.targetId, facts) : null;
  const gasLimit = checkGasLimit(state.gasLimitText);
  const gasPrice = checkGasPrice(state.gasPriceText);
  const gasOk = gasLimit.ok && gasPrice.ok;
  const amount = gasOk
    ? checkAmount(state.amountText, facts.balance ?? null, gasLimit.value, gasPrice.value)
    : null;
  const receiverCheck =
    sender === undefined || facts.receiverOn === undefined
      ? null
      : checkReceiver(
          // Moving one's own coins to another chain is a cross-chain transfer's common use.
          where.crossChain ? "" : sender.account,
          where.receiverName,
          facts.receiverOn,
          kind === "single" ? state.newKey : "",
        );
  const crossGuard =
    receiverCheck?.kind === "create"
      ? receiverCheck.guard
      : receiverCheck?.kind === "transfer" && receiverCheck.on.guard.kind === "keyset"
        ? { keys: receiverCheck.on.guard.keys, pred: receiverCheck.on.guard.pred }
        : null;
  const receiverProblem = receiverProblemOf(kind, state, where, receiverCheck, crossGuard);
  const guard = kind === "multisig" ? signingGuard(facts) : null;
  const signers =
    guard === null ? [] : (state.signers ?? defaultSigners(guard, facts.heldKeys ?? []));
  return {
    ...where,
    chainProblem,
    targetProblem,
    gasLimit,
    gasPrice,
    fee: gasOk ? maxGasFee(gasLimit.value, gasPrice.value) : null,
    amount,
    receiverCheck,
    crossGuard,
    receiverProblem,
    receiverError: state.showErrors || receiverCheck?.kind === "refused" ? receiverProblem : null,
    amountError:
      (state.showErrors || state.amountText !== "") && amount !== null && !amount.ok
        ? amount.error
        : null,
    guard,
    signers,
    signerCheck: guard === null ? null : checkSigners(guard, signers),
  };
}

/** The moment and nonce of a plan, given by the caller (the form itself stays pure). */
export type PlanStamp = { readonly nowSeconds: number; readonly nonce: string };

/**
 * The transfer to review once every rule passes, else null. Its creation time is a little in
 * the past, so a node whose clock runs behind still takes it.
 */
export function transferPlanOf(
  state: TransferFormState,
  facts: TransferFacts,
  networkId: string,
  stamp: PlanStamp,
): { readonly plan: TransferPlan; readonly signers: readonly string[] } | null {
  const v = readTransferForm(state, facts);
  const sender = facts.sender;
  if (
    sender === undefined ||
    v.chainId === null ||
    v.chainProblem !== null ||
    v.targetProblem !== null ||
    v.targetId === null ||
    (v.crossChain && v.crossGuard === null) ||
    !v.gasLimit.ok ||
    !v.gasPrice.ok ||
    v.amount === null ||
    !v.amount.ok ||
    v.receiverProblem !== null ||
    v.receiverCheck === null ||
    (v.receiverCheck.kind !== "transfer" && v.receiverCheck.kind !== "create")
  ) {
    return null;
  }
  let signers: readonly string[] = [sender.publicKey];
  if (state.kind === "multisig") {
    if (v.signerCheck === null || !v.signerCheck.ok) return null;
    signers = v.signerCheck.value;
  }
  const plan: TransferPlan = {
    networkId,
    chainId: v.chainId,
    ...(v.crossChain ? { targetChainId: v.targetId } : {}),
    sender: sender.account,
    signerPublicKey: signers[0] ?? "",
    receiver: v.receiverName,
    createGuard: v.crossChain
      ? v.crossGuard
      : v.receiverCheck.kind === "create"
        ? v.receiverCheck.guard
        : null,
    amount: v.amount.value,
    gasLimit: v.gasLimit.value,
    gasPrice: v.gasPrice.value,
    ttl: DEFAULT_TTL,
    creationTime: stamp.nowSeconds - 15,
    nonce: stamp.nonce,
  };
  return { plan, signers };
}
