/**
 * Exact JSON (src-node/command/exactJson.ts), the one JSON model of commands
 * and contract data: number text kept both ways, aeson's string escapes,
 * raw parts, read failures with a reason, objects read back member by member;
 * strings with escapes read and written flat (not as ropes of one piece per
 * character, which held 30 times their size: issue 35, finding 5).
 */
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  JsonNumber,
  type JsonObject,
  jsonString,
  parseJsonExact,
  RawJson,
  readJsonExact,
  readJsonMembers,
  stringifyJson,
} from "../../src-node/command/exactJson.ts";

describe("[command] exact JSON", () => {
  it("keeps number text through a parse and a write", () => {
    const text = '{"a":1.0,"b":[1e-8,-0,123456789012345678901.50],"c":{"int":1}}';
    expect(stringifyJson(parseJsonExact(text) ?? null)).toBe(text);
    expect(JsonNumber.of("01")).toBeUndefined();
    expect(JsonNumber.of("1.")).toBeUndefined();
    expect(JsonNumber.of("-1.5e+3")?.text).toBe("-1.5e+3");
  });

  it("reads a number exactly where JSON.parse does, and refuses the near misses", () => {
    const texts = [
      "0",
      "-0",
      "7",
      "-12",
      "1.5",
      "1.50",
      "1e5",
      "1E+5",
      "1e-05",
      "-0.0e0",
      "10.01e10",
    ];
    const misses = [
      "-",
      "01",
      "-01",
      "1.",
      ".5",
      "1e",
      "1e+",
      "1.e5",
      "+1",
      "--1",
      "1.5.",
      "1ee5",
      "0x1",
    ];
    for (const text of [...texts, ...misses]) {
      const read = readJsonExact(`[${text}]`);
      let plain = true;
      try {
        JSON.parse(`[${text}]`);
      } catch {
        plain = false;
      }
      expect(read.ok, text).toBe(plain);
      if (read.ok) expect(stringifyJson(read.value), text).toBe(`[${text}]`);
    }
    expect(texts.every((t) => readJsonExact(t).ok)).toBe(true);
    expect(readJsonExact(`1${"0".repeat(100_000)}`)).toMatchObject({
      ok: false,
      error: expect.stringContaining("number too long"),
    });
  });

  it("escapes strings as aeson does: \\b and \\f as \\u escapes, lone surrogates escaped", () => {
    expect(jsonString('a"\\\n\r\t\b\f\u0001é😀')).toBe(
      '"a\\"\\\\\\n\\r\\t\\u0008\\u000c\\u0001é😀"',
    );
    expect(jsonString("\ud800x")).toBe('"\\ud800x"');
    expect(stringifyJson({ k: "\u000c" })).toBe('{"k":"\\u000c"}');
  });

  it("reads what JSON.parse reads, to the same values", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const exact = parseJsonExact(text);
        const plain = JSON.parse(text) as unknown;
        const back = JSON.parse(stringifyJson(exact ?? null)) as unknown;
        expect(back).toEqual(plain);
      }),
      { numRuns: 200 },
    );
  });

  it("says why a text is not JSON", () => {
    expect(readJsonExact('{"a":}')).toEqual({
      ok: false,
      error: "unexpected character at position 5 (expected a JSON value)",
    });
    expect(readJsonExact("[1,")).toMatchObject({
      ok: false,
      error: expect.stringContaining("end"),
    });
    expect(readJsonExact("1 2")).toMatchObject({
      ok: false,
      error: expect.stringContaining("text after the JSON value"),
    });
    expect(readJsonExact(`${"[".repeat(600)}${"]".repeat(600)}`)).toMatchObject({ ok: false });
  });

  it("writes raw parts as they are and skips undefined members", () => {
    expect(
      stringifyJson({ a: new RawJson('{"x":1.50}'), b: undefined, c: [new RawJson("2")] }),
    ).toBe('{"a":{"x":1.50},"c":[2]}');
  });

  it("reads an object's members as raw text, and refuses anything else", () => {
    const m = readJsonMembers(' {"a" : {"x":[1, 2]}, "b":"s\\"", "c":null} ');
    expect([...(m ?? new Map()).entries()].map(([k, v]) => [k, v.text])).toEqual([
      ["a", '{"x":[1, 2]}'],
      ["b", '"s\\""'],
      ["c", "null"],
    ]);
    expect(readJsonMembers("{}")?.size).toBe(0);
    for (const bad of ["[1]", '{"a":1', '{"a":1} x', '{"a" 1}', "", '{"a":01}']) {
      expect(readJsonMembers(bad), bad).toBeNull();
    }
  });

  it("keeps __proto__, constructor and toString as own members, inheriting nothing", () => {
    const v = parseJsonExact('{"__proto__":{"a":1},"constructor":2,"x":{}}') as Record<
      string,
      unknown
    >;
    expect(Object.keys(v)).toEqual(["__proto__", "constructor", "x"]);
    expect(Object.hasOwn(v, "__proto__")).toBe(true);
    expect(stringifyJson(v as JsonObject)).toBe('{"__proto__":{"a":1},"constructor":2,"x":{}}');
    for (const o of [v, v.x as object]) {
      expect("toString" in o).toBe(false);
      expect("hasOwnProperty" in o).toBe(false);
    }
  });

  it("reads and writes a long string with escapes as a flat string, not a rope of its characters", () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    // A module's code: 24 KB with quotes and line ends, as state rows hold it.
    const code = Array.from(
      { length: 400 },
      (_, i) => `(defun f${i} (a:string) "doc \\"q\\"" (format "{} {}" [a "x"]))\n`,
    ).join("");
    const text = stringifyJson({ code });
    expect((parseJsonExact(text) as JsonObject).code).toBe(code);
    const heldPerCopy = (make: (i: number) => unknown): number => {
      const kept: unknown[] = [];
      gc();
      const before = getHeapStatistics().used_heap_size;
      for (let i = 0; i < 100; i++) kept.push(make(i));
      gc();
      const held = (getHeapStatistics().used_heap_size - before) / kept.length;
      expect(kept.length).toBe(100);
      return held;
    };
    // Flat: about the text's size (one byte a character); a rope held over 750 KB a copy.
    expect(heldPerCopy(() => parseJsonExact(text))).toBeLessThan(code.length * 3);
    expect(heldPerCopy((i) => stringifyJson({ code: `${code}${i}` }))).toBeLessThan(
      code.length * 3,
    );
  });
});
