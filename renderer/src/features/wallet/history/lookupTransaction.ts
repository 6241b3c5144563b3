/**
 * "Add by request key": the explorer's answer for a transaction
 * (`GET /app/api/explorer/tx/{requestKey}`, docs/explorer-api.md) read into a history entry —
 * its chain, sender, gas price and expiry from the command, the receiver and amount from its
 * transfer capability or cross-chain facts, and its status, fee and block from its result. Only
 * the fields used are read, each checked.
 * @module
 */
import type { HistoryEntry } from "../../../../../src-node/walletFiles/historyEntry.ts";
import { type Decoded, decode, reject } from "../../../api/decode.ts";
import { decimalText } from "./commandFacts.ts";
import { feeOf, newHistoryEntry } from "./historyModel.ts";

type Rec = { readonly [k: string]: unknown };
const rec = (x: unknown, path: string): Rec =>
  typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Rec) : reject(path, "an object");
const opt = (x: unknown): Rec | null =>
  typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Rec) : null;
const nat = (x: unknown, path: string): number =>
  typeof x === "number" && Number.isSafeInteger(x) && x >= 0 ? x : reject(path, "an integer >= 0");
const chain = (x: unknown, path: string): number =>
  typeof x === "number" && Number.isInteger(x) && x >= 0 && x < 1000 ? x : reject(path, "a chain");

/** The transfer capability's receiver and amount, when a signer carries one. */
function transferOf(cmd: Rec): { receiver: string | null; amount: string | null } {
  const signers = Array.isArray(cmd.signers) ? cmd.signers : [];
  for (const s of signers) {
    const clist = opt(s)?.clist;
    if (!Array.isArray(clist)) continue;
    for (const c of clist) {
      const cap = opt(c);
      if (cap?.name !== "coin.TRANSFER" && cap?.name !== "coin.TRANSFER_XCHAIN") continue;
      const args = Array.isArray(cap.args) ? cap.args : [];
      return {
        receiver: typeof args[1] === "string" ? args[1] : null,
        amount: decimalText(args[2]),
      };
    }
  }
  return { receiver: null, amount: null };
}

/** The explorer's transaction → an "added" history entry recorded at `createdAt`. */
export function entryFromExplorerTx(raw: unknown, createdAt: number): Decoded<HistoryEntry> {
  return decode(raw, (): HistoryEntry => {
    const o = rec(raw, "tx");
    const requestKey = o.requestKey;
    if (typeof requestKey !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(requestKey)) {
      return reject("tx.requestKey", "a request key");
    }
    const status = o.status;
    if (status !== "confirmed" && status !== "pending" && status !== "orphaned") {
      return reject("tx.status", "confirmed | pending | orphaned");
    }
    const cmd = rec(rec(o.command, "tx.command").cmd, "tx.command.cmd");
    const meta = rec(cmd.meta, "tx.command.cmd.meta");
    const gasPrice = decimalText(meta.gasPrice);
    const { receiver, amount } = transferOf(cmd);
    const cross = opt(o.crossChain);
    const target =
      cross !== null && typeof cross.targetChain === "number"
        ? chain(cross.targetChain, "tx.crossChain.targetChain")
        : null;
    const result = opt(opt(o.result)?.result);
    const confirmed = status === "confirmed" && result !== null;
    const ok = confirmed && result.status === "success";
    const gas = confirmed ? nat(o.gas, "tx.gas") : null;
    const errorMessage = opt(result?.error)?.message;
    return newHistoryEntry({
      requestKey,
      kind: "added",
      status: confirmed ? (ok ? "succeeded" : "failed") : "pending",
      chain: chain(o.chain, "tx.chain"),
      targetChain: target,
      sender: typeof meta.sender === "string" && meta.sender !== "" ? meta.sender : null,
      receiver: typeof cross?.receiver === "string" ? cross.receiver : receiver,
      amount: typeof cross?.amount === "string" ? decimalText(cross.amount) : amount,
      gasPrice,
      fee: gas === null ? null : feeOf(gas, gasPrice),
      blockHeight: confirmed ? nat(rec(o.block, "tx.block").height, "tx.block.height") : null,
      message: confirmed && !ok && typeof errorMessage === "string" ? errorMessage : null,
      expiresAt: typeof o.expiresAt === "number" ? nat(o.expiresAt, "tx.expiresAt") : null,
      createdAt,
    });
  });
}
