/**
 * Bad input never escapes the evaluator: any source text, however malformed,
 * yields a value or a failure with a position, never an exception and never a
 * hang (a step limit bounds every evaluation). Random text and random token
 * soups (fast-check).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRuntimeContext } from "../../src-node/contract/eval/createRuntimeContext.ts";
import { evaluateSource } from "../../src-node/contract/evaluate.ts";
import { coreNatives } from "../../src-node/contract/natives/nativeTable.ts";
import { ReplSession } from "../../src-node/contract/repl/replSession.ts";

function run(source: string): void {
  const r = evaluateSource(source, {
    file: "fuzz",
    ctx: createRuntimeContext({ stepLimit: 200_000 }),
  });
  if (!r.ok) {
    expect(
      r.error.span,
      `failure without a position for ${JSON.stringify(source)}: ${r.error.message}`,
    ).not.toBeNull();
    expect(typeof r.error.message).toBe("string");
  }
}

const names = [...coreNatives.keys()];
const token = fc.oneof(
  fc.constantFrom(
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ":=",
    "::",
    "'",
    '"',
    "\\",
    ";",
    "\n",
    " ",
  ),
  fc.constantFrom(...names),
  fc.constantFrom(
    "let",
    "let*",
    "lambda",
    "cond",
    "module",
    "defun",
    "x",
    "y",
    "a.b",
    "true",
    "false",
  ),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.nat(99999)).map(([i, f]) => `${i}.${f}`),
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.constantFrom(
    "(let ((x 1)) ",
    "(lambda (x) ",
    "(map (+ 1) ",
    "(fold (+) 0 ",
    "(enumerate 0 ",
    "(make-list ",
  ),
);
const soup = fc.array(token, { maxLength: 60 }).map((ts) => ts.join(" "));
const balanced = fc.array(token, { maxLength: 30 }).map((ts) => `(${ts.join(" ")})`);

describe("[contract] fuzz: malformed input", () => {
  it("random text never throws", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => run(s)),
      { numRuns: 1500 },
    );
  });

  it("random unicode text never throws", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 100 }), (s) => run(s)),
      { numRuns: 500 },
    );
  });

  it("random token soups never throw", () => {
    fc.assert(
      fc.property(soup, (s) => run(s)),
      { numRuns: 3000 },
    );
  });

  it("random applications of natives never throw", () => {
    fc.assert(
      fc.property(balanced, (s) => run(s)),
      { numRuns: 3000 },
    );
  });

  it("random token soups in the repl never throw", () => {
    fc.assert(
      fc.property(soup, (s) => {
        const session = new ReplSession({ stepLimit: 200_000, readFile: () => "(+ 1 2)" });
        const report = session.runScript(s, "fuzz.repl");
        if (report.error !== null) expect(report.error.failure.span).not.toBeNull();
      }),
      { numRuns: 1000 },
    );
  });

  it("deep nesting, huge sizes and long loops end with a positioned failure", () => {
    const cases = [
      "(".repeat(100_000),
      "[".repeat(5000),
      "(make-list 1000000000000 1)",
      "(enumerate 0 100000000000000)",
      "(^ 99999999 99999999)",
      "(shift 1 99999999999)",
      '(fold (lambda (a x) (+ a a)) "ab" (enumerate 1 64))',
      "(fold (+) 0 (enumerate 1 5000000))",
      "(map (lambda (x) (make-list 100000 x)) (enumerate 1 1000))",
      `"${"\\".repeat(10001)}`,
    ];
    for (const c of cases) {
      const r = evaluateSource(c, {
        file: "big",
        ctx: createRuntimeContext({ stepLimit: 1_000_000 }),
      });
      expect(r.ok, c.slice(0, 40)).toBe(false);
      if (!r.ok) expect(r.error.span, c.slice(0, 40)).not.toBeNull();
    }
  });

  it("evaluates valid programs nested to the parser's limit", () => {
    const r = evaluateSource(`${"(+ 1 ".repeat(399)}1${")".repeat(399)}`, {
      ctx: createRuntimeContext(),
    });
    expect(r).toEqual({ ok: true, value: { kind: "integer", value: 400n } });
  });

  it("runs out of steps with a GasError naming the limit", () => {
    const r = evaluateSource("(fold (+) 0 (enumerate 1 100000))", {
      ctx: createRuntimeContext({ stepLimit: 50_000 }),
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe("GasError");
      expect(r.error.message).toContain("Gas limit (50000) exceeded");
    }
  });
});
