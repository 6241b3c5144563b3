/**
 * Native family: lists and objects — `at`, `length`, `take`, `drop`,
 * `contains`, `sort`, `distinct`, `reverse`, `make-list`, `list`, `enumerate`,
 * `remove`. Work proportional to a size is charged before it is done.
 * @module
 */

import { MAX_VALUE_LENGTH, makeListGas } from "../eval/gasTable.ts";
import type { Value } from "../eval/term.ts";
import { compareOrdered, valueEquals } from "../values/equality.ts";
import {
  codePointLength,
  codePoints,
  compareCodePoints,
  hasAstral,
  makeObject,
  type PactValue,
  pBool,
  pInteger,
} from "../values/value.ts";
import { type Call, type NativeDef, strict, VARIADIC } from "./native.ts";
import { isOpaqueValue } from "./valueGuards.ts";

function chargeLength(c: Call, n: bigint | number, largest: bigint | null = null): number {
  // Past the memory bound (MAX_VALUE_LENGTH) a GasError, before any work.
  const len = n > MAX_VALUE_LENGTH ? 0 : Number(n);
  const k = c.chargeNewElements(n, makeListGas(len, largest, c.ctx.execFlags));
  c.charge(Math.ceil(k / 8));
  return k;
}

const at = strict(
  "at",
  [2, 2],
  "idx:integer list:[<l>] -> <a>, idx:string object:object:<{o}> -> <a>",
  (c, args) => {
    const i = args[0] as Value;
    const x = args[1] as Value;
    if (i.kind === "integer" && x.kind === "list") {
      if (i.value < 0n || i.value >= BigInt(x.items.length)) {
        throw c.evalError(`at: bad index ${i.value}, length ${x.items.length}`);
      }
      return x.items[Number(i.value)] as PactValue;
    }
    if (i.kind === "string" && x.kind === "object") {
      const v = x.fields.get(i.value);
      if (v === undefined) throw c.evalError(`key not found in object: ${i.value}`);
      return v;
    }
    throw c.argsError(args);
  },
);

const length = strict(
  "length",
  [1, 1],
  "x:<a[[<l>],string,object:<{o}>]> -> integer",
  (c, args) => {
    const x = args[0] as Value;
    if (x.kind === "list") return pInteger(BigInt(x.items.length));
    if (x.kind === "string") {
      c.chargeText(x.value.length);
      return pInteger(BigInt(codePointLength(x.value)));
    }
    if (x.kind === "object") return pInteger(BigInt(x.fields.size));
    throw c.argsError(args);
  },
);

function slice<T>(items: readonly T[], n: bigint, take: boolean): T[] {
  const len = BigInt(items.length);
  const k = n < 0n ? (-n > len ? len : -n) : n > len ? len : n;
  const kk = Number(k);
  if (take) return n >= 0n ? items.slice(0, kk) : items.slice(items.length - kk);
  return n >= 0n ? items.slice(kk) : items.slice(0, items.length - kk);
}

function takeDrop(name: "take" | "drop"): NativeDef {
  const isTake = name === "take";
  return strict(
    name,
    [2, 2],
    `count:integer list:<a[[<l>],string]> -> <a[[<l>],string]>, keys:[string] object:object:<{o}> -> object:<{o}>`,
    (c, args) => {
      const n = args[0] as Value;
      const x = args[1] as Value;
      if (n.kind === "integer" && x.kind === "list") {
        c.chargeElements(x.items.length);
        return { kind: "list", items: slice(x.items, n.value, isTake) };
      }
      if (n.kind === "integer" && x.kind === "string") {
        c.chargeText(x.value.length);
        const cps = hasAstral(x.value) ? codePoints(x.value) : null;
        if (cps === null) {
          const chars = x.value.split("");
          return { kind: "string", value: slice(chars, n.value, isTake).join("") };
        }
        return { kind: "string", value: slice(cps, n.value, isTake).join("") };
      }
      if (n.kind === "list" && x.kind === "object") {
        c.chargeElements(n.items.length + x.fields.size);
        const keys = new Set<string>();
        for (const k of n.items) {
          if (k.kind !== "string") throw c.argsError(args);
          keys.add(k.value);
        }
        return makeObject([...x.fields].filter(([k]) => keys.has(k) === isTake));
      }
      throw c.argsError(args);
    },
  );
}

const contains = strict(
  "contains",
  [2, 2],
  "value:<a> list:[<a>] -> bool, key:<a> object:object:<{o}> -> bool, value:string string:string -> bool",
  (c, args) => {
    const v = args[0] as Value;
    const x = args[1] as Value;
    if (isOpaqueValue(v)) throw c.argsError(args);
    if (x.kind === "list") {
      // Each item is compared with the value: the list's deep size bounds the work.
      c.chargeElements(x.items.length);
      c.chargeValues(x);
      return pBool(x.items.some((i) => valueEquals(i, v)));
    }
    if (x.kind === "object" && v.kind === "string") return pBool(x.fields.has(v.value));
    if (x.kind === "string" && v.kind === "string") {
      c.chargeText(x.value.length + v.value.length);
      return pBool(x.value.includes(v.value));
    }
    throw c.argsError(args);
  },
);

/** Literal kinds in the order of the reference's `Literal` constructors. */
const LITERAL_RANK: Partial<Record<PactValue["kind"], number>> = {
  string: 0,
  integer: 1,
  decimal: 2,
  bool: 3,
  time: 4,
};

/**
 * The reference's sort order (its derived `Ord Literal`): literals of
 * different kinds by kind (string < integer < decimal < bool < time), of one
 * kind by value; anything that is not a literal compares equal, so it keeps
 * its place relative to its neighbours.
 */
function compareForSort(a: PactValue, b: PactValue): number {
  const ra = LITERAL_RANK[a.kind];
  const rb = LITERAL_RANK[b.kind];
  if (ra === undefined || rb === undefined) return 0;
  if (ra !== rb) return ra - rb;
  if (a.kind === "bool" && b.kind === "bool") return Number(a.value) - Number(b.value);
  return compareOrdered(a, b) ?? 0;
}

/** Sorting n items: about n·log2(n) comparisons, each bounded by the items' sizes. */
function chargeSort(c: Call, items: readonly PactValue[]): void {
  const n = items.length;
  if (n < 2) return;
  c.chargeSteps(n * Math.ceil(Math.log2(n)));
  c.chargeValues({ kind: "list", items });
}

function sortPrimitives(c: Call, items: readonly PactValue[]): PactValue[] {
  c.charge(Math.ceil(items.length / 8));
  chargeSort(c, items);
  return [...items].sort(compareForSort);
}

const sort = strict(
  "sort",
  [1, 2],
  "values:[<a>] -> [<a>], fields:[string] values:[object:<{o}>] -> [object:<{o}>]",
  (c, args) => {
    if (args.length === 1) {
      const l = args[0] as Value;
      if (l.kind !== "list") throw c.argsError(args);
      return { kind: "list", items: sortPrimitives(c, l.items) };
    }
    const fs = args[0] as Value;
    const l = args[1] as Value;
    if (fs.kind !== "list" || l.kind !== "list") throw c.argsError(args);
    if (fs.items.length === 0) throw c.evalError("Empty fields list");
    if (l.items.length === 0) return l;
    c.charge(Math.ceil(l.items.length / 8));
    chargeSort(c, l.items);
    c.chargeSteps(l.items.length * fs.items.length);
    const fieldSet = new Set<string>();
    for (const f of fs.items) {
      if (f.kind !== "string") throw c.evalError("String required");
      fieldSet.add(f.value);
    }
    // The reference folds right over the field *set* (sorted, duplicates
    // dropped), so the greatest field name decides first and the others
    // only break its ties. A missing field or a non-literal compares equal.
    const fields = [...fieldSet].sort(compareCodePoints).reverse();
    const items = [...l.items].sort((a, b) => {
      if (a.kind !== "object" || b.kind !== "object") return 0;
      for (const f of fields) {
        const x = a.fields.get(f);
        const y = b.fields.get(f);
        if (x === undefined || y === undefined) continue;
        const o = compareForSort(x, y);
        if (o !== 0) return o;
      }
      return 0;
    });
    return { kind: "list", items };
  },
);

const distinct = strict("distinct", [1, 1], "values:[<a>] -> [<a>]", (c, args) => {
  const l = args[0] as Value;
  if (l.kind !== "list") throw c.argsError(args);
  c.charge(Math.ceil((l.items.length * l.items.length) / 4096));
  // Quadratic: every item against those kept.
  c.chargeSteps((l.items.length * l.items.length) / 2);
  c.chargeValues(l);
  const out: PactValue[] = [];
  for (const x of l.items) if (!out.some((y) => valueEquals(x, y))) out.push(x);
  return { kind: "list", items: out };
});

const reverse = strict("reverse", [1, 1], "list:[<a>] -> [<a>]", (c, args) => {
  const l = args[0] as Value;
  if (l.kind !== "list") throw c.argsError(args);
  c.chargeElements(l.items.length);
  return { kind: "list", items: [...l.items].reverse() };
});

const makeList = strict("make-list", [2, 2], "length:integer value:<a> -> [<a>]", (c, args) => {
  const n = args[0] as Value;
  const v = args[1] as Value;
  if (n.kind !== "integer" || isOpaqueValue(v)) throw c.argsError(args);
  if (n.value <= 0n) return { kind: "list", items: [] };
  const k = chargeLength(c, n.value);
  return { kind: "list", items: new Array<PactValue>(k).fill(v) };
});

const list = strict("list", [0, VARIADIC], "elems:*  -> list", (c, args) => {
  const items: PactValue[] = [];
  for (const a of args) {
    if (isOpaqueValue(a)) throw c.argsError(args);
    items.push(a);
  }
  return { kind: "list", items };
});

const enumerate = strict(
  "enumerate",
  [2, 3],
  "from:integer to:integer inc:integer -> [integer], from:integer to:integer -> [integer]",
  (c, args) => {
    const from = args[0] as Value;
    const to = args[1] as Value;
    const incV = args[2];
    if (
      from.kind !== "integer" ||
      to.kind !== "integer" ||
      (incV !== undefined && incV.kind !== "integer")
    )
      throw c.argsError(args);
    const a = from.value;
    const b = to.value;
    const inc = incV !== undefined && incV.kind === "integer" ? incV.value : b >= a ? 1n : -1n;
    // The reference charges a list of one for these too (with `from`'s size when it is kept).
    if (a === b) {
      chargeLength(c, 1, a);
      return { kind: "list", items: [pInteger(a)] };
    }
    if (inc === 0n) {
      chargeLength(c, 1, 0n);
      return { kind: "list", items: [] };
    }
    if (b > a && inc < 0n)
      throw c.evalError("enumerate: increment diverges below from interval bounds.");
    if (b < a && inc > 0n)
      throw c.evalError("enumerate: increment diverges above from interval bounds.");
    const count = (b - a) / inc + 1n;
    // Each element pays the intCost of the larger bound in magnitude (the cost takes its magnitude).
    const abs = (x: bigint) => (x < 0n ? -x : x);
    const k = chargeLength(c, count, abs(a) > abs(b) ? a : b);
    const out: PactValue[] = new Array(k);
    let x = a;
    // The literal, not pInteger: under tsx an imported function is reached through a getter.
    for (let i = 0; i < k; i++, x += inc) out[i] = { kind: "integer", value: x };
    return { kind: "list", items: out };
  },
);

const remove = strict(
  "remove",
  [2, 2],
  "key:string object:object:<{o}> -> object:<{o}>",
  (c, args) => {
    const k = args[0] as Value;
    const o = args[1] as Value;
    if (k.kind !== "string" || o.kind !== "object") throw c.argsError(args);
    c.chargeElements(o.fields.size);
    const m = new Map(o.fields);
    m.delete(k.value);
    return { kind: "object", fields: m };
  },
);

export const listNatives: readonly NativeDef[] = [
  at,
  length,
  takeDrop("take"),
  takeDrop("drop"),
  contains,
  sort,
  distinct,
  reverse,
  makeList,
  list,
  enumerate,
  remove,
];
