/**
 * Contract values ↔ JSON (reference §3.5) and the legacy key order used for
 * hashing (§3.6), checked against the shared contract-hashes vectors.
 */
import { describe, expect, it } from "vitest";
import { hashValue } from "../../src-node/contract/natives/strings.ts";
import {
  keysetGuard,
  pactValueFromJson,
  pactValueToJson,
  pactValueToJsonText,
  parseJsonExact,
  resultToJson,
} from "../../src-node/contract/values/json.ts";
import { legacyOrder } from "../../src-node/contract/values/legacyKeyOrder.ts";
import {
  makeObject,
  type PactValue,
  pInteger,
  pString,
} from "../../src-node/contract/values/value.ts";
import { loadVectors } from "../support/vectors.ts";

type HashCase = {
  name: string;
  hashedBytesUtf8?: string;
  expected?: string;
  hash?: string;
  guard?: { keys: string[]; pred: string };
  hashedJson?: string;
};

const dec = (m: bigint, scale: number): PactValue => ({
  kind: "decimal",
  value: { mantissa: m, scale },
});
const decode = (text: string): PactValue => {
  const j = parseJsonExact(text);
  if (j === null) throw new Error(`bad JSON ${text}`);
  const r = pactValueFromJson(j);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe("[contract] JSON encoding", () => {
  it("encodes integers as {int}, as a string past 2^53-1", () => {
    expect(pactValueToJsonText(pInteger(5n))).toBe('{"int":5}');
    expect(pactValueToJsonText(pInteger(-9007199254740991n))).toBe('{"int":-9007199254740991}');
    expect(pactValueToJsonText(pInteger(9007199254740992n))).toBe('{"int":"9007199254740992"}');
  });

  it("encodes decimals as numbers, as {decimal} past 2^53-1", () => {
    expect(pactValueToJsonText(dec(1000n, 1))).toBe("100");
    expect(pactValueToJsonText(dec(1n, 2))).toBe("1.0e-2");
    expect(pactValueToJsonText(dec(10n ** 20n + 1n, 2))).toBe(
      '{"decimal":"1000000000000000000.01"}',
    );
  });

  it("encodes times with the reference's millisecond quirk", () => {
    const t = (micros: bigint): PactValue => ({ kind: "time", micros });
    const base = 1469186795n * 1_000_000n;
    expect(pactValueToJsonText(t(base))).toBe('{"time":"2016-07-22T11:26:35Z"}');
    expect(pactValueToJsonText(t(base + 1002n))).toBe('{"timep":"2016-07-22T11:26:35.001002Z"}');
    // whole milliseconds keep the "time" form and lose the fraction (kept for replay)
    expect(pactValueToJsonText(t(base + 500_000n))).toBe('{"time":"2016-07-22T11:26:35Z"}');
  });

  it("encodes guards and module references in their fixed shapes", () => {
    const g = (guard: Extract<PactValue, { kind: "guard" }>["guard"]): string =>
      pactValueToJsonText({ kind: "guard", guard });
    expect(g(keysetGuard(["b", "a", "b"], "keys-all"))).toBe(
      '{"pred":"keys-all","keys":["a","b"]}',
    );
    expect(g({ kind: "keysetRef", namespace: null, name: "ks" })).toBe('{"keysetref":"ks"}');
    expect(g({ kind: "keysetRef", namespace: "free", name: "ks" })).toBe(
      '{"keysetref":{"ns":"free","ksn":"ks"}}',
    );
    expect(g({ kind: "user", fun: "m.f", args: [pInteger(1n)] })).toBe(
      '{"args":[{"int":1}],"fun":"m.f"}',
    );
    expect(g({ kind: "module", module: { namespace: null, name: "m" }, name: "n" })).toBe(
      '{"moduleName":{"namespace":null,"name":"m"},"name":"n"}',
    );
    expect(g({ kind: "pact", pactId: "p", name: "n" })).toBe('{"pactId":"p","name":"n"}');
    expect(g({ kind: "capability", name: "m.C", args: [], pactId: null })).toBe(
      '{"cgPactId":null,"cgArgs":[],"cgName":"m.C"}',
    );
    expect(
      pactValueToJsonText({
        kind: "modref",
        module: { namespace: null, name: "coin" },
        spec: ["fungible-v2"],
      }),
    ).toBe(
      '{"refSpec":[{"namespace":null,"name":"fungible-v2"}],"refName":{"namespace":null,"name":"coin"}}',
    );
  });

  it("converts a top-level integer result leniently to a decimal number", () => {
    expect(resultToJson(pInteger(3n))).toBe(3);
    expect(resultToJson({ kind: "list", items: [pInteger(3n)] })).toEqual([{ int: 3 }]);
  });

  it("orders object keys in the legacy HashMap order", () => {
    expect(legacyOrder(["keys", "pred"])).toEqual(["pred", "keys"]);
    expect(
      pactValueToJsonText(
        makeObject([
          ["keys", pString("k")],
          ["pred", pString("p")],
        ]),
      ),
    ).toBe('{"pred":"p","keys":"k"}');
  });

  it("reproduces the shared contract-hashes vectors", () => {
    const v = loadVectors<HashCase>("contract-hashes.json");
    let checked = 0;
    for (const c of v.cases) {
      if (c.name === '(hash "hello")') {
        expect(hashValue(pString(c.hashedBytesUtf8 as string)), c.name).toBe(c.expected);
        checked++;
      } else if (c.name === "(hash {'foo: 1})") {
        const obj = makeObject([["foo", pInteger(1n)]]);
        expect(pactValueToJsonText(obj), c.name).toBe(c.hashedBytesUtf8);
        expect(hashValue(obj), c.name).toBe(c.expected);
        checked++;
      } else if (c.hashedJson !== undefined && c.guard !== undefined) {
        const ks: PactValue = { kind: "guard", guard: keysetGuard(c.guard.keys, c.guard.pred) };
        expect(pactValueToJsonText(ks), c.name).toBe(c.hashedJson);
        expect(hashValue(ks), c.name).toBe(c.hash);
        checked++;
      }
    }
    expect(checked).toBe(4);
  });
});

describe("[contract] JSON decoding", () => {
  it("reads numbers as exact normalised decimals", () => {
    expect(decode("1")).toEqual(dec(1n, 0));
    expect(decode("1.50")).toEqual(dec(15n, 1));
    expect(decode("1e3")).toEqual(dec(1000n, 0));
    expect(decode("1.5e-3")).toEqual(dec(15n, 4));
    expect(decode("123456789012345678901234567890.123")).toEqual(
      dec(123456789012345678901234567890123n, 3),
    );
  });

  it("reads tagged values, guards and plain objects", () => {
    expect(decode('{"int":5}')).toEqual(pInteger(5n));
    expect(decode('{"int":"123456789012345678901234567890"}')).toEqual(
      pInteger(123456789012345678901234567890n),
    );
    expect(decode('{"decimal":"1.25"}')).toEqual(dec(125n, 2));
    expect(decode('{"time":"2016-07-22T11:26:35Z"}')).toEqual({
      kind: "time",
      micros: 1469186795000000n,
    });
    expect(decode('{"timep":"2016-07-22T11:26:35.001002Z"}')).toEqual({
      kind: "time",
      micros: 1469186795001002n,
    });
    expect(decode('{"keys":["b","a"],"pred":"keys-any"}')).toEqual({
      kind: "guard",
      guard: keysetGuard(["a", "b"], "keys-any"),
    });
    expect(decode('{"keysetref":"free.ks"}')).toEqual({
      kind: "guard",
      guard: { kind: "keysetRef", namespace: "free", name: "ks" },
    });
    expect(decode('{"a":[true,"x"],"b":{}}')).toEqual(
      makeObject([
        ["a", { kind: "list", items: [{ kind: "bool", value: true }, pString("x")] }],
        ["b", makeObject([])],
      ]),
    );
    expect(decode('{"int":5,"extra":1}').kind).toBe("object");
  });

  it("round-trips values through JSON text", () => {
    const values: PactValue[] = [
      pInteger(-42n),
      dec(12345n, 3),
      pString('quote " and \\ and \n'),
      { kind: "list", items: [pInteger(1n), dec(5n, 1)] },
      makeObject([
        ["z", pInteger(1n)],
        ["a", { kind: "time", micros: 1469186795001002n }],
      ]),
      { kind: "guard", guard: keysetGuard(["k"], "keys-all") },
    ];
    for (const v of values) expect(decode(pactValueToJsonText(v))).toEqual(v);
    expect(pactValueToJson(makeObject([["a", pInteger(1n)]]))).toEqual({ a: { int: 1 } });
  });

  it("rejects invalid JSON and values without a contract form", () => {
    for (const bad of ["", "{", "[1,]", "01", "1.", '"\\x"', "nul", "[1] 2"])
      expect(parseJsonExact(bad), bad).toBeNull();
    const r = pactValueFromJson(null);
    expect(r.ok).toBe(false);
  });
});
