/**
 * Module members once compiled and linked (reference §1.3): functions
 * (`defun`, `defcap`, `defpact`, and interface signatures of those), constants,
 * schemas and tables, and the loaded module that owns them.
 * @module
 */
import type { ModuleRecord, ModuleVersion } from "../storage/moduleRecord.ts";
import type { Span } from "../syntax/span.ts";
import type { PactValue, QualifiedName } from "../values/value.ts";
import type { DefCell, Param, Term, TypeSpec } from "./term.ts";

/** `@managed` (auto one-shot), `@managed PARAM MGR`, or `@event`. */
export type CapMeta =
  | { readonly kind: "plain" }
  | { readonly kind: "event" }
  | { readonly kind: "autoManaged" }
  | {
      readonly kind: "managed";
      readonly param: string;
      readonly paramIndex: number;
      /** The manager defun (a cell of the same module; null in interface signatures). */
      readonly mgr: DefCell | null;
      readonly mgrName: string;
    };

export type PactStep = {
  readonly entity: Term | null;
  readonly expr: Term;
  readonly rollback: Term | null;
  readonly span: Span;
};

export type FunctionDef = {
  readonly kind: "defun" | "defcap" | "defpact";
  readonly name: string;
  /** `module.name` (with namespace). */
  readonly fqName: string;
  readonly module: LoadedModule;
  readonly params: readonly Param[];
  readonly ret: TypeSpec | null;
  /** defun/defcap body; empty for defpacts and signatures. */
  readonly body: readonly Term[];
  /** defpact steps. */
  readonly steps: readonly PactStep[];
  readonly cap: CapMeta | null;
  /** True for an interface member without a body. */
  readonly signature: boolean;
  readonly span: Span;
};

export type ConstDef = {
  readonly kind: "defconst";
  readonly name: string;
  readonly module: LoadedModule;
  readonly type: TypeSpec | null;
  readonly value: PactValue;
  readonly span: Span;
};

export type SchemaField = { readonly name: string; readonly type: TypeSpec | null };

export type SchemaDef = {
  readonly kind: "defschema";
  readonly name: string;
  readonly module: LoadedModule;
  readonly fields: readonly SchemaField[];
  readonly span: Span;
};

export type TableDef = {
  readonly kind: "deftable";
  readonly name: string;
  readonly module: LoadedModule;
  readonly schema: DefCell | null;
  /** `<module incl. namespace>_<table>`. */
  readonly physical: string;
  readonly span: Span;
};

export type Def = FunctionDef | ConstDef | SchemaDef | TableDef;

/** A module or interface ready to run: one version of its code, linked. */
export type LoadedModule = {
  readonly kind: "module" | "interface";
  readonly name: QualifiedName;
  readonly fq: string;
  /** The stored record it was loaded from (set once, when linking finishes). */
  record: ModuleRecord;
  /** The code version this object runs (the record's, or an older one). */
  version: ModuleVersion;
  readonly hash: string;
  readonly defs: ReadonlyMap<string, Def>;
};
