/**
 * The reference's size estimates (eval/sizeOf.ts) that write gas is charged
 * by, against figures worked out by hand from its data layout: a constructor
 * costs a header word and a word per field, `Text` six words and two bytes a
 * character, an `Integer` its bytes (at least 8; V0: its base-100000 digits),
 * a `Map` six words an entry, a `Set` or list three words an element.
 */
import { describe, expect, it } from "vitest";
import {
  byteStringSize,
  integerSize,
  keysetSize,
  memoryGas,
  moduleNameSize,
  namespaceSize,
  objectMapSize,
  pactValueSize,
  textSize,
  utf8CharCount,
} from "../../src-node/contract/eval/sizeOf.ts";
import { makeDecimal } from "../../src-node/contract/values/decimal.ts";
import {
  type Guard,
  type PactValue,
  pDecimal,
  pInteger,
  pString,
  TRUE,
} from "../../src-node/contract/values/value.ts";

const dec = (mantissa: bigint, scale: number) => pDecimal(makeDecimal(mantissa, scale));
const guard = (g: Guard): PactValue => ({ kind: "guard", guard: g });
const fields = (o: Record<string, PactValue>) => new Map(Object.entries(o));

describe("[contract] the reference's SizeOf", () => {
  it("sizes text by characters (code points), not UTF-16 units or bytes", () => {
    expect(textSize("")).toBe(48);
    expect(textSize("abc")).toBe(54);
    expect(textSize("é")).toBe(50);
    expect(textSize("😀")).toBe(50);
  });

  it("sizes a bytestring by the characters utf8-string decodes from it, not its bytes", () => {
    const count = (b: number[]) => utf8CharCount(Uint8Array.from(b));
    expect(count([0x41, 0x42])).toBe(2);
    // Well-formed sequences of 2, 3 and 4 bytes: one character each.
    expect(count([0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80])).toBe(3);
    // Stray continuation bytes and bytes 0xf8 and above: one each.
    expect(count([0x80, 0xbf, 0xf8, 0xff])).toBe(4);
    // An overlong 2-byte sequence: its lead alone, then the continuation byte.
    expect(count([0xc0, 0x80])).toBe(2);
    // Overlong, surrogate or non-character 3-byte sequences: one replacement for all 3 bytes.
    expect(count([0xe0, 0x80, 0x80, 0xed, 0xa0, 0x80, 0xef, 0xbf, 0xbf])).toBe(3);
    // A 4-byte sequence above U+10FFFF: one replacement for all 4 bytes.
    expect(count([0xf4, 0x90, 0x80, 0x80])).toBe(1);
    // A lead byte missing continuation bytes takes those present: 0xe2 0x82 is one, "A" another.
    expect(count([0xe2, 0x82, 0x41])).toBe(2);
    expect(count([0xf0, 0x9f, 0x98])).toBe(1);
    expect(count([0xc3, 0x41])).toBe(2);
    // Coin v5's hash (rE7DU8jl…): its 32 bytes decode to 30 characters.
    const v5 = "ac4ec353c8e540bf71fcc3d8ba789925fe480814c0107008150081e1b9687cfe";
    expect(utf8CharCount(Uint8Array.from(Buffer.from(v5, "hex")))).toBe(30);
    expect(byteStringSize(Uint8Array.from(Buffer.from(v5, "hex")))).toBe(72 + 30);
  });

  it("sizes integers by bytes since Pact 4.5, by base-100000 digits before", () => {
    expect(integerSize(1, 0n)).toBe(8);
    expect(integerSize(1, -5n)).toBe(8);
    expect(integerSize(1, 2n ** 72n)).toBe(9);
    expect(integerSize(0, 0n)).toBe(0);
    expect(integerSize(0, -7n)).toBe(0);
    expect(integerSize(0, 10n)).toBe(1);
    expect(integerSize(0, 10n ** 12n)).toBe(3);
  });

  it("sizes values with their constructors", () => {
    // PLiteral (LDecimal (Decimal places mantissa)).
    expect(pactValueSize(1, dec(10n, 1))).toBe(80);
    expect(pactValueSize(0, dec(10n, 1))).toBe(73);
    expect(pactValueSize(1, pString("a"))).toBe(82);
    expect(pactValueSize(1, pInteger(3n))).toBe(40);
    expect(pactValueSize(1, TRUE)).toBe(32);
    // PList (Vector): seven words and one per element.
    expect(pactValueSize(1, { kind: "list", items: [TRUE, TRUE] })).toBe(16 + 72 + 64);
  });

  it("sizes a keyset by its set of keys (bytestrings of their UTF-8) and its predicate's name", () => {
    const ks = { keys: ["keys1"], pred: "keys-all" };
    // KeySet: 24 + set (32 + 72 + 5) + Name (16 + BareName (24 + text 64)).
    expect(keysetSize(1, ks)).toBe(237);
    expect(keysetSize(1, { keys: ["keys1", "keys1"], pred: "keys-all" })).toBe(237);
    // A qualified predicate is a QName: 16 + QualifiedName (32 + ModuleName + text).
    expect(keysetSize(1, { keys: [], pred: "util.keys-one" })).toBe(
      24 + 8 + 16 + 32 + moduleNameSize(null, "util") + textSize("keys-one"),
    );
    expect(pactValueSize(1, guard({ kind: "keyset", ...ks }))).toBe(16 + 16 + 237);
    // A key's bytestring counts its characters: "kéys1" is 6 bytes but 5 characters.
    expect(keysetSize(1, { keys: ["kéys1"], pred: "keys-all" })).toBe(237);
  });

  it("charges a row write by a tenth of its key's and of its object's sizes, each rounded up", () => {
    // A row as the reference's gas regression measures one (V0): insert 100, key 5, object 38.
    const row = fields({ balance: dec(10n, 1), nickname: pString("a") });
    expect(memoryGas(textSize("a"))).toBe(5);
    expect(objectMapSize(0, row)).toBe(377);
    expect(memoryGas(objectMapSize(0, row))).toBe(38);
    expect(memoryGas(objectMapSize(1, row))).toBe(39);
    // A coin account as created: balance 0.0 and a keyset guard.
    const account = fields({
      balance: dec(0n, 1),
      guard: guard({ kind: "keyset", keys: ["keys1"], pred: "keys-all" }),
    });
    expect(objectMapSize(1, account)).toBe(565);
    expect(memoryGas(textSize("emily")) + memoryGas(objectMapSize(1, account))).toBe(63);
  });

  it("sizes module names and namespaces", () => {
    // ModuleName: 24 + name + Maybe namespace (Nothing: 8).
    expect(moduleNameSize(null, "a")).toBe(82);
    expect(moduleNameSize("free", "a")).toBe(24 + 50 + 16 + 56);
    const g = guard({ kind: "keysetRef", namespace: null, name: "k" });
    // Namespace: 32 + name + two guards (16 + KeySetName text).
    expect(namespaceSize(1, "free", g, g)).toBe(32 + 56 + 2 * (16 + 50));
  });
});
