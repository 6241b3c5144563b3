/**
 * The evaluator: a tree-walking interpreter over terms (`switch (term.kind)`
 * ending in a never-check). Deterministic: everything it knows comes from the
 * {@link RuntimeContext} and the transaction's {@link TxState}. Contract
 * failures are thrown as `ContractError`s carrying a call stack and turned
 * into values by `evaluate.ts`.
 *
 * Besides the call stack it keeps the dynamic state the reference keeps
 * while evaluating: the purity of the current code (sys-only inside
 * `enforce`, guards and constants; read-only inside `try` and
 * `enforce-one`), the capabilities whose body is being evaluated (signature
 * scoping, §4.5), whether a defcap body is running and which capabilities it
 * composes, and the defpact step being executed. Each is set for the extent
 * of one call and restored on the way out, failures included.
 * @module
 */
import { type ContractError, contractFailure, type PactErrorKind, renderInfo } from "../errors.ts";
import { argsErrorText, Call, type NativeDef, termValue } from "../natives/native.ts";
import type { SysRecords, SysTable } from "../storage/contractStorage.ts";
import { sysRecordToText } from "../storage/storedValue.ts";
import type { Span } from "../syntax/span.ts";
import { pactValueToJsonText } from "../values/json.ts";
import { showValue } from "../values/render.ts";
import { makeObject, type PactValue, pString } from "../values/value.ts";
import type { NativeTable } from "./compile.ts";
import type { FunctionDef, LoadedModule } from "./definitions.ts";
import { startPact } from "./defpacts.ts";
import { functionDetails } from "./functionDetails.ts";
import {
  FREE_STEPS,
  GAS_FREE_OUTPUT_SIZE,
  GAS_USER_APPLICATION,
  GAS_VALUE_SIZE_PER_UNIT,
  GAS_WRITE_BYTES_PER_UNIT,
  MAX_VALUE_SIZE,
  nativeGasCost,
  valueSize,
  valueSizeGas,
} from "./gasTable.ts";
import { applyUse, evalDynamic, installModule, resolveFreeAtEval } from "./modules.ts";
import type { PactStepContext } from "./pactStep.ts";
import type { RuntimeContext, SigCapability } from "./runtimeContext.ts";
import {
  keysetSize,
  memoryGas,
  namespaceSize,
  objectMapSize,
  type SizeOfVersion,
  textSize,
} from "./sizeOf.ts";
import {
  type Callable,
  type Closure,
  type Env,
  isCallable,
  isOpaque,
  type NativeFn,
  type Term,
  type TypeSpec,
  type UserFn,
  type Value,
} from "./term.ts";
import { type CapSlot, TxState } from "./txState.ts";
import { typeMismatch, typeNameOf } from "./typeSpec.ts";

type Frame = {
  readonly name: string;
  readonly span: Span;
  readonly def: FunctionDef | null;
  /** The module whose code this frame runs (a function's, or a constant's being evaluated). */
  readonly module: LoadedModule | null;
};

/** Deepest call nesting accepted (a guard; recursion is rejected anyway). */
export const MAX_CALL_DEPTH = 1000;

// Read once here: under tsx (benchmarks, development) modules load as CommonJS,
// where every use of an imported binding calls a getter; `charge` runs per step.
const FREE = FREE_STEPS;

/** What the running code may touch in the database. */
export type Purity = "impure" | "readonly" | "sysonly";

const nativeFnCache = new WeakMap<NativeDef, NativeFn>();
function nativeFn(def: NativeDef): NativeFn {
  let f = nativeFnCache.get(def);
  if (f === undefined) {
    f = { kind: "nativeFn", def };
    nativeFnCache.set(def, f);
  }
  return f;
}

const userFnCache = new WeakMap<FunctionDef, UserFn>();
export function userFn(def: FunctionDef): UserFn {
  let f = userFnCache.get(def);
  if (f === undefined) {
    f = { kind: "userFn", def };
    userFnCache.set(def, f);
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
    case "userFn":
      return f.def.fqName;
    default: {
      const never: never = f;
      return never;
    }
  }
}

/** The reference's text for applying a value that is not a function (changed by Pact 4.8). */
function notCallable(ip: Interpreter, f: Value): string {
  if (ip.ctx.execFlags.has("DisablePact48")) {
    if (f.kind === "string") return f.value;
    return `Unexpected non-native direct ref: ${isOpaque(f) ? typeNameOf(f) : showValue(f)}`;
  }
  return `Tried to call a value which is not a function, but a(n) ${typeNameOf(f)}`;
}

export type InterpreterOptions = {
  readonly tx?: TxState | undefined;
  /** Natives of top-level code (the repl adds its own). */
  readonly natives?: NativeTable | undefined;
  /** Natives module code may use (the core table unless repl natives are enabled). */
  readonly moduleNatives?: NativeTable | undefined;
  /** Source text of the forms being evaluated (module declarations hash it). */
  readonly source?: string | undefined;
};

export class Interpreter {
  /** Replaced only for the extent of the repl's `with-applied-env`. */
  ctx: RuntimeContext;
  readonly tx: TxState;
  readonly natives: NativeTable | null;
  readonly moduleNatives: NativeTable | null;
  source: string | null;
  private readonly stack: Frame[] = [];
  private readonly active = new Set<FunctionDef>();
  purity: Purity = "impure";
  /** Capabilities whose defcap body is being evaluated (signature scoping, §4.5). */
  capsBeingEvaluated: readonly SigCapability[] = [];
  /** True while a defcap body runs (`with-capability` is refused there). */
  inDefcap = false;
  /** Capabilities whose defcap body runs now (outermost first), with what each composed so far. */
  readonly testing: CapSlot[] = [];
  /** Capabilities composed by the defcap body running now. */
  composing: SigCapability[] | null = null;
  /** The defpact step being executed. */
  pactStep: PactStepContext | null = null;
  /** The last strict native call's handle and frame (reused by the next call of it at the same place). */
  private lastCall: Call | null = null;
  private lastCallFrame: Frame | null = null;
  private lastCallCost = 0;
  /** The last lambda application's frame (reused likewise). */
  private lastLambdaFrame: Frame | null = null;

  constructor(ctx: RuntimeContext, opts: InterpreterOptions = {}) {
    this.ctx = ctx;
    this.tx = opts.tx ?? new TxState();
    this.natives = opts.natives ?? null;
    this.moduleNatives = opts.moduleNatives ?? opts.natives ?? null;
    this.source = opts.source ?? null;
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

  /** Charges the work meter; past its limit, a GasError at `span`. */
  charge(units: number, span: Span): void {
    const m = this.ctx.meter;
    if (!m.charge(units))
      throw this.failure("GasError", `Gas limit (${m.limit}) exceeded: ${m.used}`, span);
    // Past the free steps of this evaluation, each step is also a gas (eval/gasTable.ts).
    if (m.used > FREE) this.chargeSizeGas(Math.min(units, m.used - FREE), span);
  }

  /** Charges contract gas (before the work it pays for); past the limit, a GasError. */
  chargeGas(units: number, span: Span): void {
    const g = this.ctx.gas;
    if (!g.charge(units))
      throw this.failure("GasError", `Gas limit (${g.limit}) exceeded: ${g.used}`, span);
  }

  /** Charges a size-based gas cost (eval/gasTable.ts) before the work; past the limit, a GasError. */
  chargeSizeGas(units: number, span: Span): void {
    if (units === 0) return;
    const g = this.ctx.gas;
    const ok = g.chargeSize !== undefined ? g.chargeSize(units) : g.charge(units);
    if (!ok) throw this.failure("GasError", `Gas limit (${g.limit}) exceeded: ${g.used}`, span);
  }

  /** The memory bound: a GasError before building or walking something too large. */
  tooLarge(what: string, size: number, max: number, span: Span): ContractError {
    return this.failure("GasError", `${what} too large: ${size} exceeds ${max}`, span);
  }

  /**
   * Charges for traversing `v` (rendering, JSON, hashing, comparing, writing)
   * by its deep size, walking no further than the gas left affords or the
   * memory bound allows; returns the size.
   */
  chargeValueSize(v: PactValue, span: Span): number {
    const g = this.ctx.gas;
    const budget = g.sizeBudget !== undefined ? g.sizeBudget() : g.limit - g.used;
    const affordable = (budget + 1) * GAS_VALUE_SIZE_PER_UNIT;
    const size = valueSize(v, Math.min(MAX_VALUE_SIZE, affordable));
    if (size > MAX_VALUE_SIZE) throw this.tooLarge("value", size, MAX_VALUE_SIZE, span);
    this.chargeSizeGas(valueSizeGas(size), span);
    return size;
  }

  /**
   * The largest {@link valueSize} {@link boundValueSize} lets pass at
   * `sizePerGas` (a native measuring its input its own way compares with it).
   */
  boundValueCap(sizePerGas: number): number {
    const g = this.ctx.gas;
    const budget = g.sizeBudget !== undefined ? g.sizeBudget() : g.limit - g.used;
    return Math.min(MAX_VALUE_SIZE, (budget + 1) * sizePerGas * 2);
  }

  /**
   * The memory bound of work charged by its output (a write by its JSON
   * bytes, `format` by its text): walks `v` only as far as the gas left could
   * pay for at `sizePerGas` size units per gas (with room for {@link valueSize}
   * counting more than the text's bytes), failing with a GasError past that or
   * past the memory bound, so the text is never built when it cannot be paid.
   */
  boundValueSize(v: PactValue, sizePerGas: number, span: Span): void {
    const g = this.ctx.gas;
    const budget = g.sizeBudget !== undefined ? g.sizeBudget() : g.limit - g.used;
    const cap = this.boundValueCap(sizePerGas);
    const size = valueSize(v, cap);
    if (size > MAX_VALUE_SIZE) throw this.tooLarge("value", size, MAX_VALUE_SIZE, span);
    if (size > cap) this.chargeSizeGas(budget + 1, span);
  }

  /**
   * Charges a command's output (its result and events, rendered as JSON
   * outside the evaluator) by size past GAS_FREE_OUTPUT_SIZE, so that a small
   * value built by sharing (a list of lists of one long string) cannot make
   * the node render megabytes for little gas.
   */
  chargeOutputSize(values: readonly PactValue[], span: Span): void {
    const g = this.ctx.gas;
    let budget = g.sizeBudget !== undefined ? g.sizeBudget() : g.limit - g.used;
    let size = 0;
    for (const v of values) {
      const cap = Math.min(
        MAX_VALUE_SIZE,
        GAS_FREE_OUTPUT_SIZE + (budget + 1) * GAS_VALUE_SIZE_PER_UNIT,
      );
      size += valueSize(v, cap);
      if (size > MAX_VALUE_SIZE) throw this.tooLarge("output", size, MAX_VALUE_SIZE, span);
      const due = valueSizeGas(Math.max(0, size - GAS_FREE_OUTPUT_SIZE));
      this.chargeSizeGas(due, span);
      size = 0;
      budget = g.sizeBudget !== undefined ? g.sizeBudget() : g.limit - g.used;
    }
  }

  /** Charges for comparing two values deeply: the smaller one's size (equality stops there). */
  chargeSmallerValue(x: PactValue, y: PactValue, span: Span): void {
    const g = this.ctx.gas;
    const budget = g.sizeBudget !== undefined ? g.sizeBudget() : g.limit - g.used;
    const cap = Math.min(MAX_VALUE_SIZE, (budget + 1) * GAS_VALUE_SIZE_PER_UNIT);
    const sx = valueSize(x, cap);
    const size = Math.min(sx, valueSize(y, Math.min(sx, cap)));
    if (size > MAX_VALUE_SIZE) throw this.tooLarge("value", size, MAX_VALUE_SIZE, span);
    this.chargeSizeGas(valueSizeGas(size), span);
  }

  /** Current call depth. */
  get depth(): number {
    return this.stack.length;
  }

  /** True when any function frame is on the stack. */
  inFunction(): boolean {
    return this.stack.length > 0;
  }

  /** The module of the innermost module function on the stack, or null at the top level. */
  moduleFrame(): LoadedModule | null {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const m = (this.stack[i] as Frame).module;
      if (m !== null) return m;
    }
    return null;
  }

  /**
   * True when the innermost module function on the stack is a defcap: only
   * there may `compose-capability` run (Pact's `defcapInStack (Just 1)`), not
   * in a defun a defcap body calls.
   */
  innermostIsDefcap(): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const d = (this.stack[i] as Frame).def;
      if (d !== null) return d.kind === "defcap";
    }
    return false;
  }

  /** True when some function of module `fq` is on the stack. */
  moduleOnStack(fq: string): boolean {
    for (const f of this.stack) if (f.module !== null && f.module.fq === fq) return true;
    return false;
  }

  /** Runs `f` as code of module `m` (constants are evaluated so). */
  inModule<T>(m: LoadedModule, name: string, span: Span, f: () => T): T {
    this.stack.push({ name, span, def: null, module: m });
    const r = f();
    this.stack.pop();
    return r;
  }

  /** The reference's size estimates in force (`SizeOf` V0 under DisablePact45). */
  sizeOfVersion(): SizeOfVersion {
    return this.ctx.execFlags.has("DisablePact45") ? 0 : 1;
  }

  /**
   * Writes a system record: gas by its size as the reference charges it
   * (keysets by name and keyset, namespaces by the record; modules are
   * charged by `installModule`, defpact state by `yield`), the write itself,
   * and the transaction's log.
   */
  writeSys<T extends SysTable>(table: T, key: string, value: SysRecords[T], span: Span): void {
    const ver = this.sizeOfVersion();
    if (table === "keysets")
      this.chargeGas(
        memoryGas(textSize(key)) + memoryGas(keysetSize(ver, value as SysRecords["keysets"])),
        span,
      );
    else if (table === "namespaces") {
      const ns = value as SysRecords["namespaces"];
      this.chargeGas(memoryGas(namespaceSize(ver, ns.name, ns.user, ns.admin)), span);
    }
    const text = sysRecordToText(table, value);
    this.ctx.storage.writeSys(table, key, value);
    this.tx.writes.push({ table: `SYS:${table}`, key, value: text });
  }

  /**
   * Writes a user-table row: gas by the size of the key and of the object
   * given (`charged`: for an update, only the fields it sets), as the
   * reference's `SizeOf`, then the write and the transaction's log.
   */
  writeRow(
    table: string,
    key: string,
    row: PactValue,
    span: Span,
    charged: ReadonlyMap<string, PactValue> | null = null,
  ): void {
    // The row's size is bounded before its JSON text is built (the write's charge follows).
    this.boundValueSize(row, GAS_WRITE_BYTES_PER_UNIT, span);
    const fields = charged ?? (row.kind === "object" ? row.fields : new Map());
    const ver = this.sizeOfVersion();
    this.chargeGas(memoryGas(textSize(key)) + memoryGas(objectMapSize(ver, fields)), span);
    const text = pactValueToJsonText(row);
    this.ctx.storage.writeRow(table, key, row);
    this.tx.writes.push({ table, key, value: text });
  }

  /** Runs `f` with `purity` at least as strict as given. */
  withPurity<T>(p: Purity, f: () => T): T {
    const saved = this.purity;
    if (saved === "sysonly" || (saved === "readonly" && p === "impure")) return f();
    this.purity = p;
    try {
      return f();
    } finally {
      this.purity = saved;
    }
  }

  eval(t: Term, env: Env | null): Value {
    switch (t.kind) {
      case "lit":
        // Before Pact 4.9 a module reference kept where its name was written (the repl
        // keeps source positions; on chain the reference strips them).
        if (
          t.info !== undefined &&
          t.value.kind === "modref" &&
          this.ctx.inRepl === true &&
          this.ctx.execFlags.has("DisablePact49")
        )
          return { ...t.value, info: t.info };
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
      case "def": {
        const d = t.cell.def;
        if (d === null)
          throw this.failure("EvalError", `Cannot resolve ${t.cell.name}: not defined yet`, t.span);
        switch (d.kind) {
          case "defun":
          case "defcap":
          case "defpact":
            return userFn(d);
          case "defconst":
            return d.value;
          case "deftable":
            return { kind: "table", def: d };
          case "defschema":
            return { kind: "schema", def: d };
          default: {
            const never: never = d;
            return never;
          }
        }
      }
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
        return resolveFreeAtEval(this, t.name, t.span);
      case "dynamic":
        return evalDynamic(this, t, env);
      case "moduleDecl":
        return installModule(this, t);
      case "use":
        return applyUse(this, t);
      case "invalid":
        throw this.failure("SyntaxError", t.message, t.span);
      case "unsupported":
        throw this.failure(
          "EvalError",
          t.form === "module" || t.form === "interface" || t.form === "use"
            ? `${t.form}: only allowed at the top level`
            : `${t.form}: only allowed inside a module`,
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

  /** A data value, or a failure when a function (or table) appears where data is required. */
  data(v: Value, span: Span, what: string): PactValue {
    if (isOpaque(v)) {
      const name = isCallable(v) ? callableName(v) : typeNameOf(v);
      throw this.failure(
        "EvalError",
        `${what} cannot be a ${isCallable(v) ? "function" : "table or schema"} (${name})`,
        span,
      );
    }
    // Since Pact 4.9 a value's module references lose where they were written.
    if (v.kind === "modref" && v.info !== undefined && !this.ctx.execFlags.has("DisablePact49"))
      return { kind: "modref", module: v.module, spec: v.spec };
    return v;
  }

  checkType(v: Value, t: TypeSpec, span: Span, name: string): void {
    if (isCallable(v) && t.kind !== "any") {
      throw this.failure(
        "EvalError",
        `Type error: ${name}: expected ${typeNameOf(v)}, found a function`,
        span,
      );
    }
    const why = typeMismatch(v, t);
    if (why !== null) throw this.failure("EvalError", `Type error: ${why}`, span);
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
        args.push(fnArgs?.includes(i) ? this.evalFnArg(a, env) : this.eval(a, env));
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
        if (t.args.length < def.arity.min || t.args.length > def.arity.max)
          this.checkArity(def, t.args.map(termValue), t.span);
        this.nativeEntry(def, t.span);
        return this.withFrame(def.name, t.span, () =>
          def.impl(new Call(this, def, t.span), t.args, env),
        );
      }
      const args: Value[] = new Array(t.args.length);
      const fnArgs = def.fnArgs;
      for (let i = 0; i < t.args.length; i++) {
        const a = t.args[i] as Term;
        args[i] = fnArgs?.includes(i) ? this.evalFnArg(a, env) : this.eval(a, env);
      }
      return this.callNative(def, args, t.span);
    }
    const f = this.eval(fnT, env);
    if (!isCallable(f)) throw this.failure("EvalError", notCallable(this, f), fnT.span);
    const args: Value[] = new Array(t.args.length);
    for (let i = 0; i < t.args.length; i++) args[i] = this.eval(t.args[i] as Term, env);
    return this.apply(f, args, t.span);
  }

  checkArity(def: NativeDef, args: readonly (Value | null)[], span: Span): void {
    const n = args.length;
    if (n < def.arity.min || n > def.arity.max)
      throw this.failure("ArgsError", argsErrorText(this, def, args), span);
  }

  /** Checks made before any native runs: top-level-only natives, then gas. */
  private nativeEntry(def: NativeDef, span: Span): void {
    if (def.topLevelOnly === true) {
      const m = this.moduleFrame();
      if (m !== null)
        throw this.failure("EvalError", `Top-level call used in module ${m.fq}: ${def.name}`, span);
    }
    this.chargeGas(nativeGasCost(def.name), span);
  }

  callNative(def: NativeDef, args: Value[], span: Span): Value {
    this.charge(1, span);
    this.checkArity(def, args, span);
    if (def.lazy) {
      this.nativeEntry(def, span);
      const call = new Call(this, def, span);
      const fns = args.filter(isOpaque);
      if (fns.length > 0)
        throw this.failure("EvalError", `${def.name}: cannot take function arguments here`, span);
      const terms: Term[] = args.map((a) => ({ kind: "lit", value: a as PactValue, span }));
      return this.withFrame(def.name, span, () => def.impl(call, terms, null));
    }
    // A higher-order native applies the same native at the same place over and
    // over (`fold`, `map`); the call handle and its frame are immutable, so the
    // last ones are reused instead of allocated per element.
    let call = this.lastCall;
    if (call === null || call.def !== def || call.span !== span) {
      call = new Call(this, def, span);
      this.lastCall = call;
      this.lastCallFrame = { name: def.name, span, def: null, module: null };
      this.lastCallCost = nativeGasCost(def.name);
    }
    // nativeEntry's checks, with the cost looked up once for the cached call.
    if (def.topLevelOnly === true) {
      const m = this.moduleFrame();
      if (m !== null)
        throw this.failure("EvalError", `Top-level call used in module ${m.fq}: ${def.name}`, span);
    }
    this.chargeGas(this.lastCallCost, span);
    this.stack.push(this.lastCallFrame as Frame);
    if (this.stack.length > MAX_CALL_DEPTH)
      throw this.failure("EvalError", "call stack too deep", span);
    const r = def.impl(call, args);
    this.stack.pop();
    return r;
  }

  /**
   * `fold` with a native (`nativeTarget`): the first element goes through
   * {@link callNative} (its arity and top-level checks, the same for every
   * element); the others pay the same step, gas and frame per element with the
   * handle, frame and table cost settled once.
   */
  foldNative(def: NativeDef, init: Value, items: readonly PactValue[], span: Span): Value {
    const n = items.length;
    if (n === 0) return init;
    let acc = this.callNative(def, [init, items[0] as PactValue], span);
    if (def.lazy) {
      for (let i = 1; i < n; i++) acc = this.callNative(def, [acc, items[i] as PactValue], span);
      return acc;
    }
    const call = new Call(this, def, span);
    const frame: Frame = { name: def.name, span, def: null, module: null };
    const cost = nativeGasCost(def.name);
    // The first element passed the depth check at this same depth.
    const stack = this.stack;
    const impl = def.impl;
    for (let i = 1; i < n; i++) {
      this.charge(1, span);
      this.chargeGas(cost, span);
      stack.push(frame);
      acc = impl(call, [acc, items[i] as PactValue]);
      stack.pop();
    }
    return acc;
  }

  withFrame<T>(name: string, span: Span, f: () => T): T {
    this.stack.push({ name, span, def: null, module: null });
    if (this.stack.length > MAX_CALL_DEPTH)
      throw this.failure("EvalError", "call stack too deep", span);
    const r = f();
    this.stack.pop();
    return r;
  }

  /**
   * The native that applying `f` calls with the arguments unchanged (a native,
   * or a partial application of one binding nothing), else null: loops over
   * many elements call it through {@link callNative} directly.
   */
  nativeTarget(f: Callable): NativeDef | null {
    if (f.kind === "nativeFn") return f.def;
    if (f.kind === "partial" && f.args.length === 0 && f.fn.kind === "nativeFn") return f.fn.def;
    return null;
  }

  /** Applies a function value to evaluated arguments. */
  apply(f: Callable, args: Value[], span: Span): Value {
    if (f.kind === "nativeFn") return this.callNative(f.def, args, span);
    if (f.kind === "partial") {
      // Unwrapped in a loop (not by recursion) so the hot path stays inlinable.
      let fn: Callable = f;
      let all = args;
      while (fn.kind === "partial") {
        const bound = fn.args;
        if (bound.length > 0) {
          const joined: Value[] = new Array(bound.length + all.length);
          for (let i = 0; i < bound.length; i++) joined[i] = bound[i] as Value;
          for (let i = 0; i < all.length; i++) joined[bound.length + i] = all[i] as Value;
          all = joined;
        }
        fn = fn.fn;
      }
      return fn.kind === "nativeFn"
        ? this.callNative(fn.def, all, span)
        : this.apply(fn, all, span);
    }
    switch (f.kind) {
      case "closure": {
        this.charge(1, span);
        // The reference applies a lambda as a function (`GUserApp`).
        this.chargeGas(GAS_USER_APPLICATION, span);
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
        // `map` and `fold` apply a lambda at one place over and over: its frame is reused.
        let frame = this.lastLambdaFrame;
        if (frame === null || frame.span !== span || frame.name !== f.name) {
          frame = { name: f.name, span, def: null, module: null };
          this.lastLambdaFrame = frame;
        }
        this.stack.push(frame);
        if (this.stack.length > MAX_CALL_DEPTH)
          throw this.failure("EvalError", "call stack too deep", span);
        const r = this.evalBody(f.body, { vals: args, parent: f.env });
        this.stack.pop();
        if (f.ret !== null) this.checkType(r, f.ret, span, `${f.name} result`);
        return r;
      }
      case "userFn": {
        const d = f.def;
        switch (d.kind) {
          case "defun": {
            const vals = args.some(isCallable)
              ? args.map((a) => this.functionAsArgument(a, span))
              : args;
            return this.callFunction(d, vals, span, () =>
              this.evalBody(d.body, { vals, parent: null }),
            );
          }
          case "defcap":
            throw this.failure(
              "EvalError",
              `Cannot directly evaluate defcap ${d.fqName}: use with-capability`,
              span,
            );
          case "defpact":
            return startPact(this, d, args, span);
          default: {
            const never: never = d.kind;
            return never;
          }
        }
      }
      default: {
        const never: never = f;
        return never;
      }
    }
  }

  /**
   * A function passed to a module function, as the reference reduces one: a
   * native fails ("Invalid type in value location: defun"); a module function
   * becomes its details under `DisablePact47`, else fails. Other values pass.
   */
  functionAsArgument(v: Value, span: Span): Value {
    if (v.kind === "nativeFn")
      throw this.failure("EvalError", "Invalid type in value location: defun", span);
    if (v.kind !== "userFn") return v;
    if (this.ctx.execFlags.has("DisablePact47")) return pString(functionDetails(v.def));
    throw this.failure("EvalError", "Cannot display function details in non-repl context", span);
  }

  /**
   * A top-level form's (or an `expect`'s) value when it is a function: off
   * chain (the repl, or `DisablePact47`) a module function shows as its
   * details and a native as itself; on chain both fail.
   */
  showFunction(v: Value, span: Span): Value {
    if (v.kind !== "userFn" && v.kind !== "nativeFn") return v;
    const offChain = this.ctx.inRepl === true || this.ctx.execFlags.has("DisablePact47");
    if (v.kind === "userFn") {
      if (offChain) return pString(functionDetails(v.def));
      throw this.failure("EvalError", "Cannot display function details in non-repl context", span);
    }
    if (offChain) return v;
    throw this.failure(
      "EvalError",
      "Cannot display native function details in non-repl context",
      span,
    );
  }

  /** Checks a module function's arguments against its parameters (count and types). */
  checkArgs(d: FunctionDef, args: readonly Value[], span: Span): void {
    if (d.signature)
      throw this.failure("EvalError", `${d.fqName} is an interface member without a body`, span);
    if (args.length !== d.params.length) {
      throw this.failure(
        "ArgsError",
        `Incorrect number of arguments to ${d.fqName}: expected ${d.params.length}, received ${args.length}`,
        span,
      );
    }
    for (let i = 0; i < args.length; i++) {
      const p = d.params[i];
      if (p !== undefined && p.type !== null)
        this.checkType(args[i] as Value, p.type, span, p.name);
      else this.data(args[i] as Value, span, `argument ${p?.name ?? i} of ${d.fqName}`);
    }
  }

  /**
   * Runs `body` as module function `d` applied to `args`: gas, argument checks,
   * a frame naming the function (so the module is known to be running), the
   * recursion check, and the return type.
   */
  callFunction(d: FunctionDef, args: readonly Value[], span: Span, body: () => Value): Value {
    this.charge(1, span);
    this.chargeGas(GAS_USER_APPLICATION, span);
    this.checkArgs(d, args, span);
    if (this.active.has(d))
      throw this.failure("EvalError", `Detected recursive call: ${d.fqName}`, span);
    this.stack.push({ name: d.fqName, span, def: d, module: d.module });
    this.active.add(d);
    if (this.stack.length > MAX_CALL_DEPTH)
      throw this.failure("EvalError", "call stack too deep", span);
    const r = body();
    this.stack.pop();
    this.active.delete(d);
    if (d.ret !== null && d.kind !== "defpact")
      this.checkType(r, d.ret, span, `${d.fqName} result`);
    return r;
  }

  /**
   * Restores the call stack to `depth` after a failure was caught (by `try`,
   * `enforce-one`, `expect-failure`), since a thrown failure skips the pops.
   */
  unwindTo(depth: number): void {
    while (this.stack.length > depth) {
      const f = this.stack.pop() as Frame;
      if (f.def !== null) this.active.delete(f.def);
    }
  }
}
