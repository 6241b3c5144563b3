/**
 * Binding forms `{ "col" := var … } body…` (`bind`, `with-read`,
 * `with-default-read`, `resume`): each key is looked up in the object, the
 * variables are type-checked when annotated, and the body runs with them.
 * @module
 */
import type { Env, Term, Value } from "../eval/term.ts";
import type { PactValue } from "../values/value.ts";
import type { Call } from "./native.ts";

export function runBinding(
  c: Call,
  fields: ReadonlyMap<string, PactValue>,
  b: Extract<Term, { kind: "binding" }>,
  env: Env | null,
  missing: (key: string) => string,
): Value {
  const vals: Value[] = [];
  for (let i = 0; i < b.keys.length; i++) {
    const k = c.eval(b.keys[i] as Term, env);
    if (k.kind !== "string") throw c.evalError(`${c.def.name}: binding keys must be strings`);
    const v = fields.get(k.value);
    if (v === undefined) throw c.evalError(missing(k.value));
    const p = b.params[i];
    if (p !== undefined && p.type !== null) c.ip.checkType(v, p.type, p.span, p.name);
    vals.push(v);
  }
  return c.ip.evalBody(b.body, { vals, parent: env });
}
