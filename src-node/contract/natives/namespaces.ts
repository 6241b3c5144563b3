/**
 * Native family: namespaces (reference §9.1) — `define-namespace`,
 * `namespace`, `describe-namespace`. A new namespace must pass the
 * namespace policy of the runtime context; redefining one enforces its old
 * admin guard.
 * @module
 */

import { GAS_READ_UNIT } from "../eval/gasTable.ts";
import { enforceGuardValue, resolveFunction } from "../eval/guards.ts";
import { userFn } from "../eval/interpreter.ts";
import type { Value } from "../eval/term.ts";
import { SysTable } from "../storage/contractStorage.ts";
import { makeObject, pString } from "../values/value.ts";
import { type Call, type NativeDef, strict } from "./native.ts";

const IDENT = /^[A-Za-z%#+\-_&$@<>=^?*!|/~][A-Za-z0-9%#+\-_&$@<>=^?*!|/~]*$/;

/** A namespace's record; finding one charges a read (a miss is free, as in the reference). */
function readNamespace(c: Call, name: string) {
  const rec = c.ctx.storage.readSys(SysTable.Namespaces, name);
  if (rec !== null) c.ip.chargeGas(GAS_READ_UNIT, c.span);
  return rec;
}

const defineNamespace = strict(
  "define-namespace",
  [3, 3],
  "namespace:string user-guard:guard admin-guard:guard -> string",
  (c, args) => {
    const [n, user, admin] = args as [Value, Value, Value];
    if (n.kind !== "string" || user.kind !== "guard" || admin.kind !== "guard")
      throw c.argsError(args);
    const name = n.value;
    if (!IDENT.test(name)) throw c.evalError(`invalid namespace name format: ${name}`);
    const old = readNamespace(c, name);
    if (old !== null) {
      enforceGuardValue(c.ip, old.admin, c.span);
    } else {
      const policy = c.ctx.namespacePolicy;
      if (policy.kind === "smart") {
        const f = resolveFunction(c.ip, policy.validator, c.span);
        if (f === null)
          throw c.evalError(`namespace policy function not found: ${policy.validator}`);
        const ok = c.ip.apply(userFn(f), [pString(name), admin], c.span);
        if (ok.kind !== "bool" || !ok.value)
          throw c.evalError(`Namespace definition not permitted: ${name}`);
      }
    }
    c.ip.writeSys(SysTable.Namespaces, name, { name, user, admin }, c.span);
    return pString(`Namespace defined: ${name}`);
  },
  { topLevelOnly: true },
);

const namespace = strict(
  "namespace",
  [1, 1],
  "namespace:string -> string",
  (c, args) => {
    const n = args[0] as Value;
    if (n.kind !== "string") throw c.argsError(args);
    const flags = c.ctx.execFlags;
    // Resetting to the root arrived with Pact 4.7.
    if (n.value === "" && !flags.has("DisablePact47")) {
      c.ip.tx.namespace = null;
      return pString("Namespace reset to root");
    }
    const rec = readNamespace(c, n.value);
    if (rec === null) throw c.evalError(`namespace: '${n.value}' not defined`);
    // Before Pact 4.4 entering a namespace enforced its user guard.
    if (flags.has("DisablePact44")) enforceGuardValue(c.ip, rec.user, c.span);
    c.ip.tx.namespace = n.value;
    return pString(`Namespace set to ${n.value}`);
  },
  { topLevelOnly: true },
);

const describeNamespace = strict(
  "describe-namespace",
  [1, 1],
  "ns:string -> object:{described-namespace}",
  (c, args) => {
    const n = args[0] as Value;
    if (n.kind !== "string") throw c.argsError(args);
    const rec = readNamespace(c, n.value);
    if (rec === null) throw c.evalError(`Namespace not found: ${n.value}`);
    return makeObject([
      ["namespace-name", pString(rec.name)],
      ["user-guard", rec.user],
      ["admin-guard", rec.admin],
    ]);
  },
);

export const namespaceNatives: readonly NativeDef[] = [
  defineNamespace,
  namespace,
  describeNamespace,
];
