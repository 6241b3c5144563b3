/**
 * The evaluator's AST ("terms"), produced by the compiler from the parse tree:
 * a discriminated union with `kind` and `span` on every node. Local variables
 * are resolved to (depth, index) slots at compile time; natives are resolved to
 * their table entries.
 * @module
 */
import type { NativeDef } from "../natives/native.ts";
import type { TypeAnn } from "../syntax/parseTree.ts";
import type { Span } from "../syntax/span.ts";
import type { PactValue } from "../values/value.ts";

export type Param = { readonly name: string; readonly type: TypeAnn | null; readonly span: Span };

export type Term =
  | { readonly kind: "lit"; readonly value: PactValue; readonly span: Span }
  | {
      readonly kind: "local";
      readonly depth: number;
      readonly index: number;
      readonly name: string;
      readonly span: Span;
    }
  | { readonly kind: "native"; readonly def: NativeDef; readonly span: Span }
  /** A name no scope or native defines (module members resolve here in part 2). */
  | { readonly kind: "free"; readonly name: string; readonly span: Span }
  /** `ref::member` (module references, part 2). */
  | { readonly kind: "dynamic"; readonly ref: string; readonly member: string; readonly span: Span }
  | { readonly kind: "app"; readonly fn: Term; readonly args: readonly Term[]; readonly span: Span }
  | { readonly kind: "list"; readonly items: readonly Term[]; readonly span: Span }
  | {
      readonly kind: "object";
      readonly keys: readonly string[];
      readonly values: readonly Term[];
      readonly span: Span;
    }
  | {
      readonly kind: "let";
      readonly params: readonly Param[];
      readonly values: readonly Term[];
      readonly body: readonly Term[];
      readonly span: Span;
    }
  | {
      readonly kind: "lambda";
      readonly params: readonly Param[];
      readonly ret: TypeAnn | null;
      readonly body: readonly Term[];
      readonly span: Span;
    }
  /** `{ "k" := v … } body…`: consumed by binding natives (`bind`, part 2's `with-read` …). */
  | {
      readonly kind: "binding";
      readonly keys: readonly Term[];
      readonly params: readonly Param[];
      readonly body: readonly Term[];
      readonly span: Span;
    }
  /** A declaration form that part 1 parses but does not run (`module`, `defun` …). */
  | { readonly kind: "unsupported"; readonly form: string; readonly span: Span };

/** A runtime environment frame: slot values of one scope, and the enclosing frame. */
export type Env = { readonly vals: Value[]; readonly parent: Env | null };

export type Closure = {
  readonly kind: "closure";
  readonly name: string;
  readonly params: readonly Param[];
  readonly ret: TypeAnn | null;
  readonly body: readonly Term[];
  readonly env: Env | null;
  readonly span: Span;
};
export type NativeFn = { readonly kind: "nativeFn"; readonly def: NativeDef };
export type PartialFn = {
  readonly kind: "partial";
  readonly fn: Callable;
  readonly args: readonly Value[];
  readonly span: Span;
};
export type Callable = Closure | NativeFn | PartialFn;

/** What evaluating a term yields: data, or a function (never stored or returned as a result). */
export type Value = PactValue | Callable;

export function isCallable(v: Value): v is Callable {
  return v.kind === "closure" || v.kind === "nativeFn" || v.kind === "partial";
}
