/**
 * The shape of a native (built-in function) and the call handle its
 * implementation receives. Natives live in tables, one file per family
 * (style guide §2.5); `nativeTable.ts` assembles them and a golden file under
 * test/contract/ pins every name and arity.
 * @module
 */
import type { ContractError, PactErrorKind } from "../errors.ts";
import {
  bigintBits,
  elementsGas,
  GAS_NEW_ELEMENTS_PER_UNIT,
  integerOpGas,
  MAX_VALUE_LENGTH,
  stepsGas,
  textGas,
} from "../eval/gasTable.ts";
import type { Interpreter } from "../eval/interpreter.ts";
import type { RuntimeContext } from "../eval/runtimeContext.ts";
import type { Callable, Env, Term, Value } from "../eval/term.ts";
import { typeNameOf } from "../eval/typeSpec.ts";
import type { Span } from "../syntax/span.ts";
import { showValue } from "../values/render.ts";
import { typeOfValue } from "../values/typeOf.ts";
import type { PactValue } from "../values/value.ts";
import { isOpaqueValue } from "./valueGuards.ts";

export type Arity = { readonly min: number; readonly max: number };

type NativeCommon = {
  readonly name: string;
  readonly arity: Arity;
  /** Human signature(s), e.g. `"x:<a[integer,decimal]> y:<a> -> <a>"`. */
  readonly sig: string;
  /** Allowed only at the top level of a transaction (not inside module code, part 2). */
  readonly topLevelOnly?: boolean | undefined;
};

/** A native that receives evaluated arguments. */
export type StrictNative = NativeCommon & {
  readonly lazy: false;
  /** Argument positions that take a function: a partial application is allowed there. */
  readonly fnArgs?: readonly number[] | undefined;
  readonly impl: (c: Call, args: Value[]) => Value;
};

/** A native that receives its argument terms unevaluated (`if`, `and`, `enforce` …). */
export type LazyNative = NativeCommon & {
  readonly lazy: true;
  readonly impl: (c: Call, args: readonly Term[], env: Env | null) => Value;
};

export type NativeDef = StrictNative | LazyNative;

/** The handle a native implementation gets: context, failure helpers, application. */
export class Call {
  readonly ip: Interpreter;
  readonly def: NativeDef;
  readonly span: Span;

  constructor(ip: Interpreter, def: NativeDef, span: Span) {
    this.ip = ip;
    this.def = def;
    this.span = span;
  }

  get ctx(): RuntimeContext {
    return this.ip.ctx;
  }

  /** A failure of `kind` at this call. */
  fail(kind: PactErrorKind, message: string): ContractError {
    return this.ip.failure(kind, message, this.span);
  }

  evalError(message: string): ContractError {
    return this.fail("EvalError", message);
  }

  /** The reference's "Invalid arguments in call to NAME, received arguments of type [...]". */
  argsError(args: readonly Value[]): ContractError {
    return this.fail("ArgsError", argsErrorText(this.ip, this.def, args));
  }

  /**
   * True where the reference shows its off-chain texts: in its repl (unless
   * simulating on chain), or when `flag` (the fork that changed the text) is disabled.
   */
  offChain(flag = "DisablePact47"): boolean {
    return this.ctx.inRepl === true || this.ctx.execFlags.has(flag);
  }

  charge(units: number): void {
    this.ip.charge(units, this.span);
  }

  /**
   * Gas for `chars` characters of text this call reads, builds, hashes or
   * compares (eval/gasTable.ts); text longer than the memory bound fails
   * with a GasError before it is built.
   */
  chargeText(chars: number): void {
    if (chars > MAX_VALUE_LENGTH)
      throw this.ip.tooLarge("string", chars, MAX_VALUE_LENGTH, this.span);
    this.ip.chargeSizeGas(textGas(chars), this.span);
  }

  /** Gas for `n` list items or object fields this call builds, copies or visits; bounded as text. */
  chargeElements(n: number | bigint): number {
    if (n > MAX_VALUE_LENGTH)
      throw this.ip.tooLarge("list", Number(n), MAX_VALUE_LENGTH, this.span);
    const k = Number(n);
    this.ip.chargeSizeGas(elementsGas(k), this.span);
    return k;
  }

  /**
   * Gas for `n` new elements this call makes (`make-list`, `enumerate`, …),
   * or `gas` when the native works out the reference's own charge; bounded as text.
   */
  chargeNewElements(n: number | bigint, gas?: number): number {
    if (n > MAX_VALUE_LENGTH)
      throw this.ip.tooLarge("list", Number(n), MAX_VALUE_LENGTH, this.span);
    const k = Number(n);
    this.ip.chargeSizeGas(gas ?? Math.floor(k / GAS_NEW_ELEMENTS_PER_UNIT), this.span);
    return k;
  }

  /** Gas for `n` elementary steps (comparisons of a sort, …), as many elements visited. */
  chargeSteps(n: number): void {
    this.ip.chargeSizeGas(stepsGas(n), this.span);
  }

  /** Gas for traversing each value deeply (render, JSON, hash, equality); their total size. */
  chargeValues(...vs: readonly PactValue[]): number {
    let size = 0;
    for (const v of vs) size += this.ip.chargeValueSize(v, this.span);
    return size;
  }

  /** Gas for arithmetic on two integers by their sizes (nothing for ordinary ones). */
  chargeIntegers(a: bigint, b: bigint): void {
    // Operands of 64 bits cost nothing (integerOpGas starts at 1024): V8 tests that on
    // machine integers, where measuring their bits takes bigint comparisons.
    if (BigInt.asIntN(64, a) === a && BigInt.asIntN(64, b) === b) return;
    this.chargeIntegerBits(bigintBits(a), bigintBits(b));
  }

  /** As {@link chargeIntegers}, by the operands' sizes in bits. */
  chargeIntegerBits(bitsA: number, bitsB: number): void {
    this.ip.chargeSizeGas(integerOpGas(bitsA, bitsB), this.span);
  }

  apply(fn: Callable, args: Value[]): Value {
    return this.ip.apply(fn, args, this.span);
  }

  eval(t: Term, env: Env | null): Value {
    return this.ip.eval(t, env);
  }
}

/**
 * The text of an arguments error: off chain (the reference's repl, or before
 * Pact 4.7) with the values, on chain with their types. `null` stands for an
 * argument not evaluated yet (a lazy native's expression).
 */
export function argsErrorText(
  ip: Interpreter,
  def: NativeDef,
  vals: readonly (Value | null)[],
): string {
  if (ip.ctx.inRepl === true || ip.ctx.execFlags.has("DisablePact47")) {
    const shown = vals.map((v) =>
      v === null ? "<expr>" : isOpaqueValue(v) ? "<function>" : showValue(v),
    );
    // Unevaluated arguments (lazy natives) are shown abbreviated, as text.
    const text = def.lazy ? shown.map((x) => JSON.stringify(x)) : shown;
    return `Invalid arguments, received [${text.join(", ")}] for ${def.sig}`;
  }
  const types = vals.map((a) =>
    a === null
      ? "*"
      : isOpaqueValue(a)
        ? a.kind === "table"
          ? typeNameOf(a)
          : "<function>"
        : typeOfValue(a),
  );
  return `Invalid arguments in call to ${def.name}, received arguments of type [${types.join(", ")}], expected ${def.sig}`;
}

/** A lazy native's argument as far as it is known before evaluation: literals only. */
export function termValue(t: Term): Value | null {
  return t.kind === "lit" ? t.value : null;
}

/** Declares a strict native. */
export function strict(
  name: string,
  arity: [number, number],
  sig: string,
  impl: (c: Call, args: Value[]) => Value,
  opts: { fnArgs?: readonly number[]; topLevelOnly?: boolean } = {},
): StrictNative {
  return {
    name,
    arity: { min: arity[0], max: arity[1] },
    sig,
    lazy: false,
    impl,
    fnArgs: opts.fnArgs,
    topLevelOnly: opts.topLevelOnly,
  };
}

/** Declares a lazy native. */
export function lazy(
  name: string,
  arity: [number, number],
  sig: string,
  impl: (c: Call, args: readonly Term[], env: Env | null) => Value,
  opts: { topLevelOnly?: boolean } = {},
): LazyNative {
  return {
    name,
    arity: { min: arity[0], max: arity[1] },
    sig,
    lazy: true,
    impl,
    topLevelOnly: opts.topLevelOnly,
  };
}

export const VARIADIC = Number.POSITIVE_INFINITY;
