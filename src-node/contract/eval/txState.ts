/**
 * The evaluation state of one transaction (the reference's `EvalState`):
 * the capability stack, installed managed capabilities, capabilities
 * installed with `install-capability`, modules whose admin was granted,
 * emitted events, top-level imports (`use`), the current namespace, the
 * defpact execution started or continued, and the modules loaded so far.
 *
 * Every field but the caches is replaced, never mutated, so a snapshot is a
 * shallow copy: `try`, `enforce-one` and `expect-failure` restore it after a
 * caught failure (database writes are not undone by them).
 * @module
 */

import type { PactExec } from "../storage/pactExec.ts";
import type { PactValue, QualifiedName } from "../values/value.ts";
import type { Def, FunctionDef, LoadedModule } from "./definitions.ts";
import type { SigCapability } from "./runtimeContext.ts";

/** An acquired capability and the capabilities composed into it while it was acquired. */
export type CapSlot = { readonly cap: SigCapability; readonly composed: readonly SigCapability[] };

/** An installed managed capability. */
export type ManagedCap = {
  /** As installed: with the signer's (or installer's) arguments. */
  readonly cap: SigCapability;
  readonly def: FunctionDef;
  /** Capabilities its body composed at install; every acquisition carries them. */
  readonly composed: readonly SigCapability[];
  readonly state:
    | { readonly kind: "auto"; readonly active: boolean }
    | { readonly kind: "managed"; readonly value: PactValue };
};

/** An emitted event (reference §4.4). `name` is the bare capability name. */
export type PactEvent = {
  readonly name: string;
  readonly module: QualifiedName;
  readonly moduleHash: string;
  readonly params: readonly PactValue[];
};

/**
 * One write of the transaction, as the command result's log reports it:
 * the table (`SYS:<table>` for system tables), the key and the value's
 * compact JSON text (Pact JSON for rows; the stored record's JSON for system
 * tables).
 */
export type TxWrite = { readonly table: string; readonly key: string; readonly value: string };

export type TxSnapshot = {
  readonly capStack: readonly CapSlot[];
  readonly managed: readonly ManagedCap[];
  readonly autonomous: readonly SigCapability[];
  readonly moduleAdmin: ReadonlySet<string>;
  readonly events: readonly PactEvent[];
  readonly imports: ReadonlyMap<string, Def>;
  readonly namespace: string | null;
  readonly pactExec: PactExec | null;
};

export class TxState {
  capStack: readonly CapSlot[] = [];
  managed: readonly ManagedCap[] = [];
  autonomous: readonly SigCapability[] = [];
  moduleAdmin: ReadonlySet<string> = new Set();
  events: readonly PactEvent[] = [];
  imports: ReadonlyMap<string, Def> = new Map();
  namespace: string | null = null;
  /** The defpact step run by this transaction (one per transaction). */
  pactExec: PactExec | null = null;
  /** Writes in order (not restored by snapshots: database effects stay). */
  writes: TxWrite[] = [];
  /** Modules loaded or installed in this transaction, by qualified name. */
  readonly modules = new Map<string, LoadedModule>();

  snapshot(): TxSnapshot {
    return {
      capStack: this.capStack,
      managed: this.managed,
      autonomous: this.autonomous,
      moduleAdmin: this.moduleAdmin,
      events: this.events,
      imports: this.imports,
      namespace: this.namespace,
      pactExec: this.pactExec,
    };
  }

  restore(s: TxSnapshot): void {
    this.capStack = s.capStack;
    this.managed = s.managed;
    this.autonomous = s.autonomous;
    this.moduleAdmin = s.moduleAdmin;
    this.events = s.events;
    this.imports = s.imports;
    this.namespace = s.namespace;
    this.pactExec = s.pactExec;
  }

  emit(e: PactEvent): void {
    this.events = [...this.events, e];
  }
}
