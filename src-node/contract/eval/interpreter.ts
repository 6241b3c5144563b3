/**
 * The evaluator: a tree-walking interpreter over terms (`switch (term.kind)`
 * ending in a never-check). Deterministic: everything it knows comes from the
 * {@link RuntimeContext}. Contract failures are thrown as `ContractError`s
 * carrying a call stack and turned into values by `evaluate.ts`.
 * @module
 */
import { type ContractError, contractFailure, type PactErrorKind, renderInfo } from "../errors.ts";
import { Call, type NativeDef } from "../natives/native.ts";
import type { TypeAnn } from "../syntax/parseTree.ts";
import { renderType } from "../syntax/parseTree.ts";
import type { Span } from "../syntax/span.ts";
import { typeOfValue, valueHasType } from "../values/typeOf.ts";
import { makeObject, type PactValue } from "../values/value.ts";
import type { RuntimeContext } from "./runtimeContext.ts";
import {
  type Callable,
  type Closure,
  type Env,
  isCallable,
  type NativeFn,
  type Term,
  type Value,
} from "./term.ts";

type Frame = { readonly name: string; readonly span: Span };

/** Deepest call nesting accepted (there is no recursion in part 1; this is a guard). */
export const MAX_CALL_DEPTH = 1000;

const nativeFnCache = new WeakMap<NativeDef, NativeFn>();
function nativeFn(def: NativeDef): NativeFn {
  let f = nativeFnCache.get(def);
  if (f === undefined) {
    f = { kind: "nativeFn", def };
    nativeFnCache.set(def, f);
  }
  return f;
}

function callableName(f: Callable): string {
  switch (f.kind) {
    case "closure":
      return f.name;
    case "nativeFn":
      return f.def.name;
    case "partial":
      return callableName(f.fn);
    default: {
      const never: never = f;
      return never;
    }
  }
}

export class Interpreter {
  readonly ctx: RuntimeContext;
  private readonly stack: Frame[] = [];

  constructor(ctx: RuntimeContext) {
    this.ctx = ctx;
  }

  /** A failure at `span` carrying the current call stack (innermost first). */
  failure(kind: PactErrorKind, message: string, span: Span | null): ContractError {
    const frames: string[] = [];
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const f = this.stack[i] as Frame;
      frames.push(`${renderInfo(f.span)}: ${f.name}`);
    }
    return contractFailure(kind, message, span, frames);
  }

  /** Charges the meter; past its limit, a GasError at `span`. */
  charge(units: number, span: Span): void {
    const m = this.ctx.meter;
    if (!m.charge(units))
      throw this.failure("GasError", `Gas limit (${m.limit}) exceeded: ${m.used}`, span);
  }

  /** Current call depth (for natives that must run only at the top level). */
  get depth(): number {
    return this.stack.length;
  }

  /** True when any closure frame is on the stack (part 2: module code). */
  inFunction(): boolean {
    return this.stack.length > 0;
  }

  eval(t: Term, env: Env | null): Value {
    switch (t.kind) {
      case "lit":
        return t.value;
      case "local": {
        let e = env;
        for (let d = t.depth; d > 0 && e !== null; d--) e = e.parent;
        const v = e?.vals[t.index];
        if (v === undefined) throw this.failure("EvalError", `unbound variable ${t.name}`, t.span);
        return v;
      }
      case "native":
        return nativeFn(t.def);
      case "app":
        return this.evalApp(t, env);
      case "list": {
        const items: PactValue[] = [];
        for (const x of t.items) items.push(this.data(this.eval(x, env), x.span, "a list element"));
        return { kind: "list", items };
      }
      case "object": {
        const entries: [string, PactValue][] = [];
        for (let i = 0; i < t.keys.length; i++) {
          const vt = t.values[i] as Term;
          entries.push([
            t.keys[i] as string,
            this.data(this.eval(vt, env), vt.span, "an object field"),
          ]);
        }
        return makeObject(entries);
      }
      case "let": {
        this.charge(1, t.span);
        const vals: Value[] = [];
        for (let i = 0; i < t.values.length; i++) {
          const v = this.eval(t.values[i] as Term, env);
          const p = t.params[i];
          if (p !== undefined && p.type !== null) this.checkType(v, p.type, p.span, p.name);
          vals.push(v);
        }
        return this.evalBody(t.body, { vals, parent: env });
      }
      case "lambda": {
        const c: Closure = {
          kind: "closure",
          name: "lambda",
          params: t.params,
          ret: t.ret,
          body: t.body,
          env,
          span: t.span,
        };
        return c;
      }
      case "binding":
        throw this.failure(
          "EvalError",
          "a binding form is only allowed as an argument of bind",
          t.span,
        );
      case "free":
        throw this.failure("EvalError", `Cannot resolve ${t.name}`, t.span);
      case "dynamic":
        throw this.failure(
          "EvalError",
          `Cannot resolve ${t.ref}::${t.member}: module references are not supported yet`,
          t.span,
        );
      case "unsupported":
        throw this.failure(
          "EvalError",
          `${t.form}: module declarations are not supported yet`,
          t.span,
        );
      default: {
        const never: never = t;
        return never;
      }
    }
  }

  evalBody(body: readonly Term[], env: Env | null): Value {
    let r: Value | undefined;
    for (const b of body) r = this.eval(b, env);
    if (r === undefined) throw this.failure("EvalError", "empty body", null);
    return r;
  }

  /** A data value, or a failure when a function appears where data is required. */
  data(v: Value, span: Span, what: string): PactValue {
    if (isCallable(v))
      throw this.failure("EvalError", `${what} cannot be a function (${callableName(v)})`, span);
    return v;
  }

  checkType(v: Value, t: TypeAnn, span: Span, name: string): void {
    if (isCallable(v)) {
      throw this.failure(
        "EvalError",
        `Type error: ${name}: expected ${renderType(t)}, found a function`,
        span,
      );
    }
    if (!valueHasType(v, t)) {
      throw this.failure(
        "EvalError",
        `Type error: expected ${renderType(t)}, found ${typeOfValue(v)}`,
        span,
      );
    }
  }

  /** Evaluates an argument in a function position: an under-applied call becomes a partial application. */
  evalFnArg(t: Term, env: Env | null): Value {
    if (t.kind === "app") {
      const fn = this.eval(t.fn, env);
      if (!isCallable(fn)) throw this.failure("EvalError", "expected a function", t.fn.span);
      const fnArgs = fn.kind === "nativeFn" && !fn.def.lazy ? fn.def.fnArgs : undefined;
      const args: Value[] = [];
      for (let i = 0; i < t.args.length; i++) {
        const a = t.args[i] as Term;
        args.push(
          fnArgs !== undefined && fnArgs.includes(i) ? this.evalFnArg(a, env) : this.eval(a, env),
        );
      }
      return { kind: "partial", fn, args, span: t.span };
    }
    return this.eval(t, env);
  }

  evalApp(t: Extract<Term, { kind: "app" }>, env: Env | null): Value {
    this.charge(1, t.span);
    const fnT = t.fn;
    if (fnT.kind === "native") {
      const def = fnT.def;
      if (def.lazy) {
        this.checkArity(def, t.args.length, t.span);
        return this.withFrame(def.name, t.span, () =>
          def.impl(new Call(this, def, t.span), t.args, env),
        );
      }
      const args: Value[] = new Array(t.args.length);
      const fnArgs = def.fnArgs;
      for (let i = 0; i < t.args.length; i++) {
        const a = t.args[i] as Term;
        args[i] =
          fnArgs !== undefined && fnArgs.includes(i) ? this.evalFnArg(a, env) : this.eval(a, env);
      }
      return this.callNative(def, args, t.span);
    }
    const f = this.eval(fnT, env);
    if (!isCallable(f))
      throw this.failure(
        "EvalError",
        `cannot apply a ${typeOfValue(f)} value as a function`,
        fnT.span,
      );
    const args: Value[] = new Array(t.args.length);
    for (let i = 0; i < t.args.length; i++) args[i] = this.eval(t.args[i] as Term, env);
    return this.apply(f, args, t.span);
  }

  checkArity(def: NativeDef, n: number, span: Span): void {
    if (n < def.arity.min || n > def.arity.max) {
      throw this.failure(
        "ArgsError",
        `Invalid arguments in call to ${def.name}: expected ${def.arity.min === def.arity.max ? def.arity.min : `${def.arity.min} to ${def.arity.max === Number.POSITIVE_INFINITY ? "any number of" : def.arity.max}`} arguments, received ${n}; expected ${def.sig}`,
        span,
      );
    }
  }

  callNative(def: NativeDef, args: Value[], span: Span): Value {
    this.charge(1, span);
    this.checkArity(def, args.length, span);
    const call = new Call(this, def, span);
    if (def.lazy) {
      const terms: Term[] = args.map((a) =>
        isCallable(a)
          ? { kind: "local", depth: 0, index: 0, name: "fn", span }
          : { kind: "lit", value: a, span },
      );
      const fns = args.filter(isCallable);
      if (fns.length > 0)
        throw this.failure("EvalError", `${def.name}: cannot take function arguments here`, span);
      return this.withFrame(def.name, span, () => def.impl(call, terms, null));
    }
    this.stack.push({ name: def.name, span });
    if (this.stack.length > MAX_CALL_DEPTH)
      throw this.failure("EvalError", "call stack too deep", span);
    const r = def.impl(call, args);
    this.stack.pop();
    return r;
  }

  withFrame<T>(name: string, span: Span, f: () => T): T {
    this.stack.push({ name, span });
    if (this.stack.length > MAX_CALL_DEPTH)
      throw this.failure("EvalError", "call stack too deep", span);
    const r = f();
    this.stack.pop();
    return r;
  }

  /** Applies a function value to evaluated arguments. */
  apply(f: Callable, args: Value[], span: Span): Value {
    switch (f.kind) {
      case "nativeFn":
        return this.callNative(f.def, args, span);
      case "partial":
        return this.apply(f.fn, [...f.args, ...args], span);
      case "closure": {
        this.charge(1, span);
        if (args.length !== f.params.length) {
          throw this.failure(
            "ArgsError",
            `Incorrect number of arguments to ${f.name}: expected ${f.params.length}, received ${args.length}`,
            span,
          );
        }
        for (let i = 0; i < args.length; i++) {
          const p = f.params[i];
          if (p !== undefined && p.type !== null)
            this.checkType(args[i] as Value, p.type, span, p.name);
        }
        this.stack.push({ name: f.name, span });
        if (this.stack.length > MAX_CALL_DEPTH)
          throw this.failure("EvalError", "call stack too deep", span);
        const r = this.evalBody(f.body, { vals: args, parent: f.env });
        this.stack.pop();
        if (f.ret !== null) this.checkType(r, f.ret, span, `${f.name} result`);
        return r;
      }
      default: {
        const never: never = f;
        return never;
      }
    }
  }

  /**
   * Restores the call stack to `depth` after a failure was caught (by `try`,
   * `enforce-one`, `expect-failure`), since a thrown failure skips the pops.
   */
  unwindTo(depth: number): void {
    this.stack.length = depth;
  }
}
