/**
 * Native family: the transaction's environment — `read-msg`, `read-integer`,
 * `read-decimal`, `read-string`, `read-keyset`, `chain-data`, `tx-hash`, and
 * the keyset predicates `keys-all`, `keys-any`, `keys-2`. Everything comes from
 * the runtime context.
 * @module
 */
import type { Value } from "../eval/term.ts";
import {
  decimalFromInteger,
  decimalIsIntegral,
  parseDecimalText,
  pow10,
} from "../values/decimal.ts";
import { decimalFromJsonNumberText, keysetGuard } from "../values/json.ts";
import {
  makeObject,
  type PactValue,
  pBool,
  pDecimal,
  pInteger,
  pString,
  pTime,
} from "../values/value.ts";
import { type Call, type NativeDef, strict } from "./native.ts";

/** Keys as the reference's `EnforceKeyFormats` accepts them: ed25519 hex or WebAuthn. */
export const KEY_FORMAT = /^([0-9a-f]{64}|WEBAUTHN-[0-9a-f]+)$/;

function lookup(c: Call, args: Value[]): PactValue {
  const k = args[0] as Value;
  if (k.kind !== "string") throw c.argsError(args);
  const data = c.ctx.data;
  const v = data.kind === "object" ? data.fields.get(k.value) : undefined;
  if (v === undefined)
    throw c.fail(
      c.ctx.execFlags.has("DisablePact47") ? "EvalError" : "TxFailure",
      `No such key in message: ${k.value}`,
    );
  return v;
}

const readMsg = strict("read-msg", [0, 1], "-> <a>, key:string -> <a>", (c, args) => {
  if (args.length === 0) return c.ctx.data;
  return lookup(c, args);
});

const readInteger = strict("read-integer", [1, 1], "key:string -> integer", (c, args) => {
  const v = lookup(c, args);
  if (v.kind === "integer") return v;
  if (v.kind === "decimal" && decimalIsIntegral(v.value))
    return pInteger(v.value.mantissa / pow10(v.value.scale));
  if (v.kind === "string" && /^-?\d+$/.test(v.value.trim()))
    return pInteger(BigInt(v.value.trim()));
  throw c.evalError(
    `read-integer: could not read an integer from ${(args[0] as { value: string }).value}`,
  );
});

const readDecimal = strict("read-decimal", [1, 1], "key:string -> decimal", (c, args) => {
  const v = lookup(c, args);
  if (v.kind === "decimal") return v;
  if (v.kind === "integer") return pDecimal(decimalFromInteger(v.value));
  if (v.kind === "string") {
    const d = parseDecimalText(v.value.trim()) ?? decimalFromJsonNumberText(v.value.trim());
    if (d !== null) return pDecimal(d);
  }
  throw c.evalError(
    `read-decimal: could not read a decimal from ${(args[0] as { value: string }).value}`,
  );
});

const readString = strict("read-string", [1, 1], "key:string -> string", (c, args) => {
  const v = lookup(c, args);
  if (v.kind === "string") return v;
  throw c.evalError(
    `read-string: could not read a string from ${(args[0] as { value: string }).value}`,
  );
});

/** Keyset data as `read-keyset` accepts it: `[keys]`, `{keys}`, `{keys, pred}`. */
export function keysetFromValue(v: PactValue): PactValue | null {
  if (v.kind === "guard" && v.guard.kind === "keyset") return v;
  const strings = (l: PactValue | undefined): string[] | null => {
    if (l === undefined || l.kind !== "list") return null;
    const out: string[] = [];
    for (const x of l.items) {
      if (x.kind !== "string") return null;
      out.push(x.value);
    }
    return out;
  };
  if (v.kind === "list") {
    const ks = strings(v);
    return ks === null ? null : { kind: "guard", guard: keysetGuard(ks, "keys-all") };
  }
  if (v.kind === "object") {
    const ks = strings(v.fields.get("keys"));
    const pred = v.fields.get("pred");
    const extra = [...v.fields.keys()].some((k) => k !== "keys" && k !== "pred");
    if (ks === null || extra || (pred !== undefined && pred.kind !== "string")) return null;
    return {
      kind: "guard",
      guard: keysetGuard(ks, pred?.kind === "string" ? pred.value : "keys-all"),
    };
  }
  return null;
}

const readKeyset = strict("read-keyset", [1, 1], "key:string -> keyset", (c, args) => {
  const v = lookup(c, args);
  const ks = keysetFromValue(v);
  if (ks === null)
    throw c.evalError(
      `read-keyset: invalid keyset in message key ${(args[0] as { value: string }).value}`,
    );
  if (
    c.ctx.execFlags.has("EnforceKeyFormats") &&
    ks.kind === "guard" &&
    ks.guard.kind === "keyset" &&
    !ks.guard.keys.every((k) => KEY_FORMAT.test(k))
  )
    throw c.evalError("Invalid keyset");
  return ks;
});

const chainData = strict("chain-data", [0, 0], "-> object:{public-chain-data}", (c) => {
  const d = c.ctx.chainData;
  return makeObject([
    ["chain-id", pString(d.chainId)],
    ["block-height", pInteger(d.blockHeight)],
    ["block-time", pTime(d.blockTime)],
    ["prev-block-hash", pString(d.prevBlockHash)],
    ["sender", pString(d.sender)],
    ["gas-limit", pInteger(d.gasLimit)],
    ["gas-price", pDecimal(d.gasPrice)],
  ]);
});

const txHash = strict("tx-hash", [0, 0], "-> string", (c) => pString(c.ctx.txHash));

function predicate(name: string, test: (count: bigint, matched: bigint) => boolean): NativeDef {
  return strict(name, [2, 2], "count:integer matched:integer -> bool", (c, args) => {
    const n = args[0] as Value;
    const m = args[1] as Value;
    if (n.kind !== "integer" || m.kind !== "integer") throw c.argsError(args);
    return pBool(test(n.value, m.value));
  });
}

export const environmentNatives: readonly NativeDef[] = [
  readMsg,
  readInteger,
  readDecimal,
  readString,
  readKeyset,
  chainData,
  txHash,
  predicate("keys-all", (n, m) => n === m),
  predicate("keys-any", (_n, m) => m > 0n),
  predicate("keys-2", (_n, m) => m >= 2n),
];
