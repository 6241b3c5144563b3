/**
 * The file of pending cross-chain transfers, `<dataDir>/<network>/wallet/pending.json`, kept by
 * the node through `GET/PUT /app/api/wallet/pending` (docs/wallet.md "Cross-chain transfers").
 * Nothing in it is secret: the continuation's one-time key signed it and was dropped. The
 * node checks the same shape with a JSON schema (`src-node/api/routes/appWalletRoutes.ts`);
 * this parser is the renderer's boundary.
 * @module
 */
import { type Decoded, decode, reject } from "../../../api/decode.ts";
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
};

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

/** The node's answer `{pending: <file> | null}` → the transfers (none before the first). */
export function parsePendingAnswer(raw: unknown): Decoded<readonly PendingTransfer[]> {
  return decode(raw, (x) => {
    const file = rec(x, "answer").pending;
    if (file === null || file === undefined) return [];
    const f = rec(file, "pending");
    if (f.format !== PENDING_FORMAT) reject("pending.format", `"${PENDING_FORMAT}"`);
    if (f.version !== PENDING_VERSION) reject("pending.version", String(PENDING_VERSION));
    const list = f.transfers;
    if (!Array.isArray(list)) return reject("pending.transfers", "an array");
    return list.map((t, i) => readTransfer(t, `pending.transfers[${i}]`));
  });
}

/** The file to store: newest first, at most {@link MAX_PENDING} (active ones always kept). */
export function pendingFileOf(transfers: readonly PendingTransfer[]): PendingFile {
  const sorted = [...transfers].sort((a, b) => b.createdAt - a.createdAt);
  const active = sorted.filter(isActive);
  const room = Math.max(0, MAX_PENDING - active.length);
  const kept = new Set([...active, ...sorted.filter((t) => !isActive(t)).slice(0, room)]);
  return {
    format: PENDING_FORMAT,
    version: PENDING_VERSION,
    transfers: sorted.filter((t) => kept.has(t)),
  };
}
