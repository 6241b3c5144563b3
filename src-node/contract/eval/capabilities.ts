/**
 * Capabilities (reference §4): acquiring a capability for the extent of a
 * body (`with-capability`), the test its defcap body makes, composed
 * capabilities living on their parent's slot, managed capabilities installed
 * lazily from the signers' capability lists (and `install-capability`), their
 * manager functions and one-shot auto management, events, and the governance
 * capability of a module.
 * @module
 */
import type { Span } from "../syntax/span.ts";
import { valueEquals } from "../values/equality.ts";
import { renderValue } from "../values/render.ts";
import type { PactValue } from "../values/value.ts";
import type { FunctionDef, LoadedModule } from "./definitions.ts";
import type { Interpreter } from "./interpreter.ts";
import { userFn } from "./interpreter.ts";
import { guardModuleAccess } from "./modules.ts";
import { type SigCapability, signersByKey } from "./runtimeContext.ts";
import type { Value } from "./term.ts";
import type { CapSlot, ManagedCap } from "./txState.ts";

/** A capability to acquire: its defcap and the instance (qualified name + arguments). */
export type CapRequest = { readonly def: FunctionDef; readonly cap: SigCapability };

export function capEquals(a: SigCapability, b: SigCapability): boolean {
  if (a.name !== b.name || a.args.length !== b.args.length) return false;
  for (let i = 0; i < a.args.length; i++)
    if (!valueEquals(a.args[i] as PactValue, b.args[i] as PactValue)) return false;
  return true;
}

/** `(coin.TRANSFER "a" "b" 1.0)` */
export function capToString(c: SigCapability): string {
  return `(${[c.name, ...c.args.map((a) => renderValue(a, false))].join(" ")})`;
}

/** Every acquired capability: slots and what they composed. */
export function acquiredCaps(ip: Interpreter): SigCapability[] {
  const out: SigCapability[] = [];
  for (const s of ip.tx.capStack) out.push(s.cap, ...s.composed);
  for (const s of ip.testing) out.push(s.cap, ...s.composed);
  return out;
}

/**
 * On the stack, or composed there — including the capabilities whose test
 * runs now and what they composed so far: Pact pushes a slot before running
 * its test, so what an outer test composed is already acquired in an inner one.
 */
export function isAcquired(ip: Interpreter, c: SigCapability): boolean {
  for (const slots of [ip.tx.capStack, ip.testing]) {
    for (const s of slots) {
      if (capEquals(s.cap, c)) return true;
      for (const x of s.composed) if (capEquals(x, c)) return true;
    }
  }
  return false;
}

function isManaged(d: FunctionDef): boolean {
  return d.cap?.kind === "managed" || d.cap?.kind === "autoManaged";
}

/** The arguments that identify a managed capability (all but the managed parameter). */
function staticArgs(d: FunctionDef, args: readonly PactValue[]): readonly PactValue[] {
  const m = d.cap;
  return m !== null && m.kind === "managed" ? args.filter((_, i) => i !== m.paramIndex) : args;
}

function sameStatic(d: FunctionDef, a: SigCapability, b: SigCapability): boolean {
  if (a.name !== b.name) return false;
  const x = staticArgs(d, a.args);
  const y = staticArgs(d, b.args);
  return x.length === y.length && x.every((v, i) => valueEquals(v, y[i] as PactValue));
}

/** Emits the capability as an event of its module. */
function emitCap(ip: Interpreter, d: FunctionDef, args: readonly PactValue[]): void {
  ip.tx.emit({ name: d.name, module: d.module.name, moduleHash: d.module.hash, params: args });
}

/**
 * Runs a defcap body (the capability's test) with `args`, the given
 * capabilities counted as "being evaluated" for signatures; returns what the
 * body composed.
 */
function runTest(
  ip: Interpreter,
  d: FunctionDef,
  args: readonly PactValue[],
  beingEvaluated: readonly SigCapability[] | null,
  span: Span,
): SigCapability[] {
  const saved = {
    inDefcap: ip.inDefcap,
    composing: ip.composing,
    caps: ip.capsBeingEvaluated,
  };
  const composed: SigCapability[] = [];
  ip.inDefcap = true;
  ip.composing = composed;
  if (beingEvaluated !== null) ip.capsBeingEvaluated = beingEvaluated;
  const slot: CapSlot = { cap: { name: d.fqName, args }, composed };
  ip.testing.push(slot);
  try {
    ip.callFunction(d, args as Value[], span, () =>
      ip.evalBody(d.body, { vals: [...args], parent: null }),
    );
  } finally {
    ip.testing.pop();
    ip.inDefcap = saved.inDefcap;
    ip.composing = saved.composing;
    ip.capsBeingEvaluated = saved.caps;
  }
  return composed;
}

function findInstalled(ip: Interpreter, r: CapRequest): ManagedCap | null {
  return ip.tx.managed.find((m) => sameStatic(r.def, m.cap, r.cap)) ?? null;
}

/** Installs a managed capability as `cap` (the signer's or installer's arguments). */
export function installManaged(
  ip: Interpreter,
  d: FunctionDef,
  cap: SigCapability,
  span: Span,
): ManagedCap {
  const composed = runTest(ip, d, cap.args, [cap], span);
  const meta = d.cap;
  const state: ManagedCap["state"] =
    meta !== null && meta.kind === "managed"
      ? { kind: "managed", value: cap.args[meta.paramIndex] as PactValue }
      : { kind: "auto", active: true };
  const m: ManagedCap = { cap, def: d, composed, state };
  ip.tx.managed = [...ip.tx.managed, m];
  return m;
}

/** Lazy install from `install-capability`'s set, then the signers' capability lists (§4.2.6). */
function lazyInstall(ip: Interpreter, r: CapRequest, span: Span): ManagedCap {
  const candidates: SigCapability[] = [...ip.tx.autonomous];
  // A key signed twice offers its last signer's list only, as the reference's map of signatures.
  for (const s of signersByKey(ip.ctx.signers).values()) candidates.push(...s.caps);
  const c = candidates.find((x) => x.name === r.cap.name && sameStatic(r.def, x, r.cap));
  if (c === undefined)
    throw ip.failure("TxFailure", `Managed capability not installed: ${capToString(r.cap)}`, span);
  return installManaged(ip, r.def, c, span);
}

/** The managed part of an acquisition: install if needed, run the manager, emit the event. */
function acquireManaged(ip: Interpreter, r: CapRequest, span: Span): readonly SigCapability[] {
  const inst = findInstalled(ip, r) ?? lazyInstall(ip, r, span);
  const meta = r.def.cap;
  let next: ManagedCap;
  if (inst.state.kind === "auto") {
    if (!inst.state.active)
      throw ip.failure("TxFailure", `Capability already fired: ${capToString(r.cap)}`, span);
    next = { ...inst, state: { kind: "auto", active: false } };
  } else {
    if (meta === null || meta.kind !== "managed" || meta.mgr === null || meta.mgr.def === null)
      throw ip.failure("EvalError", `${r.def.fqName}: managed capability without a manager`, span);
    const mgr = meta.mgr.def;
    if (mgr.kind !== "defun")
      throw ip.failure(
        "EvalError",
        `${r.def.fqName}: manager ${meta.mgrName} is not a defun`,
        span,
      );
    const requested = r.cap.args[meta.paramIndex] as PactValue;
    const v = ip.apply(userFn(mgr), [inst.state.value, requested], span);
    next = { ...inst, state: { kind: "managed", value: ip.data(v, span, "a managed value") } };
  }
  ip.tx.managed = ip.tx.managed.map((m) => (m === inst ? next : m));
  emitCap(ip, r.def, r.cap.args);
  return inst.composed;
}

/**
 * Acquires a capability not yet acquired: managed ones through their
 * manager, others by running their test. Returns the slot to push.
 */
function acquireSlot(ip: Interpreter, r: CapRequest, span: Span): CapSlot {
  if (isManaged(r.def)) return { cap: r.cap, composed: acquireManaged(ip, r, span) };
  const composed = runTest(ip, r.def, r.cap.args, [r.cap], span);
  if (r.def.cap?.kind === "event") emitCap(ip, r.def, r.cap.args);
  return { cap: r.cap, composed };
}

/** `with-capability`: acquire for the extent of `body` (§4.2). */
export function withCapability(
  ip: Interpreter,
  r: CapRequest,
  span: Span,
  body: () => Value,
): Value {
  if (ip.inDefcap)
    throw ip.failure("EvalError", "with-capability not allowed within defcap execution", span);
  guardModuleAccess(ip, r.def.module, span);
  return acquireAround(ip, r, span, body);
}

/**
 * Acquires `r` for the extent of `body` without the module-admin check
 * (the node's part: a gas payer's `GAS_PAYER` around buying gas); an
 * acquired capability is not acquired again.
 */
export function acquireAround<T>(ip: Interpreter, r: CapRequest, span: Span, body: () => T): T {
  if (isAcquired(ip, r.cap)) return body();
  const slot = acquireSlot(ip, r, span);
  ip.tx.capStack = [...ip.tx.capStack, slot];
  try {
    return body();
  } finally {
    ip.tx.capStack = ip.tx.capStack.filter((s) => s !== slot);
  }
}

/** `compose-capability` inside a defcap body: acquired along with the capability being tested. */
export function composeCapability(ip: Interpreter, r: CapRequest, span: Span): void {
  const target = ip.composing;
  if (!ip.inDefcap || target === null || !ip.innermostIsDefcap())
    throw ip.failure("EvalError", "compose-capability valid only within defcap body", span);
  // As with-capability (Pact 4 evalCap with inModule): another module's capability needs
  // that module's admin, or any module could compose coin.CREDIT and mint coins.
  guardModuleAccess(ip, r.def.module, span);
  if (isAcquired(ip, r.cap) || target.some((c) => capEquals(c, r.cap))) return;
  if (isManaged(r.def)) {
    const composed = acquireManaged(ip, r, span);
    target.push(r.cap, ...composed);
    return;
  }
  const composed = runTest(ip, r.def, r.cap.args, null, span);
  if (r.def.cap?.kind === "event") emitCap(ip, r.def, r.cap.args);
  target.push(r.cap, ...composed);
}

/** The repl's `test-capability`: acquire (or install, when managed) for the rest of the transaction. */
export function grantForTx(ip: Interpreter, r: CapRequest, span: Span): "acquired" | "installed" {
  if (isManaged(r.def)) {
    installManaged(ip, r.def, r.cap, span);
    return "installed";
  }
  if (!isAcquired(ip, r.cap)) {
    const composed = runTest(ip, r.def, r.cap.args, [r.cap], span);
    if (r.def.cap?.kind === "event") emitCap(ip, r.def, r.cap.args);
    ip.tx.capStack = [...ip.tx.capStack, { cap: r.cap, composed }];
  }
  return "acquired";
}

/** `emit-event`: the capability must be @event or @managed, emitted from its own module. */
export function emitEvent(ip: Interpreter, r: CapRequest, span: Span): void {
  const k = r.def.cap?.kind;
  if (k !== "event" && k !== "managed" && k !== "autoManaged")
    throw ip.failure("EvalError", "emit-event: must be managed or event defcap", span);
  const running = ip.moduleFrame();
  if (running === null)
    throw ip.failure("EvalError", "Unable to resolve current calling module", span);
  if (running.fq !== r.def.module.fq)
    throw ip.failure(
      "EvalError",
      `emitEvent: event '${r.def.fqName}' does not match emitting module: ${running.fq}`,
      span,
    );
  emitCap(ip, r.def, r.cap.args);
}

/** Module admin through a governance capability: its body runs as a capability test. */
export function acquireGovernanceCap(
  ip: Interpreter,
  m: LoadedModule,
  name: string,
  span: Span,
): void {
  const d = m.defs.get(name);
  if (d === undefined || d.kind !== "defcap")
    throw ip.failure("EvalError", `${m.fq}: governance capability ${name} not found`, span);
  if (ip.inDefcap) {
    ip.callFunction(d, [], span, () => ip.evalBody(d.body, { vals: [], parent: null }));
    return;
  }
  runTest(ip, d, [], [{ name: d.fqName, args: [] }], span);
}

/** Capabilities granted before any code runs (chainweb's magic GAS, COINBASE, GENESIS). */
export function grantMagic(ip: Interpreter, caps: readonly SigCapability[]): void {
  ip.tx.capStack = [...ip.tx.capStack, ...caps.map((cap) => ({ cap, composed: [] }))];
}
