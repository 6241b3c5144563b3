/**
 * Native family: keysets in the database (reference §5.1) — `define-keyset`
 * (rotation enforces the old keyset; new keysets are namespaced since Pact
 * 4.4), `enforce-keyset`, `keyset-ref-guard`, `describe-keyset`.
 * `read-keyset` and the predicates `keys-all`/`keys-any`/`keys-2` are in
 * environment.ts.
 * @module
 */
import { enforceGuardValue, enforceKeyset, enforceKeysetName, readKeyset } from "../eval/guards.ts";
import type { Value } from "../eval/term.ts";
import type { KeysetRecord } from "../storage/contractStorage.ts";
import { SysTable } from "../storage/contractStorage.ts";
import { type Guard, type PactValue, pString, TRUE } from "../values/value.ts";
import { KEY_FORMAT, keysetFromValue } from "./environment.ts";
import { type Call, type NativeDef, strict } from "./native.ts";

/** The keyset guard value for a keyset name: `ns.name` → namespace and name. */
export function keysetRefGuard(name: string): Guard {
  const dot = name.lastIndexOf(".");
  return dot > 0
    ? { kind: "keysetRef", namespace: name.slice(0, dot), name: name.slice(dot + 1) }
    : { kind: "keysetRef", namespace: null, name };
}

function keysetArg(c: Call, v: PactValue): KeysetRecord {
  const g = keysetFromValue(v);
  if (g === null || g.kind !== "guard" || g.guard.kind !== "keyset")
    throw c.evalError(`${c.def.name}: expected a keyset`);
  const ks = g.guard;
  if (c.ctx.execFlags.has("EnforceKeyFormats") && !ks.keys.every((k) => KEY_FORMAT.test(k)))
    throw c.evalError("Invalid keyset");
  return { keys: ks.keys, pred: ks.pred };
}

/** Since Pact 4.4 a keyset name is not empty (the reference's keyset name parser). */
function checkKeysetName(c: Call, name: string): void {
  if (name === "" && !c.ctx.execFlags.has("DisablePact44"))
    throw c.evalError("incorrect keyset name format: the name is empty");
}

const defineKeyset = strict(
  "define-keyset",
  [1, 2],
  "name:string keyset:keyset -> string, name:string -> string",
  (c, args) => {
    const n = args[0] as Value;
    if (n.kind !== "string") throw c.argsError(args);
    const name = n.value;
    checkKeysetName(c, name);
    let ksv: PactValue;
    if (args.length === 2) {
      const v = args[1] as Value;
      if (v.kind !== "guard" && v.kind !== "list" && v.kind !== "object") throw c.argsError(args);
      ksv = v;
    } else {
      const data = c.ctx.data;
      const v = data.kind === "object" ? data.fields.get(name) : undefined;
      // Recoverable by `try` since Pact 4.7.
      if (v === undefined)
        throw c.fail(
          c.ctx.execFlags.has("DisablePact47") ? "EvalError" : "TxFailure",
          `No such key in message: ${name}`,
        );
      ksv = v;
    }
    const ks = keysetArg(c, ksv);
    const old = readKeyset(c.ip, name, c.span);
    if (old !== null) {
      enforceKeyset(c.ip, old, `'${name}`, c.span);
    } else if (!c.ctx.execFlags.has("DisablePact44")) {
      const ns = c.ip.tx.namespace;
      if (ns === null) throw c.evalError("Cannot define a keyset outside of a namespace");
      if (!name.startsWith(`${ns}.`) || name.length === ns.length + 1)
        throw c.evalError(`Mismatching keyset namespace: ${name} is not in namespace ${ns}`);
      const rec = c.ctx.storage.readSys(SysTable.Namespaces, ns);
      if (rec === null) throw c.evalError(`Namespace not found: ${ns}`);
      enforceGuardValue(c.ip, rec.user, c.span);
    }
    c.ip.writeSys(SysTable.KeySets, name, ks, c.span);
    return pString("Keyset defined");
  },
  { topLevelOnly: true },
);

const enforceKeysetNative = strict(
  "enforce-keyset",
  [1, 1],
  "guard:guard -> bool, keysetname:string -> bool",
  (c, args) => {
    const v = args[0] as Value;
    if (v.kind === "string") {
      checkKeysetName(c, v.value);
      enforceKeysetName(c.ip, v.value, c.span);
    } else if (v.kind === "guard") enforceGuardValue(c.ip, v, c.span);
    else throw c.argsError(args);
    return TRUE;
  },
);

const keysetRefGuardNative = strict(
  "keyset-ref-guard",
  [1, 1],
  "keyset-ref:string -> guard",
  (c, args) => {
    const v = args[0] as Value;
    if (v.kind !== "string") throw c.argsError(args);
    checkKeysetName(c, v.value);
    if (readKeyset(c.ip, v.value, c.span) === null)
      throw c.evalError(`Keyset reference cannot be found: ${v.value}`);
    return { kind: "guard", guard: keysetRefGuard(v.value) };
  },
);

const describeKeyset = strict(
  "describe-keyset",
  [1, 1],
  "keyset:string -> object:*",
  (c, args) => {
    const v = args[0] as Value;
    if (v.kind !== "string") throw c.argsError(args);
    const ks = readKeyset(c.ip, v.value, c.span);
    if (ks === null) throw c.evalError(`Keyset not found: ${v.value}`);
    return { kind: "guard", guard: { kind: "keyset", keys: ks.keys, pred: ks.pred } };
  },
  { topLevelOnly: true },
);

export const keysetNatives: readonly NativeDef[] = [
  defineKeyset,
  enforceKeysetNative,
  keysetRefGuardNative,
  describeKeyset,
];
