/**
 * The transfer form's rules, checked before anything is signed: the receiver (a `k:`
 * account must be guarded by exactly the key its name carries; one that does not exist
 * on the chain is created with a guard the user confirms), the amount (positive, at most
 * 12 decimals, and with the most the gas can cost within the balance), the gas settings,
 * and "pick the chain with enough funds".
 * @module
 */
import type { Result } from "../../../../../src-node/errors/result.ts";
import { accountNameProblem } from "../../../format/accountName.ts";
import { COIN_DECIMALS, formatAmount, maxGasFee, readAmountInput } from "../../../format/amount.ts";
import type { AccountOnChain } from "../accounts/accountDetails.ts";
import type { KeysetGuard } from "./transferCommand.ts";

/** The network's minimum gas price (docs/networks.md), the default price. */
export const MIN_GAS_PRICE = 10_000n; // 0.00000001 in 12-decimal units
/** Enough for a transfer or a transfer-create (about 600–800 gas used). */
export const DEFAULT_GAS_LIMIT = 2_500;
/** The block gas limit: no command may ask for more. */
export const MAX_GAS_LIMIT = 150_000;
/** Time to live of a signed transfer, in seconds (the ecosystem's wallets' default, 8 h). */
export const DEFAULT_TTL = 28_800;

const K_ACCOUNT = /^k:([0-9a-f]{64})$/;
const PUBLIC_KEY = /^[0-9a-f]{64}$/;

export type ReceiverCheck =
  /** Exists on the chain: `coin.transfer`; its guard is shown. */
  | { readonly kind: "transfer"; readonly on: AccountOnChain & { readonly exists: true } }
  /** Does not exist: `coin.transfer-create` with this guard, once the user confirms it. */
  | { readonly kind: "create"; readonly guard: KeysetGuard }
  /** A plain name that does not exist: the user must give the key that will guard it. */
  | { readonly kind: "needs-key" }
  | { readonly kind: "refused"; readonly message: string };

/**
 * What sending to `receiver` on a chain means, given its details there (`on`) and, for a
 * plain name that does not exist yet, the public key the user typed for its guard.
 */
export function checkReceiver(
  sender: string,
  receiver: string,
  on: AccountOnChain,
  newKey: string,
): ReceiverCheck {
  const problem = accountNameProblem(receiver);
  if (problem !== null) return { kind: "refused", message: problem };
  if (receiver === sender) {
    return { kind: "refused", message: "The receiver is the sending account itself." };
  }
  const k = K_ACCOUNT.exec(receiver)?.[1];
  if (receiver.startsWith("k:") && k === undefined) {
    return {
      kind: "refused",
      message: "A k: account is k: followed by a public key of 64 lower-case hex digits.",
    };
  }
  if (on.exists) {
    if (k !== undefined) {
      const g = on.guard;
      const matches =
        g.kind === "keyset" && g.pred === "keys-all" && g.keys.length === 1 && g.keys[0] === k;
      if (!matches) {
        return {
          kind: "refused",
          message:
            "This k: account is not guarded by exactly the key in its name: refusing to send to it.",
        };
      }
    }
    return { kind: "transfer", on };
  }
  if (k !== undefined) return { kind: "create", guard: { keys: [k], pred: "keys-all" } };
  if (/^[a-z]:/.test(receiver)) {
    return {
      kind: "refused",
      message:
        "This principal account does not exist on this chain; the wallet creates only k: accounts and plain names.",
    };
  }
  const key = newKey.trim().toLowerCase();
  if (key === "") return { kind: "needs-key" };
  if (!PUBLIC_KEY.test(key)) {
    return { kind: "refused", message: "The new account's key must be 64 hex digits." };
  }
  return { kind: "create", guard: { keys: [key], pred: "keys-all" } };
}

export type Checked<T> = Result<T>;

/** The amount typed, checked against the balance and the most the gas can cost. */
export function checkAmount(
  text: string,
  balance: bigint | null,
  gasLimit: number,
  gasPrice: bigint,
): Checked<bigint> {
  const parsed = readAmountInput(text, COIN_DECIMALS);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const amount = parsed.value;
  if (amount <= 0n) return { ok: false, error: "The amount must be more than 0." };
  if (balance === null) {
    return { ok: false, error: "The sending account does not exist on this chain." };
  }
  if (amount > balance) {
    return {
      ok: false,
      error: `The amount is more than the balance on this chain (${formatAmount(balance, COIN_DECIMALS)}).`,
    };
  }
  const fee = maxGasFee(gasLimit, gasPrice);
  if (amount + fee > balance) {
    return {
      ok: false,
      error: `The amount and the gas (up to ${formatAmount(fee, COIN_DECIMALS)}) are more than the balance (${formatAmount(balance, COIN_DECIMALS)}); "Max" sends all that can be sent.`,
    };
  }
  return { ok: true, value: amount };
}

/** A gas limit typed: a whole number 1 … the block gas limit. */
export function checkGasLimit(text: string): Checked<number> {
  const t = text.trim().replace(/[,_\s]/g, "");
  if (!/^\d{1,7}$/.test(t)) return { ok: false, error: "The gas limit is a whole number." };
  const n = Number(t);
  if (n < 1 || n > MAX_GAS_LIMIT) {
    return { ok: false, error: `The gas limit is 1 to ${MAX_GAS_LIMIT.toLocaleString("en")}.` };
  }
  return { ok: true, value: n };
}

/** A gas price typed: at least the network's minimum, at most 12 decimals. */
export function checkGasPrice(text: string): Checked<bigint> {
  const parsed = readAmountInput(text, COIN_DECIMALS);
  if (!parsed.ok) {
    return {
      ok: false,
      error: `The gas price is a decimal like 0.00000001. ${parsed.error}`,
    };
  }
  if (parsed.value < MIN_GAS_PRICE) {
    return {
      ok: false,
      error: `The gas price is at least ${formatAmount(MIN_GAS_PRICE, COIN_DECIMALS)}.`,
    };
  }
  return { ok: true, value: parsed.value };
}

/**
 * "Pick the chain with enough funds": the lowest chain whose balance covers the amount and
 * the most the gas can cost, or null when none does.
 */
export function pickChain(
  balances: ReadonlyMap<number, bigint | null>,
  amount: bigint,
  gasLimit: number,
  gasPrice: bigint,
): number | null {
  const need = amount + maxGasFee(gasLimit, gasPrice);
  const chains = [...balances.keys()].sort((a, b) => a - b);
  return chains.find((c) => (balances.get(c) ?? -1n) >= need) ?? null;
}
