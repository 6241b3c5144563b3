/**
 * Reading a capability application `(CAP arg…)` written as an argument of the
 * capability natives: the function must be a defcap; its arguments are
 * evaluated and checked against the defcap's parameters.
 * @module
 */
import type { CapRequest } from "../eval/capabilities.ts";
import type { Env, Term } from "../eval/term.ts";
import type { PactValue } from "../values/value.ts";
import type { Call } from "./native.ts";

export function capabilityOf(c: Call, t: Term, env: Env | null): CapRequest {
  if (t.kind !== "app")
    throw c.evalError(`${c.def.name}: expected a capability application (CAP arg…)`);
  const f = c.eval(t.fn, env);
  if (f.kind !== "userFn" || f.def.kind !== "defcap")
    throw c.evalError(
      `${c.def.name}: expected a capability (a defcap), found ${f.kind === "userFn" ? f.def.kind : f.kind}`,
    );
  const args: PactValue[] = t.args.map((a) =>
    c.ip.data(c.eval(a, env), a.span, "a capability argument"),
  );
  c.ip.checkArgs(f.def, args, c.span);
  return { def: f.def, cap: { name: f.def.fqName, args } };
}

/** `(f arg…)` naming a module function, for guards that call it later. */
export function functionApplicationOf(c: Call, t: Term, env: Env | null) {
  if (t.kind !== "app")
    throw c.evalError(`${c.def.name}: expected a function application (f arg…)`);
  const f = c.eval(t.fn, env);
  if (f.kind !== "userFn") throw c.evalError(`${c.def.name}: expected a module function`);
  const args: PactValue[] = t.args.map((a) => c.ip.data(c.eval(a, env), a.span, "an argument"));
  return { def: f.def, args };
}
