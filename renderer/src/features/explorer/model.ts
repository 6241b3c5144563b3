/**
 * The explorer's plain logic: reading its route parameters (chain ids, block hashes,
 * request keys, account and module names) and turning a lookup into an address.
 * @module
 */

import type { Decoded } from "../../api/decode.ts";
import { href } from "../../app/routes.ts";
import { accountNameProblem } from "../../format/accountName.ts";
import { COIN_DECIMALS, formatAmount, unitsOfDecimalText } from "../../format/amount.ts";
import { formatDateTime } from "../../format/dateTime.ts";
import type { SearchAnswer } from "./wire/index.ts";

const HASH = /^[A-Za-z0-9_-]{43}$/;

/** A chain id from an address: decimal without leading zeros, below `chainCount` when known. */
export function parseChainParam(text: string, chainCount: number | null): Decoded<number> {
  if (!/^(0|[1-9][0-9]{0,2})$/.test(text)) {
    return { ok: false, error: `“${text}” is not a chain number.` };
  }
  const id = Number(text);
  if (chainCount !== null && id >= chainCount) {
    return {
      ok: false,
      error: `This network has chains 0 to ${chainCount - 1}; there is no chain ${id}.`,
    };
  }
  return { ok: true, value: id };
}

/** Why `hash` is not a block hash (43 characters of base64url), or null. */
export function blockHashProblem(hash: string): string | null {
  return HASH.test(hash) ? null : "A block hash has 43 characters: letters, digits, - and _.";
}

/** Why `key` is not a request key (43 characters of base64url), or null. */
export function requestKeyProblem(key: string): string | null {
  return HASH.test(key) ? null : "A request key has 43 characters: letters, digits, - and _.";
}

const IDENT = /^[a-zA-Z%#+\-_&$@<>=^?*!|/~][a-zA-Z0-9%#+\-_&$@<>=^?*!|/~]*$/;

/** Why `name` is not a module name (`coin`, `free.my-module`), or null. */
export function moduleNameProblem(name: string): string | null {
  if (name.trim() === "") return "Enter a module name.";
  const parts = name.split(".");
  if (parts.length > 2 || !parts.every((p) => IDENT.test(p))) {
    return "A module name is a name, optionally after its namespace: coin, free.my-module.";
  }
  return null;
}

export const lookupKinds = [
  { id: "account", title: "Account", label: "Account name", hint: "For example k:… or alice." },
  { id: "tx", title: "Transaction", label: "Request key", hint: "43 characters." },
  { id: "module", title: "Module", label: "Module name", hint: "For example coin." },
] as const;

export type LookupKind = (typeof lookupKinds)[number]["id"];

/** The address a lookup leads to, or why it cannot. */
export function lookupHref(kind: LookupKind, text: string): Decoded<string> {
  const value = text.trim();
  const problem =
    kind === "account"
      ? accountNameProblem(value)
      : kind === "tx"
        ? requestKeyProblem(value)
        : moduleNameProblem(value);
  if (problem !== null) return { ok: false, error: problem };
  switch (kind) {
    case "account":
      return { ok: true, value: href("explorerAccount", { name: value }) };
    case "tx":
      return { ok: true, value: href("explorerTx", { requestKey: value }) };
    case "module":
      return { ok: true, value: href("explorerModule", { name: value }) };
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/** A page of the explorer a search result leads to, as the router's typed options. */
export type ExplorerTarget =
  | { readonly to: "/explorer/tx/$requestKey"; readonly params: { readonly requestKey: string } }
  | {
      readonly to: "/explorer/chain/$chain/block/$hash";
      readonly params: { readonly chain: string; readonly hash: string };
    }
  | { readonly to: "/explorer/account/$name"; readonly params: { readonly name: string } }
  | { readonly to: "/explorer/module/$name"; readonly params: { readonly name: string } };

/**
 * The page to open at once for a search: only when the answer is one transaction or block,
 * or one account or module named exactly as searched; otherwise the results are listed.
 */
export function singleTarget(answer: SearchAnswer): ExplorerTarget | null {
  const [r, ...rest] = answer.results;
  if (r === undefined || rest.length > 0) return null;
  switch (r.kind) {
    case "transaction":
      return { to: "/explorer/tx/$requestKey", params: { requestKey: r.requestKey } };
    case "block":
      return {
        to: "/explorer/chain/$chain/block/$hash",
        params: { chain: String(r.block.chain), hash: r.block.hash },
      };
    case "account":
      return r.account === answer.query
        ? { to: "/explorer/account/$name", params: { name: r.account } }
        : null;
    case "module":
      return r.name === answer.query
        ? { to: "/explorer/module/$name", params: { name: r.name } }
        : null;
    default:
      return null;
  }
}

/** Microseconds since the UNIX epoch → "2026-11-26 10:00:00 UTC" (the same on every machine). */
export function formatBlockTime(micros: number): string {
  return formatDateTime(Math.floor(micros / 1000));
}

/** UNIX seconds → the same form. */
export function formatSeconds(seconds: number): string {
  return formatBlockTime(seconds * 1_000_000);
}

/** An event as one line: `coin.TRANSFER("sender00", "k:…", 1.5)`. */
export function eventText(e: {
  readonly module: string;
  readonly name: string;
  readonly params: readonly string[];
}): string {
  return `${e.module}.${e.name}(${e.params.join(", ")})`;
}

/** The miner's reward from the coinbase's events: the amount of its `coin.TRANSFER`, or null. */
export function rewardOf(
  events: readonly {
    readonly module: string;
    readonly name: string;
    readonly params: readonly string[];
  }[],
): string | null {
  const t = events.find((e) => e.module === "coin" && e.name === "TRANSFER");
  return t?.params[2] ?? null;
}

/** Whether a cross-chain transfer waits for its last step (so the wallet can finish it). */
export function transferNeedsFinish(cc: {
  readonly targetChain: number | null;
  readonly complete: boolean;
  readonly steps: readonly { readonly step: number; readonly status: string }[];
}): boolean {
  if (cc.complete || cc.targetChain === null) return false;
  const last = cc.steps.reduce<{ step: number; status: string } | null>(
    (m, s) => (m === null || s.step > m.step ? s : m),
    null,
  );
  const first = cc.steps.find((s) => s.step === 0);
  return first?.status === "confirmed" && last !== null && last.status === "missing";
}

/**
 * A coin amount as the explorer shows every one (balances, totals, transfers, rewards): the
 * wallet's form, grouped in thousands, without trailing zeros ("1000000.0" → "1,000,000",
 * "5.35e-6" → "0.00000535"), exactly; text that is no decimal stays as it is.
 */
export function coinText(decimal: string): string {
  const units = unitsOfDecimalText(decimal, COIN_DECIMALS);
  return units.ok ? formatAmount(units.value, COIN_DECIMALS) : decimal;
}

/** The sum of decimal balances, exactly (coin amounts have 12 digits after the point), shown as {@link coinText}. */
export function totalBalance(balances: readonly string[]): string {
  let units = 0n;
  for (const b of balances) {
    const parsed = unitsOfDecimalText(b, COIN_DECIMALS);
    if (parsed.ok) units += parsed.value;
  }
  return formatAmount(units, COIN_DECIMALS);
}
