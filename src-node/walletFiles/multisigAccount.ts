/**
 * A multi-signature account as the wallet keeps it in `wallet/pending.json` (docs/wallet.md;
 * its keys, predicate and chains, nothing secret), and its reader {@link readMultisigAccount}
 * (`pendingFile.ts` reads the file with it). Building such accounts and their commands is the
 * renderer's (`features/wallet/multisig/multisigAccount.ts`).
 * @module
 */
import { natural } from "./decode.ts";
import { chain, fields, hexBytes, listOf, oneOf, text } from "./fileFields.ts";

export type KeysetPred = "keys-all" | "keys-any" | "keys-2";
export const KEYSET_PREDS: readonly KeysetPred[] = ["keys-all", "keys-any", "keys-2"];

export const isKeysetPred = (x: unknown): x is KeysetPred =>
  typeof x === "string" && (KEYSET_PREDS as readonly string[]).includes(x);

/** An account's keyset holds at most this many keys (each one a signer of its transfers). */
export const MAX_MULTISIG_KEYS = 10;

/** The account's limits (characters are code points). */
export const MULTISIG_LIMITS = { accountMin: 3, account: 256, chains: 1000 } as const;

/** A multi-signature account as the wallet keeps it. */
export type MultisigAccount = {
  /** The `w:` principal of the keyset. */
  readonly account: string;
  /** Sorted, unique, 64 lower-case hex each. */
  readonly keys: readonly string[];
  readonly pred: KeysetPred;
  /** The chains it was created on, ascending. */
  readonly chains: readonly number[];
  /** UNIX ms (ordering only). */
  readonly createdAt: number;
};

/** The account at `path`; refuses a member the account does not have. */
export function readMultisigAccount(x: unknown, path: string): MultisigAccount {
  const o = fields(x, path, ["account", "keys", "pred", "chains", "createdAt"]);
  return {
    account: text(
      o.account,
      `${path}.account`,
      MULTISIG_LIMITS.account,
      MULTISIG_LIMITS.accountMin,
    ),
    keys: listOf(o.keys, `${path}.keys`, MAX_MULTISIG_KEYS, (k, p) => hexBytes(k, p, 32), 1),
    pred: oneOf(o.pred, `${path}.pred`, KEYSET_PREDS),
    chains: listOf(o.chains, `${path}.chains`, MULTISIG_LIMITS.chains, chain),
    createdAt: natural(o.createdAt, `${path}.createdAt`),
  };
}
