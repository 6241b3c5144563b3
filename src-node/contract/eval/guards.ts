/**
 * Enforcing guards (reference §2.8, §4.5, §5.1): keysets against the
 * transaction's signers with capability-scoped signatures, keyset references
 * through the keysets table, user guards (their function runs sys-only),
 * module guards, pact guards and capability guards.
 * @module
 */

import type { NativeDef } from "../natives/native.ts";
import type { KeysetRecord } from "../storage/contractStorage.ts";
import { SysTable } from "../storage/contractStorage.ts";
import type { Span } from "../syntax/span.ts";
import type { Guard, PactValue } from "../values/value.ts";
import { acquiredCaps, capEquals, capToString, isAcquired } from "./capabilities.ts";
import type { FunctionDef } from "./definitions.ts";
import { GAS_READ_UNIT } from "./gasTable.ts";
import type { Interpreter } from "./interpreter.ts";
import { userFn } from "./interpreter.ts";
import { acquireModuleAdmin, loadModule } from "./modules.ts";
import { signersByKey } from "./runtimeContext.ts";
import type { Value } from "./term.ts";

/** The keysets table's record of a keyset name, or null (charges a read). */
export function readKeyset(ip: Interpreter, name: string, span: Span): KeysetRecord | null {
  // Finding a keyset charges a read; a miss is free, as in the reference.
  const rec = ip.ctx.storage.readSys(SysTable.KeySets, name);
  if (rec !== null) ip.chargeGas(GAS_READ_UNIT, span);
  return rec;
}

/** `keysetRef` guard name text: `ns.name` or `name`. */
export function keysetRefName(g: Extract<Guard, { kind: "keysetRef" }>): string {
  return g.namespace === null ? g.name : `${g.namespace}.${g.name}`;
}

/** Enforces the keyset stored under `name`. */
export function enforceKeysetName(ip: Interpreter, name: string, span: Span): void {
  const ks = readKeyset(ip, name, span);
  if (ks === null) throw ip.failure("TxFailure", `No such keyset: ${name}`, span);
  enforceKeyset(ip, ks, `'${name}`, span);
}

function elide(k: string): string {
  return k.length > 8 ? `${k.slice(0, 8)}...` : k;
}

/** A qualified defun named as a keyset predicate or user guard function. */
export function resolveFunction(ip: Interpreter, name: string, span: Span): FunctionDef | null {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  const m = loadModule(ip, name.slice(0, dot), span);
  const d = m?.defs.get(name.slice(dot + 1));
  return d !== undefined && d.kind === "defun" ? d : null;
}

/**
 * Enforces a keyset: counts the signers whose key is in the keyset and whose
 * signature applies (unscoped, or scoped to a capability in force), then
 * applies the predicate (§4.5).
 */
export function enforceKeyset(
  ip: Interpreter,
  ks: KeysetRecord,
  ref: string | null,
  span: Span,
): void {
  const eligible = ip.capsBeingEvaluated.length > 0 ? ip.capsBeingEvaluated : acquiredCaps(ip);
  const unscopedOk = ip.tx.autonomous.length === 0;
  let matched = 0;
  const byKey = signersByKey(ip.ctx.signers);
  for (const k of ks.keys) {
    const s = byKey.get(k);
    if (s === undefined) continue;
    const counts =
      s.caps.length === 0 ? unscopedOk : s.caps.some((c) => eligible.some((e) => capEquals(c, e)));
    if (counts) matched++;
  }
  const count = ks.keys.length;
  let ok: boolean;
  switch (ks.pred) {
    case "keys-all":
      ok = matched === count;
      break;
    case "keys-any":
      ok = matched > 0;
      break;
    case "keys-2":
      ok = matched >= 2;
      break;
    default: {
      const f = resolveFunction(ip, ks.pred, span);
      // A bare name may also be a native taking (count matched), e.g. `=` or `>`, as in the reference.
      const native = f === null && !ks.pred.includes(".") ? ip.natives?.get(ks.pred) : undefined;
      if (f === null && native === undefined)
        throw ip.failure("EvalError", `Keyset predicate not found: ${ks.pred}`, span);
      const r = ip.withPurity("sysonly", () =>
        ip.apply(
          f !== null ? userFn(f) : { kind: "nativeFn", def: native as NativeDef },
          [
            { kind: "integer", value: BigInt(count) },
            { kind: "integer", value: BigInt(matched) },
          ],
          span,
        ),
      );
      if (r.kind !== "bool")
        throw ip.failure("EvalError", `Keyset predicate ${ks.pred} did not return a bool`, span);
      ok = r.value;
    }
  }
  if (!ok) {
    const what = ref ?? `[${ks.keys.map(elide).join(", ")}]`;
    throw ip.failure("TxFailure", `Keyset failure (${ks.pred}): ${what}`, span);
  }
}

/** Enforces any guard (§2.8). */
export function enforceGuard(ip: Interpreter, g: Guard, span: Span): void {
  switch (g.kind) {
    case "keyset":
      enforceKeyset(ip, g, null, span);
      return;
    case "keysetRef":
      enforceKeysetName(ip, keysetRefName(g), span);
      return;
    case "user": {
      const f = resolveFunction(ip, g.fun, span);
      if (f === null)
        throw ip.failure("EvalError", `User guard function not found: ${g.fun}`, span);
      // The function's value is ignored: only a failure fails the guard (Pact 4).
      ip.withPurity("sysonly", () => ip.apply(userFn(f), [...g.args] as Value[], span));
      return;
    }
    case "module": {
      const fq =
        g.module.namespace === null ? g.module.name : `${g.module.namespace}.${g.module.name}`;
      if (ip.moduleOnStack(fq)) return;
      const m = loadModule(ip, fq, span);
      if (m === null) throw ip.failure("EvalError", `Module guard: module not found: ${fq}`, span);
      acquireModuleAdmin(ip, m, span);
      return;
    }
    case "pact": {
      const current = ip.pactStep?.pactId ?? null;
      if (current === null)
        throw ip.failure("TxFailure", "Pact guard failure: not in a defpact execution", span);
      if (current !== g.pactId)
        throw ip.failure(
          "TxFailure",
          `Pact guard failure: pact id ${current} is not ${g.pactId}`,
          span,
        );
      return;
    }
    case "capability": {
      if (g.pactId !== null && (ip.pactStep?.pactId ?? null) !== g.pactId)
        throw ip.failure("TxFailure", "Invalid Pact ID", span);
      const cap = { name: g.name, args: g.args };
      if (!isAcquired(ip, cap))
        throw ip.failure("TxFailure", `Capability not acquired: ${capToString(cap)}`, span);
      return;
    }
    default: {
      const never: never = g;
      throw ip.failure("EvalError", `unknown guard ${String(never)}`, span);
    }
  }
}

/** Enforces a guard value (a failure for anything else). */
export function enforceGuardValue(ip: Interpreter, v: PactValue, span: Span): void {
  if (v.kind !== "guard") throw ip.failure("EvalError", "expected a guard", span);
  enforceGuard(ip, v.guard, span);
}
