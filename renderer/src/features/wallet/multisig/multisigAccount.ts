/**
 * Multi-signature accounts, pure: the keyset built from keys typed or pasted (hex public keys,
 * `k:` accounts accepted) and the wallet's own, its predicate (keys-all, keys-any, keys-2), the
 * account's name (the `w:` principal of the keyset, as the contract language's
 * `create-principal` computes it, so the coin contract's reserved-name rule accepts it), the
 * chains picked, the `coin.create-account` command a wallet account pays for, and a transfer
 * from such an account with the signers chosen to satisfy the predicate. What the wallet keeps
 * of each account (keys, predicate, chains; nothing secret) is the file's `MultisigAccount`
 * (`src-node/walletFiles/multisigAccount.ts`).
 * @module
 */
import { blake2b } from "@noble/hashes/blake2.js";
import { base64urlnopad } from "@scure/base";
import type { CommandPayload } from "../../../../../src-node/command/commandTypes.ts";
import {
  type KeysetPred,
  MAX_MULTISIG_KEYS,
} from "../../../../../src-node/walletFiles/multisigAccount.ts";
import { COIN_DECIMALS, formatAmount } from "../../../format/amount.ts";
import { pactString } from "../accounts/accountDetails.ts";
import {
  type KeysetGuard,
  type TransferPlan,
  transferCapabilities,
  transferPayload,
} from "../transfer/transferCommand.ts";
import type { Checked } from "../transfer/transferRules.ts";

/** A multi-signature account has at least two keys, and at most the file's MAX_MULTISIG_KEYS. */
export const MIN_KEYS = 2;

/** The name of the keyset in the create-account command's data. */
export const ACCOUNT_GUARD_KEY = "account-guard";

/** A keyset of a multi-signature account: sorted unique keys and one of the three predicates. */
export type MultisigKeyset = { readonly keys: readonly string[]; readonly pred: KeysetPred };

const HEX64 = /^[0-9a-f]{64}$/;

/** The predicate in words, for the form and the account list. */
export function describePred(pred: KeysetPred, keyCount: number): string {
  switch (pred) {
    case "keys-all":
      return `all ${keyCount} keys sign`;
    case "keys-any":
      return "any one key signs";
    case "keys-2":
      return `any 2 of the ${keyCount} keys sign`;
    default: {
      const never: never = pred;
      return never;
    }
  }
}

/**
 * Public keys typed or pasted: separated by spaces, commas, semicolons or new lines; each 64
 * hex digits (any case) or a `k:` account; duplicates dropped. Empty text is no keys.
 */
export function parsePublicKeys(text: string): Checked<readonly string[]> {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== "");
  const keys: string[] = [];
  for (const part of parts) {
    const key = (part.startsWith("k:") ? part.slice(2) : part).toLowerCase();
    if (!HEX64.test(key)) {
      const shown = part.length > 20 ? `${part.slice(0, 20)}…` : part;
      return {
        ok: false,
        error: `"${shown}" is not a public key (64 hex digits, or a k: account).`,
      };
    }
    if (!keys.includes(key)) keys.push(key);
  }
  return { ok: true, value: keys };
}

/** The keyset of the typed keys and the wallet's own picked ones, checked for `pred`. */
export function buildKeyset(
  typed: readonly string[],
  own: readonly string[],
  pred: KeysetPred,
): Checked<MultisigKeyset> {
  const keys = [...new Set([...typed, ...own].map((k) => k.toLowerCase()))].sort();
  const bad = keys.find((k) => !HEX64.test(k));
  if (bad !== undefined) return { ok: false, error: `Not a public key: ${bad}` };
  if (keys.length < MIN_KEYS) {
    return {
      ok: false,
      error: `A multi-signature account needs at least ${MIN_KEYS} keys (it has ${keys.length}).`,
    };
  }
  if (keys.length > MAX_MULTISIG_KEYS) {
    return { ok: false, error: `At most ${MAX_MULTISIG_KEYS} keys (it has ${keys.length}).` };
  }
  return { ok: true, value: { keys, pred } };
}

/**
 * The account's name: `w:` + base64url(Blake2b-256 of the sorted keys joined) + `:` + the
 * predicate, the principal `create-principal` gives the keyset (the coin contract refuses a
 * `w:` name that does not match its guard).
 */
export function multisigAccountName(guard: KeysetGuard): string {
  const keys = [...guard.keys].sort().join("");
  const hash = blake2b(new TextEncoder().encode(keys), { dkLen: 32 });
  return `w:${base64urlnopad.encode(hash)}:${guard.pred}`;
}

/** How many signatures a transfer from the account needs. */
export function requiredSignatures(guard: KeysetGuard): number {
  if (guard.pred === "keys-any") return 1;
  if (guard.pred === "keys-2") return 2;
  return guard.keys.length;
}

/**
 * The signers of a transfer: the chosen keys (in the keyset's order), enough for the
 * predicate. Every signer must sign before the command can be sent, so no more are named
 * than the user chose.
 */
export function checkSigners(
  guard: KeysetGuard,
  chosen: readonly string[],
): Checked<readonly string[]> {
  const picked = guard.keys.filter((k) => chosen.includes(k));
  const foreign = chosen.find((k) => !guard.keys.includes(k));
  if (foreign !== undefined) {
    return { ok: false, error: `${foreign} is not a key of this account.` };
  }
  const need = requiredSignatures(guard);
  if (picked.length < need) {
    return {
      ok: false,
      error:
        guard.pred === "keys-all"
          ? "Every key of a keys-all account must sign."
          : `Choose at least ${need} signer${need === 1 ? "" : "s"}.`,
    };
  }
  return { ok: true, value: picked };
}

/** Chains typed as `0, 3, 7` (or `all`), each one of `available`; ascending, unique. */
export function parseChains(
  text: string,
  available: readonly number[],
): Checked<readonly number[]> {
  const t = text.trim();
  if (t.toLowerCase() === "all") return { ok: true, value: [...available].sort((a, b) => a - b) };
  const parts = t.split(/[\s,;]+/).filter((p) => p !== "");
  if (parts.length === 0) return { ok: false, error: "Enter the chains, e.g. 0, 3 (or all)." };
  const chains = new Set<number>();
  for (const p of parts) {
    const n = /^\d{1,3}$/.test(p) ? Number(p) : null;
    if (n === null || !available.includes(n)) {
      return {
        ok: false,
        error: `${p} is not a chain of this network (0 to ${Math.max(0, available.length - 1)}).`,
      };
    }
    chains.add(n);
  }
  return { ok: true, value: [...chains].sort((a, b) => a - b) };
}

export type CreateAccountPlan = {
  readonly networkId: string;
  readonly chainId: number;
  readonly account: string;
  readonly guard: KeysetGuard;
  /** The wallet account that pays the gas, and its key (the only signer). */
  readonly payer: string;
  readonly payerPublicKey: string;
  readonly gasLimit: number;
  /** Base units (12 decimals). */
  readonly gasPrice: bigint;
  readonly ttl: number;
  readonly creationTime: number;
  readonly nonce: string;
};

export function createAccountCode(account: string): string {
  return `(coin.create-account ${pactString(account)} (read-keyset ${pactString(ACCOUNT_GUARD_KEY)}))`;
}

/**
 * `coin.create-account` of the account with its keyset, the payer the sender, its key the
 * one signer scoped to `coin.GAS` (creating an account needs no signature of the new keys).
 */
export function createAccountPayload(plan: CreateAccountPlan): CommandPayload {
  return {
    payload: {
      exec: {
        code: createAccountCode(plan.account),
        data: { [ACCOUNT_GUARD_KEY]: { keys: [...plan.guard.keys], pred: plan.guard.pred } },
      },
    },
    meta: {
      chainId: String(plan.chainId),
      sender: plan.payer,
      gasLimit: plan.gasLimit,
      gasPrice: formatAmount(plan.gasPrice, COIN_DECIMALS, { group: false }),
      ttl: plan.ttl,
      creationTime: plan.creationTime,
    },
    signers: [{ pubKey: plan.payerPublicKey, clist: [{ name: "coin.GAS", args: [] }] }],
    networkId: plan.networkId,
    nonce: plan.nonce,
  };
}

/**
 * A transfer from a multi-signature account: the single-key transfer's command with every
 * chosen key a signer, each scoped to the same `coin.TRANSFER` and `coin.GAS` (the account
 * pays its own gas).
 */
export function multisigTransferPayload(
  plan: TransferPlan,
  signers: readonly string[],
): CommandPayload {
  if (signers.length === 0) throw new RangeError("a transfer needs a signer");
  const base = transferPayload(plan);
  const clist = transferCapabilities(plan);
  return { ...base, signers: signers.map((pubKey) => ({ pubKey, clist: [...clist] })) };
}
