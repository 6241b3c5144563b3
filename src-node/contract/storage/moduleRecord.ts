/**
 * A module or interface as the modules system table stores it: the exact
 * source text of its form (what its hash is computed from), where that text
 * came from, its governance, blessed hashes, implemented interfaces, the
 * versions of the modules its code was linked against, and its constants'
 * values as computed at install. Older versions are kept so that code linked
 * against them keeps running after an upgrade (the reference inlines
 * dependencies at load time; see docs/contract-language.md).
 * @module
 */
import type { PactValue } from "../values/value.ts";

/** Where a module's code starts in its source file (so positions stay exact after a reload). */
export type CodeOrigin = {
  readonly file: string;
  readonly line: number;
  readonly column: number;
};

export type Governance =
  | { readonly kind: "keyset"; readonly name: string }
  | { readonly kind: "capability"; readonly name: string };

/**
 * A module this code was linked against: its qualified name and hash at that
 * time, and the members it used unqualified because the transaction that
 * installed the code had them in scope (a `use` or an install before it, as
 * the reference resolves them at install).
 */
export type ModuleDep = {
  readonly name: string;
  readonly hash: string;
  readonly scope?: readonly string[] | undefined;
};

/** The part of a module record that differs between versions of the same module. */
export type ModuleVersion = {
  readonly hash: string;
  readonly code: string;
  readonly origin: CodeOrigin;
  readonly deps: readonly ModuleDep[];
  readonly consts: readonly { readonly name: string; readonly value: PactValue }[];
};

export type ModuleRecord = ModuleVersion & {
  readonly kind: "module" | "interface";
  readonly namespace: string | null;
  readonly name: string;
  /** Null for interfaces. */
  readonly governance: Governance | null;
  readonly blessed: readonly string[];
  /** Qualified names of the implemented interfaces. */
  readonly interfaces: readonly string[];
  /** Earlier versions, oldest first. */
  readonly history: readonly ModuleVersion[];
};

/** `ns.name` or `name`. */
export function qualifiedModuleName(namespace: string | null, name: string): string {
  return namespace === null ? name : `${namespace}.${name}`;
}
