/**
 * The contract storage interface through its reference implementation:
 * transactions (own writes visible, rollback discards, writes outside a
 * transaction commit at once), txIds and history, system tables, and the
 * lossless text codec a database-backed implementation stores.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SysRecords } from "../../src-node/contract/storage/contractStorage.ts";
import { createMemoryStorage } from "../../src-node/contract/storage/memoryStorage.ts";
import {
  rowFromText,
  rowToText,
  sysRecordFromText,
  sysRecordToText,
} from "../../src-node/contract/storage/storedValue.ts";
import { valueEquals } from "../../src-node/contract/values/equality.ts";
import { makeObject, type PactValue } from "../../src-node/contract/values/value.ts";

const int = (n: number): PactValue => ({ kind: "integer", value: BigInt(n) });
const row = (n: number): PactValue => makeObject([["n", int(n)]]);

describe.each([
  ["memory", () => createMemoryStorage()],
  ["memory-serialized", () => createMemoryStorage({ serialize: true })],
])("[contract] %s storage", (_name, create) => {
  it("sees its own writes, commits, rolls back", () => {
    const s = create();
    expect(s.createUserTable("m_t", "m")).toBe(true);
    expect(s.createUserTable("m_t", "m")).toBe(false);
    expect(s.beginTx()).toBe(0);
    expect(s.inTx()).toBe(true);
    s.writeRow("m_t", "b", row(1));
    s.writeRow("m_t", "a", row(2));
    expect(s.readRow("m_t", "b")).toEqual(row(1));
    expect(s.keys("m_t")).toEqual(["a", "b"]);
    expect(s.commitTx()).toBe(0);
    expect(s.inTx()).toBe(false);
    s.beginTx();
    s.writeRow("m_t", "c", row(3));
    expect(s.createUserTable("m_u", "m")).toBe(true);
    s.rollbackTx();
    expect(s.readRow("m_t", "c")).toBeNull();
    expect(s.userTableModule("m_u")).toBeNull();
    expect(s.userTableModule("m_t")).toBe("m");
  });

  it("keeps history by txId: txids, txlog, keylog", () => {
    const s = create();
    s.createUserTable("t", "m");
    s.beginTx();
    s.writeRow("t", "k", row(1));
    s.commitTx();
    s.beginTx();
    s.writeRow("t", "x", row(9));
    s.rollbackTx();
    s.beginTx();
    s.writeRow("t", "k", row(2));
    s.writeRow("t", "j", row(3));
    s.commitTx();
    expect(s.txids("t", 0)).toEqual([0, 2]);
    expect(s.txids("t", 1)).toEqual([2]);
    expect(s.txlog("t", 2)).toEqual([
      { key: "k", value: row(2) },
      { key: "j", value: row(3) },
    ]);
    expect(s.keylog("t", "k", 0)).toEqual([
      { txId: 0, value: row(1) },
      { txId: 2, value: row(2) },
    ]);
  });

  it("stores system records, transactionally", () => {
    const s = create();
    s.beginTx();
    s.writeSys("keysets", "ns.ks", { keys: ["a", "b"], pred: "keys-any" });
    s.writeSys("pacts", "id", { exec: null });
    expect(s.readSys("keysets", "ns.ks")).toEqual({ keys: ["a", "b"], pred: "keys-any" });
    s.commitTx();
    s.beginTx();
    s.writeSys("keysets", "ns.other", { keys: [], pred: "keys-all" });
    s.rollbackTx();
    expect(s.sysKeys("keysets")).toEqual(["ns.ks"]);
    expect(s.readSys("pacts", "id")).toEqual({ exec: null });
    expect(s.readSys("modules", "nope")).toBeNull();
  });

  it("commits writes made outside a transaction at once", () => {
    const s = create();
    s.createUserTable("t", "m");
    s.writeRow("t", "k", row(1));
    s.beginTx();
    s.rollbackTx();
    expect(s.readRow("t", "k")).toEqual(row(1));
  });
});

const leaf: fc.Arbitrary<PactValue> = fc.oneof(
  fc.string().map((value): PactValue => ({ kind: "string", value })),
  fc.boolean().map((value): PactValue => ({ kind: "bool", value })),
  fc.bigInt().map((value): PactValue => ({ kind: "integer", value })),
  fc
    .tuple(fc.bigInt(), fc.integer({ min: 0, max: 255 }))
    .map(([mantissa, scale]): PactValue => ({ kind: "decimal", value: { mantissa, scale } })),
  fc
    .bigInt({ min: -(10n ** 17n), max: 10n ** 17n })
    .map((micros): PactValue => ({ kind: "time", micros })),
  fc
    .tuple(fc.array(fc.string(), { maxLength: 3 }), fc.string())
    .map(([keys, pred]): PactValue => ({ kind: "guard", guard: { kind: "keyset", keys, pred } })),
  fc.tuple(fc.option(fc.string(), { nil: null }), fc.string()).map(
    ([namespace, name]): PactValue => ({
      kind: "modref",
      module: { namespace, name },
      spec: ["i"],
    }),
  ),
);
const value: fc.Arbitrary<PactValue> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc
      .array(tie("v") as fc.Arbitrary<PactValue>, { maxLength: 3 })
      .map((items): PactValue => ({ kind: "list", items })),
    fc
      .array(fc.tuple(fc.string(), tie("v") as fc.Arbitrary<PactValue>), { maxLength: 3 })
      .map((es) => makeObject(es)),
    fc
      .tuple(fc.string(), fc.array(tie("v") as fc.Arbitrary<PactValue>, { maxLength: 2 }))
      .map(([fun, args]): PactValue => ({ kind: "guard", guard: { kind: "user", fun, args } })),
  ),
})).v;

describe("[contract] stored value codec", () => {
  it("round-trips every value exactly (decimal scale, guards, objects that look like keysets)", () => {
    fc.assert(
      fc.property(value, (v) => {
        const back = rowFromText(rowToText(v));
        expect(back).not.toBeNull();
        expect(valueEquals(back as PactValue, v)).toBe(true);
        expect(rowToText(back as PactValue)).toBe(rowToText(v));
      }),
    );
    const lookalike = makeObject([
      ["keys", { kind: "list", items: [] }],
      ["pred", { kind: "string", value: "keys-all" }],
    ]);
    expect(rowFromText(rowToText(lookalike))?.kind).toBe("object");
  });

  it("round-trips system records and rejects malformed text", () => {
    const module: SysRecords["modules"] = {
      kind: "module",
      namespace: "free",
      name: "m",
      hash: "h",
      code: "(module m 'k)",
      origin: { file: "f.pact", line: 3, column: 0 },
      deps: [{ name: "other", hash: "h2" }],
      consts: [{ name: "C", value: int(1) }],
      governance: { kind: "capability", name: "GOV" },
      blessed: ["b"],
      interfaces: ["i"],
      history: [],
    };
    expect(sysRecordFromText("modules", sysRecordToText("modules", module))).toEqual(module);
    const ns: SysRecords["namespaces"] = { name: "n", user: int(1), admin: int(2) };
    expect(sysRecordFromText("namespaces", sysRecordToText("namespaces", ns))).toEqual(ns);
    for (const bad of ["", "{", "[]", '{"keys":1}', '{"exec":{"step":"x"}}']) {
      expect(sysRecordFromText("keysets", bad)).toBeNull();
      expect(sysRecordFromText("pacts", bad)).toBeNull();
      expect(sysRecordFromText("modules", bad)).toBeNull();
    }
    expect(rowFromText("{")).toBeNull();
    expect(rowFromText('{"i":"1.5"}')).toBeNull();
  });
});
