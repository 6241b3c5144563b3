/**
 * The evaluation boundary: source text in, a result value out. Contract
 * failures (syntax, evaluation, arguments, `enforce`, gas) come back as
 * `{ ok: false, error }`; only bugs are thrown.
 *
 * @example
 * ```ts
 * import { evaluateSource } from "./evaluate.ts";
 * import { createRuntimeContext } from "./eval/createRuntimeContext.ts";
 * const r = evaluateSource("(+ 1 2)", { file: "tx", ctx: createRuntimeContext() });
 * // r = { ok: true, value: { kind: "integer", value: 3n } }
 * ```
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";
import type { Result } from "../errors/result.ts";
import { ContractError, contractInvariant, failureOf, type PactError } from "./errors.ts";
import { compileTopLevel, type NativeTable } from "./eval/compile.ts";
import { Interpreter } from "./eval/interpreter.ts";
import { topLevelResolver } from "./eval/modules.ts";
import type { RuntimeContext } from "./eval/runtimeContext.ts";
import type { Value } from "./eval/term.ts";
import { coreNatives } from "./natives/nativeTable.ts";
import { parseProgram } from "./syntax/parser.ts";
import type { ParseNode } from "./syntax/parseTree.ts";
import type { Span } from "./syntax/span.ts";

export type EvalResult<T = Value> = Result<T, PactError>;

/**
 * Runs `f`, turning a thrown contract failure into `{ok:false}`. A JavaScript
 * stack overflow (input nested beyond what the guards caught) becomes an
 * EvalError too; every other exception is a bug, rethrown as a
 * `CONTRACT_INVARIANT` error with the original as its cause.
 */
export function guarded<T>(f: () => T, where: Span | null = null): EvalResult<T> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    const failure = failureOf(e);
    if (failure !== null) {
      // A failure without a position (e.g. from JSON input) takes the form's.
      return {
        ok: false,
        error: failure.span === null && where !== null ? { ...failure, span: where } : failure,
      };
    }
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      return {
        ok: false,
        error: {
          kind: "EvalError",
          message: "evaluation nested too deeply",
          span: where,
          callStack: [],
        },
      };
    }
    if (e instanceof ContractError) throw e;
    // A coded error of the host (an injected meter aborting the run: exec/timeLimit.ts) passes through.
    if (e instanceof NodeError) throw e;
    // Anything else escaping the evaluator is a bug: rethrow it coded, keeping the cause.
    throw contractInvariant(
      `unexpected exception: ${e instanceof Error ? e.message : String(e)}`,
      e,
    );
  }
}

/** Parses a program (a syntax failure is a value). */
export function parseSource(source: string, file: string): EvalResult<ParseNode[]> {
  return guarded(() => parseProgram(source, file));
}

/**
 * Compiles and evaluates one parsed top-level form (names resolve against
 * the modules the interpreter's storage and transaction know).
 */
export function evaluateForm(
  node: ParseNode,
  ip: Interpreter,
  natives: NativeTable = coreNatives,
): EvalResult {
  return guarded(
    () =>
      // A function as a form's value shows as the reference shows it (or fails on chain).
      ip.showFunction(
        ip.eval(
          compileTopLevel(node, natives, {
            source: ip.source ?? undefined,
            resolver: topLevelResolver(ip),
          }),
          null,
        ),
        node.span,
      ),
    node.span,
  );
}

/**
 * Evaluates every top-level form of `source` in order and returns the last
 * value (a transaction's result). Stops at the first failure.
 */
export function evaluateSource(
  source: string,
  opts: { file?: string | undefined; ctx: RuntimeContext; natives?: NativeTable | undefined },
): EvalResult {
  const natives = opts.natives ?? coreNatives;
  const parsed = parseSource(source, opts.file ?? "<input>");
  if (!parsed.ok) return parsed;
  if (parsed.value.length === 0) {
    const file = opts.file ?? "<input>";
    const span: Span = { file, line: 1, column: 0, offset: 0, end: source.length };
    return {
      ok: false,
      error: {
        kind: "SyntaxError",
        message: "expected at least one expression",
        span,
        callStack: [],
      },
    };
  }
  const ip = new Interpreter(opts.ctx, { natives, moduleNatives: natives, source });
  let last: EvalResult = {
    ok: false,
    error: { kind: "EvalError", message: "no forms", span: null, callStack: [] },
  };
  for (const node of parsed.value) {
    last = evaluateForm(node, ip, natives);
    if (!last.ok) return last;
  }
  return last;
}
