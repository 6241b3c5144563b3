/**
 * The evaluator's AST ("terms"), produced by the compiler from the parse tree:
 * a discriminated union with `kind` and `span` on every node. Local variables
 * are resolved to (depth, index) slots at compile time; natives are resolved to
 * their table entries; module members to definition cells (filled when their
 * module is linked, so definitions may appear in any order).
 * @module
 */
import type { NativeDef } from "../natives/native.ts";
import type { ParseNode } from "../syntax/parseTree.ts";
import type { Span } from "../syntax/span.ts";
import type { PactValue } from "../values/value.ts";
import type { Def, FunctionDef, SchemaDef, TableDef } from "./definitions.ts";

/** A type annotation with schema names resolved (when they can be). */
export type TypeSpec =
  | {
      readonly kind:
        | "integer"
        | "decimal"
        | "string"
        | "bool"
        | "time"
        | "keyset"
        | "guard"
        | "any";
    }
  | { readonly kind: "list"; readonly elem: TypeSpec | null }
  | {
      readonly kind: "object" | "table";
      readonly schemaName: string | null;
      /** The schema, when the name resolved (module code); null: only the kind is checked. */
      readonly schema: DefCell | null;
    }
  | { readonly kind: "module"; readonly interfaces: readonly string[] };

export type Param = { readonly name: string; readonly type: TypeSpec | null; readonly span: Span };

/** A module member a term refers to; `def` is filled when the module is linked. */
export type DefCell = { readonly name: string; def: Def | null };

export type Term =
  | {
      readonly kind: "lit";
      readonly value: PactValue;
      readonly span: Span;
      /**
       * A module reference's `Info` JSON: of the top-level form its name is in
       * (top-level code with its source text), what it carries before Pact 4.9
       * in the repl (`syntax/refInfo.ts`).
       */
      readonly info?: string | undefined;
    }
  | {
      readonly kind: "local";
      readonly depth: number;
      readonly index: number;
      readonly name: string;
      readonly span: Span;
    }
  | { readonly kind: "native"; readonly def: NativeDef; readonly span: Span }
  /** A module member (defun, defcap, defpact, defconst, defschema, deftable). */
  | { readonly kind: "def"; readonly cell: DefCell; readonly span: Span }
  /** A name nothing defined at compile time; resolved (or failed) when evaluated. */
  | { readonly kind: "free"; readonly name: string; readonly span: Span }
  /** `ref::member`: a module reference's member, late-bound. */
  | {
      readonly kind: "dynamic";
      readonly ref: Term;
      readonly refName: string;
      readonly member: string;
      readonly span: Span;
    }
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
      readonly ret: TypeSpec | null;
      readonly body: readonly Term[];
      readonly span: Span;
    }
  /** `{ "k" := v … } body…`: consumed by binding natives (`bind`, `with-read` …). */
  | {
      readonly kind: "binding";
      readonly keys: readonly Term[];
      readonly params: readonly Param[];
      readonly body: readonly Term[];
      readonly span: Span;
    }
  /** A `module` or `interface` declaration; `code` is its exact source text (hashed). */
  | {
      readonly kind: "moduleDecl";
      readonly node: Extract<ParseNode, { kind: "sexp" }>;
      readonly code: string;
      readonly span: Span;
    }
  /** `(use MOD ["HASH"] [[names]])` outside a module. */
  | {
      readonly kind: "use";
      readonly module: string;
      readonly hash: string | null;
      readonly imports: readonly string[] | null;
      readonly span: Span;
    }
  /** A declaration form where it is not allowed (`defun` outside a module …). */
  | { readonly kind: "unsupported"; readonly form: string; readonly span: Span }
  /** A malformed top-level declaration: a SyntaxError when evaluated (so `expect-failure` sees it). */
  | { readonly kind: "invalid"; readonly message: string; readonly span: Span };

/** A runtime environment frame: slot values of one scope, and the enclosing frame. */
export type Env = { readonly vals: Value[]; readonly parent: Env | null };

export type Closure = {
  readonly kind: "closure";
  readonly name: string;
  readonly params: readonly Param[];
  readonly ret: TypeSpec | null;
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
/** A module's defun, defcap or defpact as a value. */
export type UserFn = { readonly kind: "userFn"; readonly def: FunctionDef };
export type Callable = Closure | NativeFn | PartialFn | UserFn;

/** A table or schema named as a value (arguments of the database natives). */
export type TableValue = { readonly kind: "table"; readonly def: TableDef };
export type SchemaValue = { readonly kind: "schema"; readonly def: SchemaDef };

/** What evaluating a term yields: data, or something that is never stored or returned as data. */
export type Value = PactValue | Callable | TableValue | SchemaValue;
export type Opaque = Callable | TableValue | SchemaValue;

export function isCallable(v: Value): v is Callable {
  return (
    v.kind === "closure" || v.kind === "nativeFn" || v.kind === "partial" || v.kind === "userFn"
  );
}

/** True for values that are not data (functions, tables, schemas). */
export function isOpaque(v: Value): v is Opaque {
  return isCallable(v) || v.kind === "table" || v.kind === "schema";
}

/** True for data values. */
export function isData(v: Value): v is PactValue {
  return !isOpaque(v);
}
