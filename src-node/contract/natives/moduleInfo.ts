/**
 * Native family: module information — `describe-module`, `list-modules`.
 * Both are refused on chain (transactional mode), as chainweb does.
 * @module
 */
import { readModuleRecord } from "../eval/modules.ts";
import type { Value } from "../eval/term.ts";
import { SysTable } from "../storage/contractStorage.ts";
import { qualifiedModuleName } from "../storage/moduleRecord.ts";
import { makeObject, pList, pString } from "../values/value.ts";
import { type Call, type NativeDef, strict } from "./native.ts";

function localOnly(c: Call): void {
  // Before Pact 4.11 they were allowed on chain.
  if (c.ctx.mode === "transactional" && !c.ctx.execFlags.has("DisablePact411"))
    throw c.evalError(`${c.def.name}: Operation only permitted in local execution mode`);
}

const describeModule = strict(
  "describe-module",
  [1, 1],
  "module:string -> object:*",
  (c, args) => {
    const n = args[0] as Value;
    if (n.kind !== "string") throw c.argsError(args);
    localOnly(c);
    const r = readModuleRecord(c.ip, n.value, c.span);
    if (r === null) throw c.evalError(`describe-module: module not found: ${n.value}`);
    const g = r.governance;
    return makeObject([
      ["name", pString(qualifiedModuleName(r.namespace, r.name))],
      ["hash", pString(r.hash)],
      ["keyset", pString(g === null ? "" : g.kind === "keyset" ? `'${g.name}` : g.name)],
      ["blessed", pList(r.blessed.map(pString))],
      ["code", pString(r.code)],
      ["interfaces", pList(r.interfaces.map(pString))],
      ["interface", { kind: "bool", value: r.kind === "interface" }],
    ]);
  },
  { topLevelOnly: true },
);

const listModules = strict(
  "list-modules",
  [0, 0],
  "-> [string]",
  (c) => {
    localOnly(c);
    return pList(c.ctx.storage.sysKeys(SysTable.Modules).map(pString));
  },
  { topLevelOnly: true },
);

export const moduleInfoNatives: readonly NativeDef[] = [describeModule, listModules];
