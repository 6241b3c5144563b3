/**
 * Reading many accounts on one chain with one `/local`: the batched command (every
 * account's `coin.details` inside `try`, so a missing account is a value, not a failure of
 * the whole read) and the parser of its result into exact balances and guards. The wallet
 * home sends one of these per chain per refresh, never one request per account.
 * @module
 */
import type { CommandPayload } from "../../../../../src-node/command/commandTypes.ts";
import {
  isJsonObject,
  JsonNumber,
  type JsonValue,
} from "../../../../../src-node/command/exactJson.ts";
import { type Decoded, decode, reject } from "../../../api/decode.ts";
import { COIN_DECIMALS, unitsOfDecimalText } from "../../../format/amount.ts";

/** A keyset guard (keys and predicate), or any other guard kind shown as its JSON. */
export type AccountGuard =
  | { readonly kind: "keyset"; readonly keys: readonly string[]; readonly pred: string }
  | { readonly kind: "other"; readonly json: string };

export type AccountOnChain =
  | { readonly account: string; readonly exists: false }
  | {
      readonly account: string;
      readonly exists: true;
      /** Base units (12 decimals). */
      readonly balance: bigint;
      readonly guard: AccountGuard;
    };

/** A string literal of the contract language (`\` and `"` escaped). */
export function pactString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The code reading `accounts`: a list with one details object (or `{account}`) each. */
export function accountDetailsCode(accounts: readonly string[]): string {
  return `(map (lambda (a) (try {"account": a} (coin.details a))) [${accounts.map(pactString).join(" ")}])`;
}

/** Gas for reading `n` accounts: about 20 each measured; kept under 2,500 for ten. */
export function accountDetailsGasLimit(n: number): number {
  return Math.min(150_000, 600 + 150 * n);
}

/** The unsigned read command for one chain (no signers: nothing to sign, nothing paid). */
export function accountDetailsPayload(
  networkId: string,
  chainId: number,
  accounts: readonly string[],
  nowSeconds: number,
): CommandPayload {
  return {
    payload: { exec: { code: accountDetailsCode(accounts), data: null } },
    meta: {
      chainId: String(chainId),
      sender: "",
      gasLimit: accountDetailsGasLimit(accounts.length),
      gasPrice: "0.00000001",
      ttl: 600,
      creationTime: nowSeconds - 30,
      // ↑ a little in the past, so a node whose clock runs behind still takes it.
    },
    signers: [],
    networkId,
    nonce: `balances:${chainId}:${nowSeconds}`,
  };
}

/** A decimal in a contract result: a JSON number or `{"decimal": "…"}`. */
export function decimalUnits(x: JsonValue | undefined, path: string): bigint {
  let text: string | null = null;
  if (x instanceof JsonNumber) text = x.text;
  else if (typeof x === "number") text = String(x);
  else if (isJsonObject(x) && typeof x.decimal === "string") text = x.decimal;
  else if (isJsonObject(x) && typeof x.int === "string") text = x.int;
  else if (isJsonObject(x) && x.int instanceof JsonNumber) text = x.int.text;
  if (text === null) return reject(path, "a decimal");
  const r = unitsOfDecimalText(text, COIN_DECIMALS);
  return r.ok ? r.value : reject(path, `a decimal of at most ${COIN_DECIMALS} places`);
}

/** A guard as the node writes it: a keyset `{keys, pred}` or another guard's JSON. */
export function readGuard(x: JsonValue | undefined, path: string): AccountGuard {
  if (!isJsonObject(x)) return reject(path, "a guard");
  const { keys, pred } = x;
  if (Array.isArray(keys) && typeof pred === "string") {
    return {
      kind: "keyset",
      keys: keys.map((k, i) => (typeof k === "string" ? k : reject(`${path}.keys[${i}]`, "a key"))),
      pred,
    };
  }
  return {
    kind: "other",
    json: JSON.stringify(x, (_k, v) => (v instanceof JsonNumber ? Number(v.text) : v)),
  };
}

/** The result data of {@link accountDetailsCode}, in the order of `accounts`. */
export function parseAccountDetails(
  data: JsonValue,
  accounts: readonly string[],
): Decoded<readonly AccountOnChain[]> {
  return decode(data, () => {
    if (!Array.isArray(data) || data.length !== accounts.length) {
      return reject("data", `a list of ${accounts.length} account details`);
    }
    return data.map((item: JsonValue, i): AccountOnChain => {
      const path = `data[${i}]`;
      const account = accounts[i] ?? "";
      if (!isJsonObject(item) || item.account !== account) {
        return reject(`${path}.account`, JSON.stringify(account));
      }
      if (item.balance === undefined) return { account, exists: false };
      return {
        account,
        exists: true,
        balance: decimalUnits(item.balance, `${path}.balance`),
        guard: readGuard(item.guard, `${path}.guard`),
      };
    });
  });
}

/** Human text of a guard: "keys-all of 1 key" and the keys, or the guard's JSON. */
export function describeGuard(guard: AccountGuard): string {
  if (guard.kind === "other") return guard.json;
  return `${guard.pred} of ${guard.keys.length === 1 ? "1 key" : `${guard.keys.length} keys`}: ${guard.keys.join(", ")}`;
}
