/**
 * Native family: principals (reference §5.2) — `create-principal`,
 * `validate-principal`, `is-principal`, `typeof-principal`. A principal is a
 * pure function of a guard's data, so every guard kind works here, even those
 * only obtainable from message data until modules arrive.
 * @module
 */
import { blake2b256 } from "../../crypto/blake2.ts";
import { base64UrlEncode } from "../../encoding/base64url.ts";
import type { Value } from "../eval/term.ts";
import { pactValueToJsonText } from "../values/json.ts";
import { type Guard, pBool, pString } from "../values/value.ts";
import { type NativeDef, strict } from "./native.ts";

const HEX64 = /^[0-9a-f]{64}$/;
const encoder = new TextEncoder();

function hashText(text: string): string {
  return base64UrlEncode(blake2b256(encoder.encode(text)));
}

function qualified(ns: string | null, name: string): string {
  return ns === null ? name : `${ns}.${name}`;
}

/** The principal string of a guard. */
export function principalOf(g: Guard): string {
  switch (g.kind) {
    case "keyset": {
      const only = g.keys[0];
      if (g.keys.length === 1 && only !== undefined && g.pred === "keys-all" && HEX64.test(only))
        return `k:${only}`;
      return `w:${hashText(g.keys.join(""))}:${g.pred}`;
    }
    case "keysetRef":
      return `r:${qualified(g.namespace, g.name)}`;
    case "module":
      return `m:${qualified(g.module.namespace, g.module.name)}:${g.name}`;
    case "user":
      return `u:${g.fun}:${hashText(g.args.map(pactValueToJsonText).join(""))}`;
    case "pact":
      return `p:${g.pactId}:${g.name}`;
    case "capability":
      return `c:${hashText(g.name + g.args.map(pactValueToJsonText).join("") + (g.pactId ?? ""))}`;
    default: {
      const never: never = g;
      return never;
    }
  }
}

const HASH = "[A-Za-z0-9_-]{43}";
const IDENT = "[A-Za-z%#+\\-_&$@<>=^?*!|/~][A-Za-z0-9%#+\\-_&$@<>=^?*!|/~]*";
const QUALIFIED = `${IDENT}(?:\\.${IDENT}){0,2}`;
const FORMATS: [string, RegExp][] = [
  ["k:", /^k:[0-9a-fA-F]{64}$/],
  ["w:", new RegExp(`^w:${HASH}:${QUALIFIED}$`)],
  ["r:", new RegExp(`^r:${QUALIFIED}$`)],
  ["m:", new RegExp(`^m:${IDENT}(?:\\.${IDENT})?:${IDENT}$`)],
  ["u:", new RegExp(`^u:${QUALIFIED}:${HASH}$`)],
  ["p:", new RegExp(`^p:${HASH}:.+$`)],
  ["c:", new RegExp(`^c:${HASH}$`)],
];

/** The principal kind prefix (`"k:"` …) of a well-formed principal, else `""`. */
export function principalKind(s: string): string {
  for (const [prefix, re] of FORMATS) if (re.test(s)) return prefix;
  return "";
}

/**
 * The reference's principal gas (`GPrincipal`, 5 a unit): 1 unit for a
 * principal named without hashing, 1 + 1 per 64 bytes hashed otherwise (a
 * multi-key or custom-predicate keyset's keys, a user or capability guard's
 * function, arguments' JSON and defpact id).
 */
export function principalGas(g: Guard): number {
  const hashed = (bytes: number) => 1 + Math.floor(bytes / 64);
  switch (g.kind) {
    case "keyset": {
      const only = g.keys[0];
      if (g.keys.length === 1 && only !== undefined && g.pred === "keys-all" && HEX64.test(only))
        return 5;
      return 5 * hashed(encoder.encode(g.keys.join("")).length);
    }
    case "user":
      return 5 * hashed(encoder.encode(g.args.map(pactValueToJsonText).join("")).length);
    case "capability":
      return (
        5 *
        hashed(
          encoder.encode(g.name + g.args.map(pactValueToJsonText).join("") + (g.pactId ?? ""))
            .length,
        )
      );
    default:
      return 5;
  }
}

const createPrincipal = strict("create-principal", [1, 1], "guard:guard -> string", (c, args) => {
  const g = args[0] as Value;
  if (g.kind !== "guard") throw c.argsError(args);
  c.ip.chargeGas(principalGas(g.guard), c.span);
  return pString(principalOf(g.guard));
});

const validatePrincipal = strict(
  "validate-principal",
  [2, 2],
  "guard:guard principal:string -> bool",
  (c, args) => {
    const g = args[0] as Value;
    const s = args[1] as Value;
    if (g.kind !== "guard" || s.kind !== "string") throw c.argsError(args);
    c.ip.chargeGas(principalGas(g.guard), c.span);
    return pBool(principalOf(g.guard) === s.value);
  },
);

const isPrincipal = strict("is-principal", [1, 1], "principal:string -> bool", (c, args) => {
  const s = args[0] as Value;
  if (s.kind !== "string") throw c.argsError(args);
  return pBool(principalKind(s.value) !== "");
});

const typeofPrincipal = strict(
  "typeof-principal",
  [1, 1],
  "principal:string -> string",
  (c, args) => {
    const s = args[0] as Value;
    if (s.kind !== "string") throw c.argsError(args);
    return pString(principalKind(s.value));
  },
);

export const principalNatives: readonly NativeDef[] = [
  createPrincipal,
  validatePrincipal,
  isPrincipal,
  typeofPrincipal,
];
