/**
 * Objects' field order: `makeObject` (small objects sorted by insertion,
 * larger ones through a map and a sort) and `mergeFields` (`+` on objects,
 * a merge of two sorted key orders) against a plain model: the last value of
 * each key, keys in code-point order, the first object winning a merge.
 */
import { describe, expect, it } from "vitest";
import { createRuntimeContext } from "../../src-node/contract/eval/createRuntimeContext.ts";
import { evaluateSource } from "../../src-node/contract/evaluate.ts";
import { showValue } from "../../src-node/contract/values/render.ts";
import {
  makeObject,
  mergeFields,
  type PactValue,
  pInteger,
} from "../../src-node/contract/values/value.ts";

/** Code-point order, by comparing arrays of code points (independent of the code under test). */
function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

function model(entries: readonly (readonly [string, PactValue])[]): [string, PactValue][] {
  const last = new Map<string, PactValue>();
  for (const [k, v] of entries) last.set(k, v);
  return [...last.entries()].sort((a, b) => byCodePoints(a[0], b[0]));
}

/** A small deterministic generator (xorshift), so a failure reproduces. */
function generator(seed: number): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

// Keys that differ in the first unit, share prefixes, and mix BMP characters above the
// surrogates (U+FF5E) with astral ones (U+1F600), which sort differently in UTF-16.
const KEYS = ["", "a", "ab", "b", "B", "aa", "z", "\uff5e", "\u{1f600}", "a\u{1f600}", "a\uff5e"];

function randomEntries(next: () => number, n: number): [string, PactValue][] {
  return Array.from({ length: n }, (_, i) => [
    KEYS[Math.floor(next() * KEYS.length)] as string,
    pInteger(BigInt(i)),
  ]);
}

describe("[contract] object fields", () => {
  it("makeObject keeps the last value of a key, keys in code-point order, at every size", () => {
    const next = generator(0x5eed);
    for (let round = 0; round < 500; round++) {
      const entries = randomEntries(next, Math.floor(next() * 40));
      const o = makeObject(entries);
      if (o.kind !== "object") throw new Error("not an object");
      expect([...o.fields.entries()]).toEqual(model(entries));
    }
  });

  it("mergeFields keeps the first object's value for a shared key, keys in order", () => {
    const next = generator(0xbeef);
    for (let round = 0; round < 500; round++) {
      const x = makeObject(randomEntries(next, Math.floor(next() * 12)));
      const y = makeObject(randomEntries(next, Math.floor(next() * 12)));
      if (x.kind !== "object" || y.kind !== "object") throw new Error("not an object");
      const merged = mergeFields(x.fields, y.fields);
      expect([...merged.entries()]).toEqual(model([...y.fields, ...x.fields]));
    }
  });

  it("+ on objects and object literals give the reference's union and order", () => {
    const r = evaluateSource(
      '(+ {"b": 1, "\u{1f600}": 2, "a": 3, "b": 4} {"\uff5e": 5, "a": 6, "c": 7})',
      { ctx: createRuntimeContext() },
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(showValue(r.value as PactValue)).toBe(
      '{"a": 3,"b": 4,"c": 7,"\uff5e": 5,"\u{1f600}": 2}',
    );
  });
});
