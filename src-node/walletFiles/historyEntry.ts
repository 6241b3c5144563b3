/**
 * One entry of the wallet's history as `wallet/pending.json` keeps it (docs/wallet.md
 * "History"; nothing secret: no command, no signature), its kinds and statuses, and its reader
 * {@link readHistoryEntry} (`pendingFile.ts` reads the file with it). What the wallet does with
 * the entries is the renderer's (`features/wallet/history/historyModel.ts`).
 * @module
 */
import { natural } from "./decode.ts";
import { chain, fields, matching, oneOf, orNull, requestKey, text } from "./fileFields.ts";

export type HistoryKind =
  | "transfer"
  | "crosschain"
  | "multisig"
  | "create-account"
  | "signed"
  | "added";

export type HistoryStatus = "prepared" | "pending" | "succeeded" | "failed" | "expired";

export const HISTORY_KINDS: readonly HistoryKind[] = [
  "transfer",
  "crosschain",
  "multisig",
  "create-account",
  "signed",
  "added",
];
export const HISTORY_STATUSES: readonly HistoryStatus[] = [
  "prepared",
  "pending",
  "succeeded",
  "failed",
  "expired",
];

/** Kept at most: the oldest go first. */
export const MAX_HISTORY = 500;

export type HistoryEntry = {
  readonly requestKey: string;
  readonly kind: HistoryKind;
  readonly status: HistoryStatus;
  /** The chain the command runs on (step 1's for a cross-chain transfer). */
  readonly chain: number;
  /** A cross-chain transfer's target chain, else null. */
  readonly targetChain: number | null;
  readonly sender: string | null;
  readonly receiver: string | null;
  /** Decimal text of the coins moved, when the command moves coins. */
  readonly amount: string | null;
  /** Decimal text of the command's gas price (the fee is gas used × this). */
  readonly gasPrice: string | null;
  /** Decimal text of the fee paid, once the result is known. */
  readonly fee: string | null;
  readonly blockHeight: number | null;
  /** Why it failed (status "failed"). */
  readonly message: string | null;
  /** UNIX seconds after which a command never sent is expired; null when unknown. */
  readonly expiresAt: number | null;
  /** UNIX ms when the wallet recorded it (the order). */
  readonly createdAt: number;
};

/** The entry's limits (characters are code points). */
export const HISTORY_LIMITS = { account: 300, message: 2000 } as const;

const DECIMAL = /^\d{1,30}(\.\d{1,12})?$/;
const FIELDS = [
  "requestKey",
  "kind",
  "status",
  "chain",
  "targetChain",
  "sender",
  "receiver",
  "amount",
  "gasPrice",
  "fee",
  "blockHeight",
  "message",
  "expiresAt",
  "createdAt",
] as const;

const account = (x: unknown, path: string) => text(x, path, HISTORY_LIMITS.account);
const decimal = (x: unknown, path: string) =>
  matching(x, path, DECIMAL, "a decimal (up to 30 digits, 12 after the point)");

/** The history entry at `path`; refuses a member the entry does not have. */
export function readHistoryEntry(x: unknown, path: string): HistoryEntry {
  const o = fields(x, path, FIELDS);
  return {
    requestKey: requestKey(o.requestKey, `${path}.requestKey`),
    kind: oneOf(o.kind, `${path}.kind`, HISTORY_KINDS),
    status: oneOf(o.status, `${path}.status`, HISTORY_STATUSES),
    chain: chain(o.chain, `${path}.chain`),
    targetChain: orNull(o.targetChain, `${path}.targetChain`, chain),
    sender: orNull(o.sender, `${path}.sender`, account),
    receiver: orNull(o.receiver, `${path}.receiver`, account),
    amount: orNull(o.amount, `${path}.amount`, decimal),
    gasPrice: orNull(o.gasPrice, `${path}.gasPrice`, decimal),
    fee: orNull(o.fee, `${path}.fee`, decimal),
    blockHeight: orNull(o.blockHeight, `${path}.blockHeight`, natural),
    message: orNull(o.message, `${path}.message`, (m, p) => text(m, p, HISTORY_LIMITS.message)),
    expiresAt: orNull(o.expiresAt, `${path}.expiresAt`, natural),
    createdAt: natural(o.createdAt, `${path}.createdAt`),
  };
}
