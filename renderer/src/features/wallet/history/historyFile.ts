/**
 * Reading the history's entries and the multi-signature accounts from `wallet/pending.json`
 * (the renderer's boundary; the node checks the same shape with its JSON schema in
 * `src-node/api/routes/appWalletRoutes.ts`).
 * @module
 */
import { reject } from "../../../api/decode.ts";
import { isKeysetPred, MAX_KEYS, type MultisigAccount } from "../multisig/multisigAccount.ts";
import {
  HISTORY_KINDS,
  HISTORY_STATUSES,
  type HistoryEntry,
  type HistoryKind,
  type HistoryStatus,
} from "./historyModel.ts";

type Rec = { readonly [k: string]: unknown };
const rec = (x: unknown, path: string): Rec =>
  typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Rec) : reject(path, "an object");
const str = (x: unknown, path: string): string =>
  typeof x === "string" ? x : reject(path, "a string");
const strOrNull = (x: unknown, path: string): string | null => (x === null ? null : str(x, path));
const nat = (x: unknown, path: string): number =>
  typeof x === "number" && Number.isSafeInteger(x) && x >= 0 ? x : reject(path, "an integer >= 0");
const natOrNull = (x: unknown, path: string): number | null => (x === null ? null : nat(x, path));
const chain = (x: unknown, path: string): number =>
  typeof x === "number" && Number.isInteger(x) && x >= 0 && x < 1000 ? x : reject(path, "a chain");
const DECIMAL = /^\d{1,30}(\.\d{1,12})?$/;
const decimalOrNull = (x: unknown, path: string): string | null => {
  const s = strOrNull(x, path);
  return s === null || DECIMAL.test(s) ? s : reject(path, "a decimal or null");
};
const KEY = /^[A-Za-z0-9_-]{43}$/;
const HEX64 = /^[0-9a-f]{64}$/;

export function readHistoryEntry(x: unknown, path: string): HistoryEntry {
  const o = rec(x, path);
  const requestKey = str(o.requestKey, `${path}.requestKey`);
  if (!KEY.test(requestKey)) reject(`${path}.requestKey`, "a request key");
  if (!HISTORY_KINDS.includes(o.kind as HistoryKind)) {
    reject(`${path}.kind`, HISTORY_KINDS.join(" | "));
  }
  if (!HISTORY_STATUSES.includes(o.status as HistoryStatus)) {
    reject(`${path}.status`, HISTORY_STATUSES.join(" | "));
  }
  return {
    requestKey,
    kind: o.kind as HistoryKind,
    status: o.status as HistoryStatus,
    chain: chain(o.chain, `${path}.chain`),
    targetChain: o.targetChain === null ? null : chain(o.targetChain, `${path}.targetChain`),
    sender: strOrNull(o.sender, `${path}.sender`),
    receiver: strOrNull(o.receiver, `${path}.receiver`),
    amount: decimalOrNull(o.amount, `${path}.amount`),
    gasPrice: decimalOrNull(o.gasPrice, `${path}.gasPrice`),
    fee: decimalOrNull(o.fee, `${path}.fee`),
    blockHeight: natOrNull(o.blockHeight, `${path}.blockHeight`),
    message: strOrNull(o.message, `${path}.message`),
    expiresAt: natOrNull(o.expiresAt, `${path}.expiresAt`),
    createdAt: nat(o.createdAt, `${path}.createdAt`),
  };
}

export function readMultisigAccount(x: unknown, path: string): MultisigAccount {
  const o = rec(x, path);
  const keys = o.keys;
  if (!Array.isArray(keys) || keys.length < 1 || keys.length > MAX_KEYS) {
    return reject(`${path}.keys`, `a list of 1 to ${MAX_KEYS} keys`);
  }
  const chains = o.chains;
  if (!Array.isArray(chains)) return reject(`${path}.chains`, "a list of chains");
  const pred = o.pred;
  if (!isKeysetPred(pred)) return reject(`${path}.pred`, "keys-all | keys-any | keys-2");
  return {
    account: str(o.account, `${path}.account`),
    keys: keys.map((k, i) =>
      typeof k === "string" && HEX64.test(k) ? k : reject(`${path}.keys[${i}]`, "a public key"),
    ),
    pred,
    chains: chains.map((c, i) => chain(c, `${path}.chains[${i}]`)),
    createdAt: nat(o.createdAt, `${path}.createdAt`),
  };
}
