/**
 * Native family: higher-order functions — `map`, `filter`, `fold`, `zip`,
 * `compose`, `constantly`, `identity`, `where`, `and?`, `or?`, `not?`. Their
 * function arguments may be partial applications (`(map (+ 1) xs)`), which the
 * evaluator builds for the positions listed in `fnArgs`. As in Pact 4.13,
 * `map`, `filter`, `fold` and `zip` pay their table cost alone: each element's
 * application pays for itself (a native its cost, a closure an evaluation step
 * of the work meter, a gas past the free steps).
 * @module
 */
import type { ContractError } from "../errors.ts";
import type { Callable, Value } from "../eval/term.ts";
import { typeOfValue } from "../values/typeOf.ts";
import type { PactValue } from "../values/value.ts";
import { type Call, type NativeDef, strict, VARIADIC } from "./native.ts";
import { fnOf, isOpaqueValue, shownOf } from "./valueGuards.ts";

function data(c: Call, v: Value): PactValue {
  if (isOpaqueValue(v)) throw c.evalError(`${c.def.name}: the function returned a function`);
  return v;
}

/** The reference's on-chain message for a non-list where a list is folded over. */
function notAList(c: Call, v: Value): ContractError {
  const t = isOpaqueValue(v) ? "<function>" : typeOfValue(v);
  if (c.offChain()) return c.evalError(`${c.def.name}: expecting list: ${shownOf(v)}`);
  return c.evalError(`${c.def.name}: expecting list, received argument of type: ${t}`);
}

function boolResult(c: Call, v: Value): boolean {
  if (v.kind !== "bool") throw c.evalError(`${c.def.name}: Non-boolean result from delegate`);
  return v.value;
}

const map = strict(
  "map",
  [2, 2],
  "app:(x:<b> -> <a>) list:[<b>] -> [<a>]",
  (c, args) => {
    const f = fnOf(args[0]);
    const l = args[1] as Value;
    if (f === null) throw c.argsError(args);
    if (l.kind !== "list") throw notAList(c, l);
    const out: PactValue[] = new Array(l.items.length);
    for (let i = 0; i < l.items.length; i++)
      out[i] = data(c, c.apply(f, [l.items[i] as PactValue]));
    return { kind: "list", items: out };
  },
  { fnArgs: [0] },
);

const filter = strict(
  "filter",
  [2, 2],
  "app:(x:<a> -> bool) list:[<a>] -> [<a>]",
  (c, args) => {
    const f = fnOf(args[0]);
    const l = args[1] as Value;
    if (f === null) throw c.argsError(args);
    if (l.kind !== "list") throw notAList(c, l);
    const keep = (x: PactValue): boolean => {
      const r = c.apply(f, [x]);
      if (r.kind !== "bool") throw c.evalError("filter: expected closure to return bool");
      return r.value;
    };
    return { kind: "list", items: l.items.filter(keep) };
  },
  { fnArgs: [0] },
);

const fold = strict(
  "fold",
  [3, 3],
  "app:(x:<a> y:<b> -> <a>) init:<a> list:[<b>] -> <a>",
  (c, args) => {
    const f = fnOf(args[0]);
    const l = args[2] as Value;
    if (f === null) throw c.argsError(args);
    if (l.kind !== "list") throw notAList(c, l);
    let acc = args[1] as Value;
    const native = c.ip.nativeTarget(f);
    if (native !== null) acc = c.ip.foldNative(native, acc, l.items, c.span);
    else for (const x of l.items) acc = c.apply(f, [acc, x]);
    return acc;
  },
  { fnArgs: [0] },
);

const zip = strict(
  "zip",
  [3, 3],
  "f:(x:<a> y:<b> -> <c>) list1:[<a>] list2:[<b>] -> [<c>]",
  (c, args) => {
    const f = fnOf(args[0]);
    const a = args[1] as Value;
    const b = args[2] as Value;
    if (f === null || a.kind !== "list" || b.kind !== "list") throw c.argsError(args);
    const n = Math.min(a.items.length, b.items.length);
    const out: PactValue[] = [];
    for (let i = 0; i < n; i++)
      out.push(data(c, c.apply(f, [a.items[i] as PactValue, b.items[i] as PactValue])));
    return { kind: "list", items: out };
  },
  { fnArgs: [0] },
);

const compose = strict(
  "compose",
  [3, 3],
  "x:(x:<a> -> <b>) y:(x:<b> -> <c>) value:<a> -> <c>",
  (c, args) => {
    const f = fnOf(args[0]);
    const g = fnOf(args[1]);
    if (f === null || g === null) throw c.argsError(args);
    return c.apply(g, [c.apply(f, [args[2] as Value])]);
  },
  { fnArgs: [0, 1] },
);

const constantly = strict(
  "constantly",
  [1, VARIADIC],
  "value:<a> ignore1:<b> … -> <a>",
  (_c, args) => args[0] as Value,
);

const identity = strict("identity", [1, 1], "value:<a> -> <a>", (_c, args) => args[0] as Value);

const where = strict(
  "where",
  [3, 3],
  "field:string app:(x:<a> -> bool) value:object:<{row}> -> bool",
  (c, args) => {
    const k = args[0] as Value;
    const f = fnOf(args[1]);
    const o = args[2] as Value;
    if (k.kind !== "string" || f === null || o.kind !== "object") throw c.argsError(args);
    const v = o.fields.get(k.value);
    if (v === undefined) throw c.evalError(`key not found in object: ${k.value}`);
    return { kind: "bool", value: boolResult(c, c.apply(f, [v])) };
  },
  { fnArgs: [1] },
);

function liftLogic(name: string, shortOn: boolean): NativeDef {
  return strict(
    name,
    [3, 3],
    "a:(x:<r> -> bool) b:(x:<r> -> bool) value:<r> -> bool",
    (c, args) => {
      const f = fnOf(args[0]);
      const g = fnOf(args[1]);
      if (f === null || g === null) throw c.argsError(args);
      const v = args[2] as Value;
      const a = boolResult(c, c.apply(f, [v]));
      if (a === shortOn) return { kind: "bool", value: a };
      return { kind: "bool", value: boolResult(c, c.apply(g as Callable, [v])) };
    },
    { fnArgs: [0, 1] },
  );
}

const notQ = strict(
  "not?",
  [2, 2],
  "app:(x:<r> -> bool) value:<r> -> bool",
  (c, args) => {
    const f = fnOf(args[0]);
    if (f === null) throw c.argsError(args);
    return { kind: "bool", value: !boolResult(c, c.apply(f, [args[1] as Value])) };
  },
  { fnArgs: [0] },
);

export const functionalNatives: readonly NativeDef[] = [
  map,
  filter,
  fold,
  zip,
  compose,
  constantly,
  identity,
  where,
  liftLogic("and?", false),
  liftLogic("or?", true),
  notQ,
];
