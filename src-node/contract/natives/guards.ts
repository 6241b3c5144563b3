/**
 * Native family: guards (reference §2.8) — `enforce-guard`, and the
 * constructors `create-user-guard`, `create-module-guard`,
 * `create-pact-guard`, `create-capability-guard`,
 * `create-capability-pact-guard`.
 * @module
 */
import { enforceGuard, enforceKeysetName } from "../eval/guards.ts";
import type { Term, Value } from "../eval/term.ts";
import { TRUE } from "../values/value.ts";
import { capabilityOf, functionApplicationOf } from "./capabilityTerms.ts";
import { type Call, lazy, type NativeDef, strict } from "./native.ts";

const enforceGuardNative = strict(
  "enforce-guard",
  [1, 1],
  "guard:guard -> bool, keysetname:string -> bool",
  (c, args) => {
    const v = args[0] as Value;
    if (v.kind === "guard") enforceGuard(c.ip, v.guard, c.span);
    else if (v.kind === "string") enforceKeysetName(c.ip, v.value, c.span);
    else throw c.argsError(args);
    return TRUE;
  },
);

const createUserGuard = lazy(
  "create-user-guard",
  [1, 1],
  "closure:(-> bool) -> guard",
  (c, args, env) => {
    const { def, args: fargs } = functionApplicationOf(c, args[0] as Term, env);
    if (def.kind !== "defun") throw c.evalError("create-user-guard: the function must be a defun");
    c.ip.checkArgs(def, fargs, c.span);
    return { kind: "guard", guard: { kind: "user", fun: def.fqName, args: fargs } };
  },
);

function currentPactId(c: Call): string {
  const s = c.ip.pactStep;
  if (s === null) throw c.evalError(`${c.def.name}: not in a defpact execution`);
  return s.pactId;
}

const createModuleGuard = strict(
  "create-module-guard",
  [1, 1],
  "name:string -> guard",
  (c, args) => {
    const n = args[0] as Value;
    if (n.kind !== "string") throw c.argsError(args);
    const m = c.ip.moduleFrame();
    if (m === null) throw c.evalError("create-module-guard: must be called from module code");
    return { kind: "guard", guard: { kind: "module", module: m.name, name: n.value } };
  },
);

const createPactGuard = strict("create-pact-guard", [1, 1], "name:string -> guard", (c, args) => {
  const n = args[0] as Value;
  if (n.kind !== "string") throw c.argsError(args);
  return { kind: "guard", guard: { kind: "pact", pactId: currentPactId(c), name: n.value } };
});

function capGuard(name: string, withPact: boolean): NativeDef {
  return lazy(name, [1, 1], "cap:(CAP arg…) -> guard", (c, args, env) => {
    const r = capabilityOf(c, args[0] as Term, env);
    return {
      kind: "guard",
      guard: {
        kind: "capability",
        name: r.cap.name,
        args: r.cap.args,
        pactId: withPact ? currentPactId(c) : null,
      },
    };
  });
}

export const guardNatives: readonly NativeDef[] = [
  enforceGuardNative,
  createUserGuard,
  createModuleGuard,
  createPactGuard,
  capGuard("create-capability-guard", false),
  capGuard("create-capability-pact-guard", true),
];
