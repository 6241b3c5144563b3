/**
 * Contract values (the reference's `PactValue`, §2): integer (bigint), decimal,
 * string, bool, time (microseconds since the Unix epoch, UTC), list, object
 * (keys kept in code-point order), guards and module references as data.
 * Guards' and module references' behaviour arrives with modules (part 2).
 * @module
 */
import type { Decimal } from "./decimal.ts";

export type QualifiedName = { readonly namespace: string | null; readonly name: string };

export type Guard =
  | { readonly kind: "keyset"; readonly keys: readonly string[]; readonly pred: string }
  | { readonly kind: "keysetRef"; readonly namespace: string | null; readonly name: string }
  | { readonly kind: "user"; readonly fun: string; readonly args: readonly PactValue[] }
  | { readonly kind: "module"; readonly module: QualifiedName; readonly name: string }
  | { readonly kind: "pact"; readonly pactId: string; readonly name: string }
  | {
      readonly kind: "capability";
      readonly name: string;
      readonly args: readonly PactValue[];
      readonly pactId: string | null;
    };

export type PactValue =
  | { readonly kind: "integer"; readonly value: bigint }
  | { readonly kind: "decimal"; readonly value: Decimal }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "time"; readonly micros: bigint }
  | { readonly kind: "list"; readonly items: readonly PactValue[] }
  /** `fields` iterates in code-point order of the keys (build with {@link makeObject}). */
  | { readonly kind: "object"; readonly fields: ReadonlyMap<string, PactValue> }
  | { readonly kind: "guard"; readonly guard: Guard }
  | {
      readonly kind: "modref";
      readonly module: QualifiedName;
      /** Implemented interfaces; null for an interface reference. */
      readonly spec: readonly string[] | null;
      /**
       * Where it was written (the top-level form), as the reference's `Info`
       * JSON text (`syntax/refInfo.ts`): kept under `DisablePact49` in the
       * repl only, as the reference's `refInfo`, which took part in equality
       * and JSON (so `hash`) before Pact 4.9.
       */
      readonly info?: string;
    };

export type PactValueKind = PactValue["kind"];

export const TRUE: PactValue = { kind: "bool", value: true };
export const FALSE: PactValue = { kind: "bool", value: false };

export function pInteger(value: bigint): PactValue {
  return { kind: "integer", value };
}
export function pDecimal(value: Decimal): PactValue {
  return { kind: "decimal", value };
}
export function pString(value: string): PactValue {
  return { kind: "string", value };
}
export function pBool(value: boolean): PactValue {
  return value ? TRUE : FALSE;
}
export function pTime(micros: bigint): PactValue {
  return { kind: "time", micros };
}
export function pList(items: readonly PactValue[]): PactValue {
  return { kind: "list", items };
}

/** Code-point order of two strings (Haskell `Text` ordering), not UTF-16 order. */
export function compareCodePoints(a: string, b: string): -1 | 0 | 1 {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      // A surrogate (astral code point) sorts after every BMP code unit.
      if (xs !== ys) return xs ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : 1;
}

/** Builds an object; later entries win for a repeated key. Keys end up sorted. */
export function makeObject(entries: Iterable<readonly [string, PactValue]>): PactValue {
  if (Array.isArray(entries) && entries.length <= SMALL_OBJECT) return makeSmallObject(entries);
  const m = new Map<string, PactValue>();
  for (const [k, v] of entries) m.set(k, v);
  const keys = [...m.keys()].sort(compareCodePoints);
  const sorted = new Map<string, PactValue>();
  for (const k of keys) sorted.set(k, m.get(k) as PactValue);
  return { kind: "object", fields: sorted };
}

/** Up to this many entries an object is sorted by insertion (no intermediate map, no sort call). */
const SMALL_OBJECT = 16;

/** {@link makeObject} of a few entries: their keys sorted by insertion, a repeated one replaced. */
function makeSmallObject(entries: readonly (readonly [string, PactValue])[]): PactValue {
  const keys: string[] = [];
  const vals: PactValue[] = [];
  for (const [k, v] of entries) {
    let i = keys.length;
    while (i > 0 && compareCodePoints(keys[i - 1] as string, k) > 0) i--;
    if (i > 0 && keys[i - 1] === k) {
      vals[i - 1] = v;
      continue;
    }
    keys.push(k);
    vals.push(v);
    for (let j = keys.length - 1; j > i; j--) {
      keys[j] = keys[j - 1] as string;
      vals[j] = vals[j - 1] as PactValue;
    }
    keys[i] = k;
    vals[i] = v;
  }
  const fields = new Map<string, PactValue>();
  for (let i = 0; i < keys.length; i++) fields.set(keys[i] as string, vals[i] as PactValue);
  return { kind: "object", fields };
}

/**
 * The union of two objects' fields, `first`'s value kept for a key in both
 * (`+`): a merge of the two key orders, as every object's fields are kept in
 * code-point order ({@link makeObject}).
 */
export function mergeFields(
  first: ReadonlyMap<string, PactValue>,
  second: ReadonlyMap<string, PactValue>,
): Map<string, PactValue> {
  const out = new Map<string, PactValue>();
  const a = first.entries();
  const b = second.entries();
  let x = a.next();
  let y = b.next();
  while (!x.done && !y.done) {
    const o = compareCodePoints(x.value[0], y.value[0]);
    if (o <= 0) {
      out.set(x.value[0], x.value[1]);
      x = a.next();
      if (o === 0) y = b.next();
    } else {
      out.set(y.value[0], y.value[1]);
      y = b.next();
    }
  }
  for (; !x.done; x = a.next()) out.set(x.value[0], x.value[1]);
  for (; !y.done; y = b.next()) out.set(y.value[0], y.value[1]);
  return out;
}

/** True when a string has a surrogate pair (code points ≠ UTF-16 units). */
export function hasAstral(s: string): boolean {
  return /[\uD800-\uDFFF]/.test(s);
}

/** The code points of a string, each as a string. */
export function codePoints(s: string): string[] {
  return hasAstral(s) ? Array.from(s) : s.split("");
}

/** Length in code points. */
export function codePointLength(s: string): number {
  return hasAstral(s) ? Array.from(s).length : s.length;
}
