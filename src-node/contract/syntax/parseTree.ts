/**
 * The parse tree: what the parser produces from source text, before any form is
 * given meaning. Every node has a `kind` and a `span`.
 * @module
 */
import type { Decimal } from "../values/decimal.ts";
import type { Span } from "./span.ts";

/** A type annotation (`x:integer`, `:[string]`, `:object{schema}`, `:module{a, b}`). */
export type TypeAnn =
  | { readonly kind: "integer" | "decimal" | "string" | "bool" | "time" | "keyset" | "guard" }
  | { readonly kind: "any" }
  | { readonly kind: "list"; readonly elem: TypeAnn | null }
  /** `object{s}`, `object`, or (`user`) the bare `{s}` of a user type. */
  | { readonly kind: "object"; readonly schema: string | null; readonly user?: true }
  | { readonly kind: "table"; readonly schema: string | null }
  | { readonly kind: "module"; readonly interfaces: readonly string[] };

export type AtomNode = {
  readonly kind: "atom";
  /** The dotted parts: `["coin", "transfer"]` for `coin.transfer`, one part when unqualified. */
  readonly parts: readonly string[];
  readonly type: TypeAnn | null;
  readonly span: Span;
};

export type ParseNode =
  | { readonly kind: "integer"; readonly value: bigint; readonly span: Span }
  | { readonly kind: "decimal"; readonly value: Decimal; readonly span: Span }
  | { readonly kind: "string"; readonly value: string; readonly span: Span }
  | { readonly kind: "symbol"; readonly value: string; readonly span: Span }
  | { readonly kind: "bool"; readonly value: boolean; readonly span: Span }
  | AtomNode
  /** `ref::member` */
  | {
      readonly kind: "dynamic";
      readonly ref: AtomNode;
      readonly member: string;
      readonly span: Span;
    }
  /** `( … )` */
  | { readonly kind: "sexp"; readonly items: readonly ParseNode[]; readonly span: Span }
  /** `[ … ]` */
  | { readonly kind: "list"; readonly items: readonly ParseNode[]; readonly span: Span }
  /** `{ key: value, … }` */
  | {
      readonly kind: "object";
      readonly entries: readonly { readonly key: ParseNode; readonly value: ParseNode }[];
      readonly span: Span;
    }
  /** `{ key := name, … }` */
  | {
      readonly kind: "binding";
      readonly entries: readonly { readonly key: ParseNode; readonly name: AtomNode }[];
      readonly span: Span;
    };

/** Renders a type annotation as the reference writes it (`[integer]`, `object{s}`). */
export function renderType(t: TypeAnn): string {
  switch (t.kind) {
    case "list":
      return t.elem === null ? "list" : `[${renderType(t.elem)}]`;
    case "object":
      return t.schema === null ? "object" : `object{${t.schema}}`;
    case "table":
      return t.schema === null ? "table" : `table{${t.schema}}`;
    case "module":
      return `module{${t.interfaces.join(",")}}`;
    case "any":
      return "*";
    default:
      return t.kind;
  }
}
