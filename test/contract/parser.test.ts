/**
 * The lexer and parser: spans, every literal form, and syntax errors that name
 * the position and what was expected.
 */
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { failureOf } from "../../src-node/contract/errors.ts";
import { parseSource } from "../../src-node/contract/evaluate.ts";
import { tokenize } from "../../src-node/contract/syntax/lexer.ts";
import { MAX_DEPTH } from "../../src-node/contract/syntax/parser.ts";
import type { ParseNode } from "../../src-node/contract/syntax/parseTree.ts";

function parse(src: string): ParseNode[] {
  const r = parseSource(src, "t.pact");
  if (!r.ok) throw new Error(`unexpected failure: ${r.error.message}`);
  return r.value;
}

function parseError(src: string) {
  const r = parseSource(src, "t.pact");
  if (r.ok) throw new Error(`expected a syntax error for ${JSON.stringify(src)}`);
  return r.error;
}

describe("[contract] parser", () => {
  it("records line, column and offsets of every node", () => {
    const src = "(+ 1\n   2.50) ; c\n'sym";
    const [app, sym] = parse(src);
    expect(app?.span).toEqual({ file: "t.pact", line: 1, column: 0, offset: 0, end: 13 });
    expect(src.slice(app!.span.offset, app!.span.end)).toBe("(+ 1\n   2.50)");
    const dec = app?.kind === "sexp" ? app.items[2] : undefined;
    expect(dec?.span).toMatchObject({ line: 2, column: 3, offset: 8, end: 12 });
    expect(sym).toMatchObject({ kind: "symbol", value: "sym", span: { line: 3, column: 0 } });
  });

  it("reads integers, negative literals and decimals with their written scale", () => {
    const nodes = parse("1 -1 007 1.50 -0.5 123456789012345678901234567890");
    expect(nodes.map((n) => n.kind)).toEqual([
      "integer",
      "integer",
      "integer",
      "decimal",
      "decimal",
      "integer",
    ]);
    expect(nodes[3]).toMatchObject({ value: { mantissa: 150n, scale: 2 } });
    expect(nodes[4]).toMatchObject({ value: { mantissa: -5n, scale: 1 } });
    expect(nodes[5]).toMatchObject({ value: 123456789012345678901234567890n });
  });

  it("treats '- 1' as an application argument, not a literal", () => {
    const [n] = parse("(- 1)");
    expect(n?.kind === "sexp" && n.items.map((i) => i.kind)).toEqual(["atom", "integer"]);
  });

  it("decodes string escapes and gaps", () => {
    const [a, b, c] = parse(String.raw`"a\"b\\c\n\t\65\x41\o101\^A\NUL\SOH\&z" "gap \
        \here" ""`);
    expect(a).toMatchObject({ value: 'a"b\\c\n\tAAA\x01\x00\x01z' });
    expect(b).toMatchObject({ value: "gap here" });
    expect(c).toMatchObject({ value: "" });
  });

  it("reads symbols, bools, qualified names, references and typed names", () => {
    const [s, t, f, q, d, typed] = parse("'foo-bar true false ns.mod.fn ref::member x:[integer]");
    expect(s).toMatchObject({ kind: "symbol", value: "foo-bar" });
    expect(t).toMatchObject({ kind: "bool", value: true });
    expect(f).toMatchObject({ kind: "bool", value: false });
    expect(q).toMatchObject({ kind: "atom", parts: ["ns", "mod", "fn"] });
    expect(d).toMatchObject({ kind: "dynamic", ref: { parts: ["ref"] }, member: "member" });
    expect(typed).toMatchObject({
      kind: "atom",
      parts: ["x"],
      type: { kind: "list", elem: { kind: "integer" } },
    });
  });

  it("reads every type annotation form", () => {
    const types = parse(
      "a:integer b:decimal c:string d:bool e:time f:keyset g:guard h:list i:object j:object{s} k:{s} l:table{s} m:module{a, b.c}",
    ).map((n) => (n.kind === "atom" ? n.type : null));
    expect(types).toEqual([
      { kind: "integer" },
      { kind: "decimal" },
      { kind: "string" },
      { kind: "bool" },
      { kind: "time" },
      { kind: "keyset" },
      { kind: "guard" },
      { kind: "list", elem: null },
      { kind: "object", schema: null },
      { kind: "object", schema: "s" },
      { kind: "object", schema: "s", user: true },
      { kind: "table", schema: "s" },
      { kind: "module", interfaces: ["a", "b.c"] },
    ]);
  });

  it("reads lists with or without commas, objects and bindings", () => {
    const [l1, l2, o, b, e] = parse(
      `[1 2] [1, 2] { "a": 1, 'b: [2] } { "a" := x, 'b := y:integer } {}`,
    );
    expect(l1?.kind === "list" && l1.items.length).toBe(2);
    expect(l2?.kind === "list" && l2.items.length).toBe(2);
    expect(o?.kind === "object" && o.entries.map((x) => x.key.kind)).toEqual(["string", "symbol"]);
    expect(b?.kind === "binding" && b.entries.map((x) => x.name.parts[0])).toEqual(["x", "y"]);
    expect(e).toMatchObject({ kind: "object", entries: [] });
  });

  it("skips comments anywhere", () => {
    const nodes = parse("; lead\n(f ; inside\n 1 ; more\n) ; trail\n;; end");
    expect(nodes).toHaveLength(1);
    expect(nodes[0]?.kind === "sexp" && nodes[0].items).toHaveLength(2);
  });

  const errors: [string, string, number, number][] = [
    ["(+ 1 2", "expected ')' to close the '(' at 1:0, found end of input", 1, 6],
    ["(+ 1 2]", "expected an expression, found ']'", 1, 6],
    ["[1, 2 3]", "expected ',' between list elements", 1, 6],
    ["[1 2, 3]", "expected an expression or ']'", 1, 4],
    ['{ "a" 1 }', "expected ':' or ':=' after a key, found a number", 1, 6],
    ["{ 1: 2 }", "object keys must be strings or symbols", 1, 2],
    ['{ "a": 1, "b" := x }', "expected ':' (this is an object)", 1, 14],
    ['"abc', "unterminated string literal", 1, 4],
    ['"a\nb"', "newline is not allowed inside a string", 1, 2],
    ['"\\q"', "unknown escape", 1, 2],
    ["x:nosuchtype", "expected a type", 1, 2],
    ["1.2.3", "unexpected character '.'", 1, 3],
    ["a.b.c.d", "at most three parts", 1, 0],
    ["'", "symbol: expected a name", 1, 1],
    ["\n\n  )", "expected an expression, found ')'", 3, 2],
    ["(a `b)", "unexpected character '`'", 1, 3],
    [`1.${"1".repeat(256)}`, "at most 255 are allowed", 1, 0],
  ];
  for (const [src, message, line, column] of errors) {
    it(`rejects ${JSON.stringify(src.slice(0, 20))} at ${line}:${column}`, () => {
      const e = parseError(src);
      expect(e.kind).toBe("SyntaxError");
      expect(e.message).toContain(message);
      expect(e.span).toMatchObject({ file: "t.pact", line, column });
    });
  }

  it("bounds nesting depth instead of overflowing the stack", () => {
    const e = parseError("(".repeat(MAX_DEPTH + 1));
    expect(e.message).toContain("nested deeper than");
    expect(parse(`${"[".repeat(MAX_DEPTH)}${"]".repeat(MAX_DEPTH)}`)).toHaveLength(1);
  });

  it("returns failures as values: the thrown carrier never escapes", () => {
    expect(() => parseSource(")", "x")).not.toThrow();
    expect(failureOf(new Error("x"))).toBeNull();
  });
});

describe("[contract] string literals are read flat", () => {
  it("a long docstring with escapes is one flat string, not a rope of its characters", () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const doc = `${"A docstring of a module, as long as coin's are. ".repeat(200)}\\"quoted\\" \\n`;
    const source = `"${doc}"`;
    const first = tokenize(source, "doc")[0];
    expect(first?.kind).toBe("string");
    const kept: unknown[] = [];
    gc();
    const before = getHeapStatistics().used_heap_size;
    for (let i = 0; i < 100; i++) kept.push(tokenize(`${source} ${i}`, "doc")[0]);
    gc();
    const perCopy = (getHeapStatistics().used_heap_size - before) / kept.length;
    // Flat: about its length in bytes (plus the source it was read from); a rope held 32 bytes a character.
    expect(perCopy).toBeLessThan(doc.length * 4);
  });
});
