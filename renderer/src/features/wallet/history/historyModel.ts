/**
 * The wallet's history, pure: the transactions this wallet sent (plain, cross-chain step 1,
 * multi-signature, account creations, transactions signed on "Sign a transaction") or that the
 * user added by request key, each with its status, amount, chains, fee and block; kept newest
 * first with the pending cross-chain transfers in `wallet/pending.json` (nothing secret: no
 * command, no signature). A status moves forward only: prepared (a multi-signature transfer
 * waiting for its other signatures) → pending (sent, no block yet) → succeeded or failed; a
 * prepared one never sent becomes expired when its time to live has passed. An entry's shape
 * is the file's (`src-node/walletFiles/historyEntry.ts`).
 * @module
 */
import {
  type HistoryEntry,
  type HistoryKind,
  type HistoryStatus,
  MAX_HISTORY,
} from "../../../../../src-node/walletFiles/historyEntry.ts";
import { COIN_DECIMALS, formatAmount, unitsOfDecimalText } from "../../../format/amount.ts";

export type NewHistoryEntry = Pick<HistoryEntry, "requestKey" | "kind" | "chain" | "createdAt"> &
  Partial<Omit<HistoryEntry, "requestKey" | "kind" | "chain" | "createdAt">>;

export function newHistoryEntry(init: NewHistoryEntry): HistoryEntry {
  return {
    status: "pending",
    targetChain: null,
    sender: null,
    receiver: null,
    amount: null,
    gasPrice: null,
    fee: null,
    blockHeight: null,
    message: null,
    expiresAt: null,
    ...init,
  };
}

const RANK: Record<HistoryStatus, number> = {
  prepared: 0,
  pending: 1,
  expired: 2,
  succeeded: 3,
  failed: 3,
};

/** Whether the wallet still looks for the entry's result. */
export function isOpen(e: HistoryEntry): boolean {
  return e.status === "prepared" || e.status === "pending";
}

/** Newest first; ties by request key, so the order is stable. */
export function sortHistory(list: readonly HistoryEntry[]): readonly HistoryEntry[] {
  return [...list].sort(
    (a, b) =>
      b.createdAt - a.createdAt ||
      (a.requestKey < b.requestKey ? -1 : a.requestKey > b.requestKey ? 1 : 0),
  );
}

/**
 * Records `entry`: a new request key goes in; a known one keeps what it knew (its kind, its
 * time, its facts) and takes the newer facts and the later status (a multi-signature transfer
 * prepared here and then sent from "Sign a transaction" stays one multi-signature entry).
 */
export function recordEntry(
  list: readonly HistoryEntry[],
  entry: HistoryEntry,
): readonly HistoryEntry[] {
  const old = list.find((e) => e.requestKey === entry.requestKey);
  if (old === undefined) return capHistory([entry, ...list]);
  const pick = <T>(a: T | null, b: T | null): T | null => (a === null ? b : a);
  const merged: HistoryEntry = {
    ...old,
    status: RANK[entry.status] > RANK[old.status] ? entry.status : old.status,
    targetChain: pick(old.targetChain, entry.targetChain),
    sender: pick(old.sender, entry.sender),
    receiver: pick(old.receiver, entry.receiver),
    amount: pick(old.amount, entry.amount),
    gasPrice: pick(old.gasPrice, entry.gasPrice),
    fee: pick(entry.fee, old.fee),
    blockHeight: pick(entry.blockHeight, old.blockHeight),
    message: pick(entry.message, old.message),
    expiresAt: pick(old.expiresAt, entry.expiresAt),
  };
  return capHistory(list.map((e) => (e === old ? merged : e)));
}

/** Newest first, at most {@link MAX_HISTORY}. */
export function capHistory(list: readonly HistoryEntry[]): readonly HistoryEntry[] {
  return sortHistory(list).slice(0, MAX_HISTORY);
}

/** The fee of `gas` units at `gasPrice` (decimal text), as decimal text; null when unknown. */
export function feeOf(gas: number, gasPrice: string | null): string | null {
  if (gasPrice === null) return null;
  const price = unitsOfDecimalText(gasPrice, COIN_DECIMALS);
  if (!price.ok) return null;
  return formatAmount(BigInt(gas) * price.value, COIN_DECIMALS, { group: false });
}

/** What a `/poll` of the entry's chain said: its result, or nothing (not in a block yet). */
export type PollObservation =
  | {
      readonly found: true;
      readonly ok: boolean;
      readonly gas: number;
      readonly blockHeight: number | null;
      readonly message: string | null;
    }
  | { readonly found: false };

/** The entry after a poll at `nowSeconds`; unchanged when nothing is new. */
export function applyPoll(
  e: HistoryEntry,
  seen: PollObservation,
  nowSeconds: number,
): HistoryEntry {
  if (!isOpen(e)) return e;
  if (seen.found) {
    return {
      ...e,
      status: seen.ok ? "succeeded" : "failed",
      fee: feeOf(seen.gas, e.gasPrice),
      blockHeight: seen.blockHeight,
      message: seen.ok ? null : seen.message,
    };
  }
  // A command that was never sent (or dropped) can no longer be taken after its expiry.
  if (e.expiresAt !== null && nowSeconds > e.expiresAt + 60) return { ...e, status: "expired" };
  return e;
}

const KIND_TEXT: Record<HistoryKind, string> = {
  transfer: "Transfer",
  crosschain: "Cross-chain transfer",
  multisig: "Multi-signature transfer",
  "create-account": "Account created",
  signed: "Signed transaction",
  added: "Added by request key",
};

export const kindText = (e: HistoryEntry): string => KIND_TEXT[e.kind];

/** The status in words. */
export function historyStatusText(e: HistoryEntry): string {
  switch (e.status) {
    case "prepared":
      return "Waiting for signatures";
    case "pending":
      return "Pending";
    case "succeeded":
      return e.blockHeight === null ? "Succeeded" : `Succeeded in block ${e.blockHeight}`;
    case "failed":
      return `Failed${e.message === null ? "" : `: ${e.message}`}`;
    case "expired":
      return "Expired (never in a block)";
    default: {
      const never: never = e.status;
      return never;
    }
  }
}

/** `0`, or `0 → 3` for a cross-chain transfer. */
export function chainsText(e: HistoryEntry): string {
  return e.targetChain === null || e.targetChain === e.chain
    ? String(e.chain)
    : `${e.chain} → ${e.targetChain}`;
}
