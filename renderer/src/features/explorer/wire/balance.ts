/**
 * An account's balance and guard on one chain, read with `/local` (nothing is signed or
 * kept): the command asks the coin contract for the account's details and returns the
 * balance as the contract prints it (exact decimal text) and the guard.
 * @module
 */
import { commandModel } from "../../../../../src-node/command/commandModel.ts";
import type { UnsignedCommand } from "../../../../../src-node/command/commandTypes.ts";
import { type Decoded, decode, record, reject, string } from "../../../api/decode.ts";

/** A guard as the page shows it: a keyset's predicate and keys, or any other guard's JSON. */
export type GuardShown =
  | { readonly kind: "keyset"; readonly pred: string; readonly keys: readonly string[] }
  | { readonly kind: "other"; readonly text: string };

export type ChainBalance =
  | { readonly kind: "account"; readonly balance: string; readonly guard: GuardShown }
  | { readonly kind: "none" }
  | { readonly kind: "failed"; readonly message: string };

/** The unsigned `/local` command reading `account` on `chainId`. */
export function balanceCommand(
  account: string,
  chainId: number,
  networkId: string,
  nowSeconds: number,
): UnsignedCommand {
  // A Pact string literal: JSON's escaping of " and \ is the contract language's too.
  const name = JSON.stringify(account);
  const code = `(let ((d (coin.details ${name}))) [(format "{}" [(at 'balance d)]) (at 'guard d)])`;
  return commandModel.buildCommand({
    payload: { exec: { code, data: null } },
    meta: {
      chainId: String(chainId),
      sender: "",
      gasLimit: 2000,
      gasPrice: "0.00000001",
      ttl: 600,
      // A little in the past, so a clock slightly ahead of the node's is no problem.
      creationTime: nowSeconds - 60,
    },
    signers: [],
    networkId,
    nonce: `explorer-balance-${nowSeconds}`,
  });
}

/** A guard for the page: a keyset's predicate and keys, or the guard's JSON. */
export function guardShown(guard: unknown): GuardShown {
  if (typeof guard === "object" && guard !== null && !Array.isArray(guard)) {
    const g = guard as { keys?: unknown; pred?: unknown };
    if (Array.isArray(g.keys) && typeof g.pred === "string") {
      return { kind: "keyset", pred: g.pred, keys: g.keys.map(String) };
    }
  }
  return { kind: "other", text: JSON.stringify(guard) };
}

/** A guard in words: `keys-all: 3688…, 9f1c…` for a keyset, its JSON otherwise. */
export function guardText(guard: unknown): string {
  const shown = guardShown(guard);
  return shown.kind === "keyset" ? `${shown.pred}: ${shown.keys.join(", ")}` : shown.text;
}

/** Reads the `/local` result of {@link balanceCommand}. */
export function parseBalanceResult(raw: unknown): Decoded<ChainBalance> {
  return decode(raw, (x): ChainBalance => {
    const o = record(x, "local");
    const result = record(o.result, "result");
    if (result.status === "failure") {
      const error = result.error;
      const message =
        typeof error === "object" && error !== null && "message" in error
          ? String((error as { message: unknown }).message)
          : JSON.stringify(error);
      // The coin table has no row for an account that does not exist on this chain.
      if (/row not found|no such row|not found/i.test(message)) return { kind: "none" };
      return { kind: "failed", message };
    }
    if (result.status !== "success") reject("result.status", "success or failure");
    const data = result.data;
    if (!Array.isArray(data) || data.length !== 2) return reject("result.data", "[balance, guard]");
    return {
      kind: "account",
      balance: string(data[0], "result.data[0]"),
      guard: guardShown(data[1]),
    };
  });
}
