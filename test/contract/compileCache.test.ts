/**
 * compileTopLevel keeps the terms of forms that depend on their parse nodes
 * and natives alone (same node → same term), and compiles again whatever a
 * resolver, a schema or a module declaration took part in (module state may
 * differ between calls).
 */
import { describe, expect, it } from "vitest";
import { compileTopLevel, type NameResolver } from "../../src-node/contract/eval/compile.ts";
import type { Term } from "../../src-node/contract/eval/term.ts";
import { coreNatives } from "../../src-node/contract/natives/nativeTable.ts";
import { parseProgram } from "../../src-node/contract/syntax/parser.ts";

function node(code: string) {
  const [n] = parseProgram(code, "t");
  if (n === undefined) throw new Error("no form");
  return n;
}

describe("[contract] compileTopLevel cache", () => {
  it("reuses the term of a form of natives and literals", () => {
    const n = node('(let ((x 1)) (+ x (length "ab")))');
    const a = compileTopLevel(n, coreNatives);
    expect(compileTopLevel(n, coreNatives)).toBe(a);
    // Another node with the same text is compiled on its own.
    expect(compileTopLevel(node('(let ((x 1)) (+ x (length "ab")))'), coreNatives)).not.toBe(a);
  });

  it("compiles again a form that asked the resolver", () => {
    let calls = 0;
    const resolver: NameResolver = {
      resolve(_parts, span): Term {
        calls++;
        return { kind: "lit", value: { kind: "integer", value: BigInt(calls) }, span };
      },
      schema: () => null,
    };
    const n = node("(+ 1 coin.x)");
    const a = compileTopLevel(n, coreNatives, { resolver });
    const b = compileTopLevel(n, coreNatives, { resolver });
    expect(b).not.toBe(a);
    expect(calls).toBe(2);
    const s = node("(lambda (o:object{s}) o)");
    expect(compileTopLevel(s, coreNatives, { resolver })).not.toBe(
      compileTopLevel(s, coreNatives, { resolver }),
    );
  });
});
