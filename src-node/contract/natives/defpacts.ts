/**
 * Native family: defpacts (reference §7) — `yield`, `resume`, `pact-id`,
 * `continue`.
 * @module
 */
import { continueNested, resumeYield, yieldData } from "../eval/defpacts.ts";
import { GAS_WRITE_BYTES_PER_UNIT } from "../eval/gasTable.ts";
import { memoryGas, objectMapSize } from "../eval/sizeOf.ts";
import type { Term, Value } from "../eval/term.ts";
import { pString } from "../values/value.ts";
import { runBinding } from "./bindings.ts";
import { lazy, type NativeDef, strict } from "./native.ts";

const yieldNative = strict(
  "yield",
  [1, 2],
  "object:object:<{y}> -> object:<{y}>, object:object:<{y}> target-chain:string -> object:<{y}>",
  (c, args) => {
    const o = args[0] as Value;
    const target = args[1];
    if (o.kind !== "object" || (target !== undefined && target.kind !== "string"))
      throw c.argsError(args);
    // The yield is stored with the defpact's state: bounded before its text is built.
    c.ip.boundValueSize(o, GAS_WRITE_BYTES_PER_UNIT, c.span);
    // The reference charges the yielded object's write by its size (`WriteYield`).
    c.ip.chargeGas(memoryGas(objectMapSize(c.ip.sizeOfVersion(), o.fields)), c.span);
    yieldData(c.ip, o, target === undefined ? null : (target as { value: string }).value, c.span);
    return o;
  },
);

const resume = lazy("resume", [1, 1], "binding:binding:<{r}> -> <a>", (c, args, env) => {
  const b = args[0] as Term;
  if (b.kind !== "binding")
    throw c.evalError('resume: expected a binding { "key" := var } and a body');
  const y = resumeYield(c.ip, c.span);
  if (y.kind !== "object") throw c.evalError("resume: the yielded value is not an object");
  return runBinding(c, y.fields, b, env, (k) => `resume: key not found in yielded object: ${k}`);
});

const pactId = strict("pact-id", [0, 0], "-> string", (c) => {
  const s = c.ip.pactStep;
  if (s === null) throw c.evalError("pact-id: not in pact execution");
  return pString(s.pactId);
});

const continueNative = lazy("continue", [1, 1], "value:<a> -> <a>", (c, args, env) => {
  const t = args[0] as Term;
  if (t.kind !== "app") throw c.evalError("continue: expected a defpact application (pact arg…)");
  const f = c.eval(t.fn, env);
  if (f.kind !== "userFn" || f.def.kind !== "defpact")
    throw c.evalError("continue: expected a defpact");
  const fargs = t.args.map((a) => c.eval(a, env));
  return continueNested(c.ip, f.def, fargs, c.span);
});

export const defpactNatives: readonly NativeDef[] = [yieldNative, resume, pactId, continueNative];
