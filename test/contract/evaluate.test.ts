/**
 * The evaluation boundary: results as values, error kinds, call stacks,
 * determinism, and bugs thrown as coded invariant errors.
 */
import { describe, expect, it } from "vitest";
import {
  ContractError,
  ContractErrorCode,
  renderPactError,
} from "../../src-node/contract/errors.ts";
import { createRuntimeContext } from "../../src-node/contract/eval/createRuntimeContext.ts";
import { evaluateSource } from "../../src-node/contract/evaluate.ts";
import { strict } from "../../src-node/contract/natives/native.ts";
import { buildNativeTable, coreNatives } from "../../src-node/contract/natives/nativeTable.ts";
import { ReplSession } from "../../src-node/contract/repl/replSession.ts";
import { makeObject, pString } from "../../src-node/contract/values/value.ts";

const ev = (src: string, opts: Parameters<typeof createRuntimeContext>[0] = {}) =>
  evaluateSource(src, { file: "tx", ctx: createRuntimeContext(opts) });

describe("[contract] evaluateSource", () => {
  it("returns the last form's value", () => {
    expect(ev("(+ 1 2) (* 2 3)")).toEqual({ ok: true, value: { kind: "integer", value: 6n } });
  });

  it("reports each error kind with a position", () => {
    const kinds: [string, string][] = [
      ["(+ 1", "SyntaxError"],
      ['(enforce false "no")', "TxFailure"],
      ['(+ 1 "a")', "ArgsError"],
      ["(/ 1 0)", "EvalError"],
      ["(fold (+) 0 (enumerate 1 100000))", "GasError"],
    ];
    for (const [src, kind] of kinds) {
      const r = ev(src, { stepLimit: 10_000 });
      expect(r.ok, src).toBe(false);
      if (!r.ok) {
        expect(r.error.kind, src).toBe(kind);
        expect(r.error.span?.file, src).toBe("tx");
      }
    }
  });

  it("renders errors like the reference, with the Tx Failed prefix for TxFailure", () => {
    const r = ev('\n  (enforce false "Insufficient funds")');
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(renderPactError(r.error)).toBe("tx:2:2: Failure: Tx Failed: Insufficient funds");
  });

  it("carries a call stack, innermost first", () => {
    const r = ev('(map (lambda (x) (enforce (< x 2) "too big")) [1 2])');
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error.callStack).toEqual(["tx:1:17: enforce", "tx:1:0: lambda", "tx:1:0: map"]);
  });

  it("reads only its context: same input, same output", () => {
    const ctx = () =>
      createRuntimeContext({
        data: makeObject([["k", pString("v")]]),
        txHash: "Mk3PAn3UowqTLEQfNlol6GsXPe-kuOWJSCU0cbgbcs8",
      });
    const src = '(format "{} {} {}" [(read-msg "k") (tx-hash) (chain-data)])';
    const a = evaluateSource(src, { ctx: ctx() });
    const b = evaluateSource(src, { ctx: ctx() });
    expect(a).toEqual(b);
    expect(a.ok && a.value.kind === "string" && a.value.value.startsWith("v Mk3P")).toBe(true);
  });

  it("rejects an empty program with a position", () => {
    const r = ev("  ; only a comment");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ kind: "SyntaxError", span: { line: 1, column: 0 } });
  });

  it("throws a coded invariant error for bugs instead of returning a failure", () => {
    const buggy = strict("buggy", [0, 0], "-> string", () => {
      throw new TypeError("a bug");
    });
    const natives = buildNativeTable([...coreNatives.values()], [buggy]);
    let thrown: unknown;
    try {
      evaluateSource("(buggy)", { ctx: createRuntimeContext(), natives });
    } catch (e) {
      thrown = e;
    }
    expect(thrown instanceof ContractError && thrown.code).toBe(ContractErrorCode.Invariant);
    expect(thrown instanceof Error && thrown.cause instanceof TypeError).toBe(true);
    expect(() => buildNativeTable([buggy], [buggy])).toThrow(ContractError);
    try {
      buildNativeTable([buggy], [buggy]);
    } catch (e) {
      expect(e instanceof ContractError && e.code).toBe(ContractErrorCode.Invariant);
    }
  });
});

describe("[contract] repl session reports", () => {
  it("reports failed expectations with their line and keeps going", () => {
    const s = new ReplSession();
    const report = s.runScript(
      '(expect "ok" 1 1)\n\n(expect "bad" 1 2)\n(expect-failure "no failure" (+ 1 1))\n(expect "after" 2 2)',
      "x.repl",
    );
    expect(report.error).toBeNull();
    expect(report.expectations.map((e) => [e.line, e.ok, e.message])).toEqual([
      [1, true, "Expect: success: ok"],
      [3, false, "FAILURE: bad: expected 1 (integer), received 2 (integer)"],
      [4, false, "FAILURE: no failure: expected failure, got result = 2 (integer)"],
      [5, true, "Expect: success: after"],
    ]);
  });

  it("stops at an uncaught error and reports it", () => {
    const s = new ReplSession();
    const report = s.runScript('(expect "a" 1 1)\n(/ 1 0)\n(expect "never" 1 1)', "y.repl");
    expect(report.expectations).toHaveLength(1);
    expect(report.error?.rendered).toBe("y.repl:2:0: Failure: Division by 0");
  });

  it("loads files only through the injected reader", () => {
    const read: string[] = [];
    const s = new ReplSession({
      readFile: (p) => {
        read.push(p);
        return '(expect "inner" 1 1)';
      },
    });
    const report = s.runScript('(load "sub/inner.repl")', "dir/outer.repl");
    expect(read).toEqual(["dir/sub/inner.repl"]);
    expect(report.expectations[0]).toMatchObject({ file: "dir/sub/inner.repl", line: 1, ok: true });
    const noReader = new ReplSession().runScript('(load "x.repl")', "a.repl");
    expect(noReader.error?.rendered).toContain("no file reader configured");
  });
});
