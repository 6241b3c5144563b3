/**
 * Native family: control flow and logic — `if`, `and`, `or`, `not`, `enforce`,
 * `enforce-one`, `try`, `bind`, and the version natives. Most take their
 * arguments unevaluated (lazy), as in the reference (§1.3).
 * @module
 */
import { failureOf } from "../errors.ts";
import type { Term, Value } from "../eval/term.ts";
import { pBool, pString, TRUE } from "../values/value.ts";
import { runBinding } from "./bindings.ts";
import { type Call, lazy, type NativeDef, strict } from "./native.ts";
import { shownOf, typeName } from "./valueGuards.ts";

/** The language version this interpreter implements (`pact-version`). */
export const PACT_VERSION = "4.13";

const ifNative = lazy("if", [3, 3], "cond:bool then:<a> else:<a> -> <a>", (c, args, env) => {
  const b = c.eval(args[0] as Term, env);
  if (b.kind !== "bool")
    throw c.evalError(
      c.offChain()
        ? `if: conditional not boolean: ${shownOf(b)}`
        : `if: conditional not boolean, received value of type: ${typeName(b)}`,
    );
  return c.eval((b.value ? args[1] : args[2]) as Term, env);
});

function logic(name: string, shortCircuitOn: boolean): NativeDef {
  return lazy(name, [2, 2], "x:bool y:bool -> bool", (c, args, env) => {
    const x = c.eval(args[0] as Term, env);
    if (x.kind !== "bool") throw c.argsError([x]);
    if (x.value === shortCircuitOn) return x;
    const y = c.eval(args[1] as Term, env);
    if (y.kind !== "bool") throw c.argsError([x, y]);
    return y;
  });
}

const not = strict("not", [1, 1], "x:bool -> bool", (c, args) => {
  const x = args[0] as Value;
  if (x.kind !== "bool") throw c.argsError(args);
  return pBool(!x.value);
});

const enforce = lazy("enforce", [2, 2], "test:bool msg:string -> bool", (c, args, env) => {
  // The test and the message are pure: no user-table access (§6).
  const t = c.ip.withPurity("sysonly", () => c.eval(args[0] as Term, env));
  if (t.kind === "bool" && t.value) return TRUE;
  // The message is evaluated only on failure (Pact ≥ 4.5).
  const m = c.ip.withPurity("sysonly", () => c.eval(args[1] as Term, env));
  if (t.kind !== "bool") throw c.argsError([t, m]);
  if (m.kind !== "string")
    throw c.evalError(
      c.offChain()
        ? `Invalid message argument, expected string ${shownOf(m)}`
        : `Invalid message argument, expected string, received argument of type: ${typeName(m)}`,
    );
  throw c.fail("TxFailure", m.value);
});

/**
 * Runs `f` read-only, turning a TxFailure into null (other failures
 * propagate); after a caught failure the call stack and the transaction's
 * evaluation state are as they were before.
 */
function catchTxFailure<T>(c: Call, f: () => T, anyFailure = false): T | null {
  const depth = c.ip.depth;
  const saved = c.ip.tx.snapshot();
  try {
    // `OldReadOnlyBehavior` keeps the reference's old failure when read-only
    // code starts inside sys-only code (a guard, a constant).
    if (c.ip.purity === "sysonly" && c.ctx.execFlags.has("OldReadOnlyBehavior"))
      throw c.evalError("internal error: attempting db read in sys-only context");
    return c.ip.withPurity("readonly", f);
  } catch (e) {
    const failure = failureOf(e);
    if (failure !== null && (anyFailure || failure.kind === "TxFailure")) {
      c.ip.unwindTo(depth);
      c.ip.tx.restore(saved);
      return null;
    }
    throw e;
  }
}

const enforceOne = lazy(
  "enforce-one",
  [2, 2],
  "msg:string tests:[bool] -> bool",
  (c, args, env) => {
    const msg = c.eval(args[0] as Term, env);
    if (msg.kind !== "string") throw c.argsError([msg]);
    const testsTerm = args[1] as Term;
    let tests: (() => Value)[];
    if (testsTerm.kind === "list") {
      tests = testsTerm.items.map((t) => () => c.eval(t, env));
    } else {
      const v = c.eval(testsTerm, env);
      if (v.kind !== "list") throw c.argsError([msg, v]);
      tests = v.items.map((x) => () => x);
    }
    for (const t of tests) {
      const r = catchTxFailure(c, t);
      if (r === null) continue;
      if (r.kind !== "bool") throw c.evalError("Failure: expected boolean result in enforce-one");
      if (r.value) return TRUE;
    }
    throw c.fail("TxFailure", msg.value);
  },
);

const tryNative = lazy("try", [2, 2], "default:<a> action:<a> -> <a>", (c, args, env) => {
  if (c.ctx.execFlags.has("DisablePact44")) {
    // Before Pact 4.4 the default was evaluated first and every failure was caught.
    const d = c.eval(args[0] as Term, env);
    return catchTxFailure(c, () => c.eval(args[1] as Term, env), true) ?? d;
  }
  const r = catchTxFailure(c, () => c.eval(args[1] as Term, env));
  return r ?? c.eval(args[0] as Term, env);
});

const bind = lazy(
  "bind",
  [2, 2],
  "src:object:<{row}> binding:binding:<{row}> -> <a>",
  (c, args, env) => {
    const src = c.eval(args[0] as Term, env);
    const b = args[1] as Term;
    if (b.kind !== "binding") throw c.argsError([src]);
    if (src.kind !== "object")
      throw c.evalError(
        c.offChain()
          ? `bind: expected object: ${shownOf(src)}`
          : `bind: expected object, received value of type: ${typeName(src)}`,
      );
    return runBinding(c, src.fields, b, env, (k) => `bind: key not found in object: ${k}`);
  },
);

const pactVersion = strict("pact-version", [0, 0], "-> string", () => pString(PACT_VERSION), {
  topLevelOnly: true,
});

function versionParts(c: Call, s: string): number[] {
  if (!/^\d+(\.\d+)*$/.test(s)) throw c.evalError(`invalid version string: ${s}`);
  return s.split(".").map(Number);
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const enforcePactVersion = strict(
  "enforce-pact-version",
  [1, 2],
  "min-version:string -> bool, min-version:string max-version:string -> bool",
  (c, args) => {
    const min = args[0] as Value;
    const max = args[1];
    if (min.kind !== "string" || (max !== undefined && max.kind !== "string"))
      throw c.argsError(args);
    const current = versionParts(c, PACT_VERSION);
    if (compareVersions(current, versionParts(c, min.value)) < 0) {
      throw c.evalError(`Invalid pact version ${PACT_VERSION}, minimum allowed: ${min.value}`);
    }
    if (
      max !== undefined &&
      max.kind === "string" &&
      compareVersions(current, versionParts(c, max.value)) > 0
    ) {
      throw c.evalError(`Invalid pact version ${PACT_VERSION}, maximum allowed: ${max.value}`);
    }
    return TRUE;
  },
  { topLevelOnly: true },
);

export const controlNatives: readonly NativeDef[] = [
  ifNative,
  logic("and", false),
  logic("or", true),
  not,
  enforce,
  enforceOne,
  tryNative,
  bind,
  pactVersion,
  enforcePactVersion,
];
