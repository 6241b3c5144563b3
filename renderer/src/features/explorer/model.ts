/**
 * The explorer's plain logic: reading its route parameters (chain ids, block hashes,
 * request keys, account and module names) and turning a lookup into an address.
 * @module
 */

import type { Decoded } from "../../api/decode.ts";
import { href } from "../../app/routes.ts";
import { accountNameProblem } from "../../format/accountName.ts";

const HASH = /^[A-Za-z0-9_-]{43}$/;

/** A chain id from an address: decimal without leading zeros, below `chainCount` when known. */
export function parseChainParam(text: string, chainCount: number | null): Decoded<number> {
  if (!/^(0|[1-9][0-9]{0,2})$/.test(text)) {
    return { ok: false, reason: `“${text}” is not a chain number.` };
  }
  const id = Number(text);
  if (chainCount !== null && id >= chainCount) {
    return {
      ok: false,
      reason: `This network has chains 0 to ${chainCount - 1}; there is no chain ${id}.`,
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
  if (problem !== null) return { ok: false, reason: problem };
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
