/**
 * The wallet's file of non-secret records, `<dataDir>/<network>/wallet/pending.json`
 * (docs/wallet.md "Cross-chain transfers"), its one definition: the pending cross-chain
 * transfers, the history (`historyEntry.ts`) and the multi-signature accounts
 * (`multisigAccount.ts`; both absent in files written before them), so one guarded route and
 * one atomic write hold every non-secret record of the wallet. Nothing in it is secret: a
 * continuation's one-time key signed it and was dropped. The node checks every body it is
 * asked to store with {@link parsePendingFile} (api/routes/appWalletRoutes.ts) and stores what
 * it read; the renderer reads the stored file with it (`features/wallet/crosschain/`).
 * @module
 */
import { type Decoded, decode, natural, reject } from "./decode.ts";
import { chain, fields, hexBytes, listOf, oneOf, orNull, requestKey, text } from "./fileFields.ts";
import { type HistoryEntry, MAX_HISTORY, readHistoryEntry } from "./historyEntry.ts";
import { type MultisigAccount, readMultisigAccount } from "./multisigAccount.ts";

export const PENDING_FORMAT = "weft-pending";
export const PENDING_VERSION = 1;
/** Transfers kept at most: the oldest finished ones go first. */
export const MAX_PENDING = 200;
/** Multi-signature accounts kept at most. */
export const MAX_MULTISIG = 100;

/** The transfers' limits (characters are code points). */
export const PENDING_LIMITS = {
  account: 300,
  amount: 60,
  reason: 2000,
  /** The continuation command's `cmd`, with its SPV proof. */
  cmd: 100_000,
  /** A continuation is signed by its one-time key only. */
  sigs: 1,
} as const;

/** Where a cross-chain transfer is (`features/wallet/crosschain/pendingTransfer.ts`). */
export type Phase = "sent" | "proof" | "finishing" | "done" | "attention";
export const PHASES: readonly Phase[] = ["sent", "proof", "finishing", "done", "attention"];

/** The continuation command as sent (`{cmd, hash, sigs}`); resent unchanged, so idempotent. */
export type StoredCommand = {
  readonly cmd: string;
  readonly hash: string;
  readonly sigs: readonly { readonly sig: string }[];
};

/** A pending cross-chain transfer as the file keeps it. */
export type PendingTransfer = {
  /** Step 1's request key (the defpact's id). */
  readonly requestKey: string;
  readonly sourceChain: number;
  readonly targetChain: number;
  /** Known when this wallet sent step 1 or read its yield; shown only. */
  readonly sender: string | null;
  readonly receiver: string | null;
  /** Decimal text as in the command. */
  readonly amount: string | null;
  readonly phase: Phase;
  /** Why it needs attention (phase "attention"), or a note on Done ("already finished"). */
  readonly reason: string | null;
  /** The phase a Retry returns to. */
  readonly retryPhase: Phase | null;
  readonly continuation: StoredCommand | null;
  /** Whether the continuation was accepted by `/send` (then it is only polled). */
  readonly continuationSent: boolean;
  /** UNIX ms when the wallet first saw it (ordering only). */
  readonly createdAt: number;
};

export type PendingFile = {
  readonly format: typeof PENDING_FORMAT;
  readonly version: typeof PENDING_VERSION;
  readonly transfers: readonly PendingTransfer[];
  readonly history?: readonly HistoryEntry[];
  readonly multisig?: readonly MultisigAccount[];
};

const TRANSFER_FIELDS = [
  "requestKey",
  "sourceChain",
  "targetChain",
  "sender",
  "receiver",
  "amount",
  "phase",
  "reason",
  "retryPhase",
  "continuation",
  "continuationSent",
  "createdAt",
] as const;

const phase = (x: unknown, path: string): Phase => oneOf(x, path, PHASES);
const account = (x: unknown, path: string) => text(x, path, PENDING_LIMITS.account);

function storedCommand(x: unknown, path: string): StoredCommand {
  const o = fields(x, path, ["cmd", "hash", "sigs"]);
  return {
    cmd: text(o.cmd, `${path}.cmd`, PENDING_LIMITS.cmd),
    hash: requestKey(o.hash, `${path}.hash`),
    sigs: listOf(o.sigs, `${path}.sigs`, PENDING_LIMITS.sigs, (s, p) => ({
      sig: hexBytes(fields(s, p, ["sig"]).sig, `${p}.sig`, 64),
    })),
  };
}

function transfer(x: unknown, path: string): PendingTransfer {
  const o = fields(x, path, TRANSFER_FIELDS);
  const continuationSent = o.continuationSent;
  if (typeof continuationSent !== "boolean") reject(`${path}.continuationSent`, "true or false");
  return {
    requestKey: requestKey(o.requestKey, `${path}.requestKey`),
    sourceChain: chain(o.sourceChain, `${path}.sourceChain`),
    targetChain: chain(o.targetChain, `${path}.targetChain`),
    sender: orNull(o.sender, `${path}.sender`, account),
    receiver: orNull(o.receiver, `${path}.receiver`, account),
    amount: orNull(o.amount, `${path}.amount`, (a, p) => text(a, p, PENDING_LIMITS.amount)),
    phase: phase(o.phase, `${path}.phase`),
    reason: orNull(o.reason, `${path}.reason`, (r, p) => text(r, p, PENDING_LIMITS.reason)),
    retryPhase: orNull(o.retryPhase, `${path}.retryPhase`, phase),
    continuation: orNull(o.continuation, `${path}.continuation`, storedCommand),
    continuationSent,
    createdAt: natural(o.createdAt, `${path}.createdAt`),
  };
}

function pendingFile(x: unknown): PendingFile {
  const f = fields(x, "pending", ["format", "version", "transfers"], ["history", "multisig"]);
  if (f.format !== PENDING_FORMAT) reject("pending.format", JSON.stringify(PENDING_FORMAT));
  if (f.version !== PENDING_VERSION) reject("pending.version", String(PENDING_VERSION));
  const transfers = listOf(f.transfers, "pending.transfers", MAX_PENDING, transfer);
  // Absent stays absent: a file written before the history is given back as it was.
  return {
    format: PENDING_FORMAT,
    version: PENDING_VERSION,
    transfers,
    ...(f.history === undefined
      ? {}
      : { history: listOf(f.history, "pending.history", MAX_HISTORY, readHistoryEntry) }),
    ...(f.multisig === undefined
      ? {}
      : {
          multisig: listOf(f.multisig, "pending.multisig", MAX_MULTISIG, readMultisigAccount),
        }),
  };
}

/**
 * Reads a pending file (JSON already parsed) into exactly its known members; the reason
 * names the first bad field (`pending.transfers[0].phase: expected …`).
 */
export function parsePendingFile(raw: unknown): Decoded<PendingFile> {
  return decode(raw, pendingFile);
}
