/**
 * The file of pending cross-chain transfers, `<dataDir>/<network>/wallet/pending.json`, kept by
 * the node through `GET/PUT /app/api/wallet/pending` (docs/wallet.md "Cross-chain transfers").
 * Nothing in it is secret: the continuation's one-time key signed it and was dropped. The
 * node checks the same shape with a JSON schema (`src-node/api/routes/appWalletRoutes.ts`);
 * this parser is the renderer's boundary. The same file keeps the wallet's history and its
 * multi-signature accounts (`history`, `multisig`; absent in files written before them), so one
 * guarded route and one atomic write hold every non-secret record of the wallet.
 * @module
 */
import { type Decoded, decode, reject } from "../../../api/decode.ts";
import { readHistoryEntry, readMultisigAccount } from "../history/historyFile.ts";
import { capHistory, type HistoryEntry } from "../history/historyModel.ts";
import type { MultisigAccount } from "../multisig/multisigAccount.ts";
import {
  isActive,
  type PendingTransfer,
  type Phase,
  type StoredCommand,
} from "./pendingTransfer.ts";

export const PENDING_FORMAT = "weft-pending";
export const PENDING_VERSION = 1;
/** Kept at most: the oldest finished ones go first. */
export const MAX_PENDING = 200;

export type PendingFile = {
  readonly format: typeof PENDING_FORMAT;
  readonly version: typeof PENDING_VERSION;
  readonly transfers: readonly PendingTransfer[];
  readonly history?: readonly HistoryEntry[];
  readonly multisig?: readonly MultisigAccount[];
};

/** Everything the file holds, read. */
export type WalletRecords = {
  readonly transfers: readonly PendingTransfer[];
  readonly history: readonly HistoryEntry[];
  readonly multisig: readonly MultisigAccount[];
};

/** Multi-signature accounts kept at most. */
export const MAX_MULTISIG = 100;

const PHASES: readonly Phase[] = ["sent", "proof", "finishing", "done", "attention"];
const KEY = /^[A-Za-z0-9_-]{43}$/;

type Rec = { readonly [k: string]: unknown };
const rec = (x: unknown, path: string): Rec =>
  typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Rec) : reject(path, "an object");
const str = (x: unknown, path: string): string =>
  typeof x === "string" ? x : reject(path, "a string");
const strOrNull = (x: unknown, path: string): string | null => (x === null ? null : str(x, path));
const chain = (x: unknown, path: string): number =>
  typeof x === "number" && Number.isInteger(x) && x >= 0 && x < 1000 ? x : reject(path, "a chain");

function readCommand(x: unknown, path: string): StoredCommand {
  const o = rec(x, path);
  const sigs = o.sigs;
  if (!Array.isArray(sigs)) return reject(`${path}.sigs`, "an array");
  return {
    cmd: str(o.cmd, `${path}.cmd`),
    hash: str(o.hash, `${path}.hash`),
    sigs: sigs.map((s, i) => ({
      sig: str(rec(s, `${path}.sigs[${i}]`).sig, `${path}.sigs[${i}].sig`),
    })),
  };
}

function readTransfer(x: unknown, path: string): PendingTransfer {
  const o = rec(x, path);
  const requestKey = str(o.requestKey, `${path}.requestKey`);
  if (!KEY.test(requestKey)) reject(`${path}.requestKey`, "a request key");
  const phase = o.phase as Phase;
  if (!PHASES.includes(phase)) reject(`${path}.phase`, PHASES.join(" | "));
  const retry = o.retryPhase as Phase | null;
  if (retry !== null && !PHASES.includes(retry)) reject(`${path}.retryPhase`, "a phase or null");
  if (typeof o.continuationSent !== "boolean") reject(`${path}.continuationSent`, "a boolean");
  if (typeof o.createdAt !== "number") reject(`${path}.createdAt`, "a number");
  return {
    requestKey,
    sourceChain: chain(o.sourceChain, `${path}.sourceChain`),
    targetChain: chain(o.targetChain, `${path}.targetChain`),
    sender: strOrNull(o.sender, `${path}.sender`),
    receiver: strOrNull(o.receiver, `${path}.receiver`),
    amount: strOrNull(o.amount, `${path}.amount`),
    phase,
    reason: strOrNull(o.reason, `${path}.reason`),
    retryPhase: retry,
    continuation:
      o.continuation === null ? null : readCommand(o.continuation, `${path}.continuation`),
    continuationSent: o.continuationSent as boolean,
    createdAt: o.createdAt as number,
  };
}

/** The node's answer `{pending: <file> | null}` → every record (none before the first). */
export function parseWalletRecords(raw: unknown): Decoded<WalletRecords> {
  return decode(raw, () => {
    const file = rec(raw, "answer").pending;
    if (file === null || file === undefined) return { transfers: [], history: [], multisig: [] };
    const f = rec(file, "pending");
    if (f.format !== PENDING_FORMAT) reject("pending.format", `"${PENDING_FORMAT}"`);
    if (f.version !== PENDING_VERSION) reject("pending.version", String(PENDING_VERSION));
    const list = f.transfers;
    if (!Array.isArray(list)) return reject("pending.transfers", "an array");
    const history = f.history ?? [];
    if (!Array.isArray(history)) return reject("pending.history", "an array");
    const multisig = f.multisig ?? [];
    if (!Array.isArray(multisig)) return reject("pending.multisig", "an array");
    return {
      transfers: list.map((t, i) => readTransfer(t, `pending.transfers[${i}]`)),
      history: history.map((h, i) => readHistoryEntry(h, `pending.history[${i}]`)),
      multisig: multisig.map((m, i) => readMultisigAccount(m, `pending.multisig[${i}]`)),
    };
  });
}

/** The node's answer `{pending: <file> | null}` → the transfers (none before the first). */
export function parsePendingAnswer(raw: unknown): Decoded<readonly PendingTransfer[]> {
  const r = parseWalletRecords(raw);
  return r.ok ? { ok: true, value: r.value.transfers } : r;
}

/**
 * The file to store: transfers newest first, at most {@link MAX_PENDING} (active ones always
 * kept); with `records`, the history (newest {@link MAX_HISTORY}) and the multi-signature
 * accounts too.
 */
export function pendingFileOf(
  transfers: readonly PendingTransfer[],
  records?: Pick<WalletRecords, "history" | "multisig">,
): PendingFile {
  const sorted = [...transfers].sort((a, b) => b.createdAt - a.createdAt);
  const active = sorted.filter(isActive);
  const room = Math.max(0, MAX_PENDING - active.length);
  const kept = new Set([...active, ...sorted.filter((t) => !isActive(t)).slice(0, room)]);
  return {
    format: PENDING_FORMAT,
    version: PENDING_VERSION,
    transfers: sorted.filter((t) => kept.has(t)),
    ...(records === undefined
      ? {}
      : {
          history: capHistory(records.history),
          multisig: [...records.multisig]
            .sort((a, b) => b.createdAt - a.createdAt)
            .slice(0, MAX_MULTISIG),
        }),
  };
}
