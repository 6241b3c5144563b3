/**
 * defpacts (reference §7): starting a defpact (its id is the transaction
 * hash; nested ones hash their parent's id and continuation), running one
 * step or its rollback, storing the state in the pacts table (null once
 * finished), continuing a stored defpact by id and step (or from a proven
 * cross-chain state), `yield` with provenance, `resume` with the provenance
 * check, nested defpacts advanced in lockstep with `continue`, and the
 * `pact.X_YIELD` / `pact.X_RESUME` events.
 * @module
 */
import { blake2b256 } from "../../crypto/blake2.ts";
import { base64UrlEncode } from "../../encoding/base64url.ts";
import { SysTable } from "../storage/contractStorage.ts";
import type { PactContinuation, PactExec, PactYield } from "../storage/pactExec.ts";
import type { Span } from "../syntax/span.ts";
import { pactValueToJsonText } from "../values/json.ts";
import type { PactValue } from "../values/value.ts";
import type { FunctionDef } from "./definitions.ts";
import { GAS_READ_UNIT } from "./gasTable.ts";
import type { Interpreter } from "./interpreter.ts";
import { loadModule } from "./modules.ts";
import type { PactStepContext } from "./pactStep.ts";
import type { Value } from "./term.ts";

const encoder = new TextEncoder();

/** The id of a nested defpact: the hash of `parentId:` and its continuation's JSON. */
export function nestedPactId(parentId: string, c: PactContinuation): string {
  const json = `{"args":[${c.args.map(pactValueToJsonText).join(",")}],"def":${JSON.stringify(c.def)}}`;
  return base64UrlEncode(blake2b256(encoder.encode(`${parentId}:${json}`)));
}

type StepRun = { readonly value: Value; readonly exec: PactExec };

type StepRequest = {
  readonly def: FunctionDef;
  readonly args: readonly PactValue[];
  readonly pactId: string;
  readonly step: number;
  readonly rollback: boolean;
  readonly resume: PactYield | null;
  readonly nested: readonly PactExec[];
};

/** Runs one step (or its rollback) of a defpact and builds the resulting state. */
function runStep(ip: Interpreter, r: StepRequest, span: Span): StepRun {
  const d = r.def;
  const s = d.steps[r.step];
  if (s === undefined)
    throw ip.failure(
      "EvalError",
      `${d.fqName}: step ${r.step} out of range (${d.steps.length} steps)`,
      span,
    );
  if (s.entity !== null && ip.pactStep !== null)
    throw ip.failure(
      "EvalError",
      "applyNestedPact: nested defpacts do not allow private execution",
      s.span,
    );
  const expr = r.rollback ? s.rollback : s.expr;
  if (expr === null)
    throw ip.failure("EvalError", `${d.fqName}: step ${r.step} has no rollback`, span);
  const ctx: PactStepContext = {
    pactId: r.pactId,
    step: r.step,
    rollback: r.rollback,
    def: d,
    args: r.args,
    resume: r.resume,
    stepHasRollback: s.rollback !== null,
    yielded: null,
    nested: new Map(r.nested.map((n) => [n.pactId, n] as const)),
  };
  // A private step runs only for its entity (the node's, the repl's `env-entity`); others skip it.
  let executed: boolean | null = null;
  const value = ip.callFunction(d, r.args as Value[], span, () => {
    const saved = ip.pactStep;
    ip.pactStep = ctx;
    try {
      const env = { vals: [...r.args], parent: null };
      if (s.entity !== null) {
        const e = ip.eval(s.entity, env);
        if (e.kind !== "string")
          throw ip.failure("EvalError", "applyPact: step entity must be String value", s.span);
        const mine = ip.ctx.entity ?? null;
        if (mine === null)
          throw ip.failure(
            "EvalError",
            "applyPact: private step executed against non-private environment",
            s.span,
          );
        executed = e.value === mine;
        if (!executed) return { kind: "string", value: "skip step" } as Value;
      }
      return ip.eval(expr, env);
    } finally {
      ip.pactStep = saved;
    }
  });
  for (const n of ctx.nested.values())
    if (n.step !== r.step)
      throw ip.failure(
        "EvalError",
        `Nested defpacts were not all advanced in prior step for pact: ${r.pactId}`,
        span,
      );
  // Cross-chain events come after the step's own events (§7); none before Pact 4.0.
  const events = !ip.ctx.execFlags.has("DisablePact40");
  if (events && ctx.yielded?.provenance != null)
    crossChainEvent(ip, "X_YIELD", ctx.yielded.provenance.targetChainId, ctx);
  if (events && !r.rollback && r.resume?.provenance != null)
    crossChainEvent(ip, "X_RESUME", r.resume.source ?? "", ctx);
  const exec: PactExec = {
    stepCount: d.steps.length,
    yield: ctx.yielded,
    executed,
    step: r.step,
    pactId: r.pactId,
    continuation: { def: d.fqName, args: r.args },
    stepHasRollback: s.rollback !== null,
    nested: [...ctx.nested.values()].sort((a, b) =>
      a.pactId < b.pactId ? -1 : a.pactId > b.pactId ? 1 : 0,
    ),
  };
  return { value, exec };
}

/** A nested defpact has as many steps as its parent, with a rollback where the parent's step has one. */
function verifyParent(ip: Interpreter, parent: PactStepContext, d: FunctionDef, span: Span): void {
  if (d.steps.length !== parent.def.steps.length)
    throw ip.failure(
      "EvalError",
      "applyNestedPact: invalid nested defpact length, must be equal to length of parent",
      span,
    );
  const s = d.steps[parent.step];
  if (s !== undefined && (s.rollback !== null) !== parent.stepHasRollback)
    throw ip.failure(
      "EvalError",
      "applyNestedPact: invalid nested defpact step, must match parent rollback",
      span,
    );
}

/** Records a top-level defpact's state after a step (null once it finished). */
function store(ip: Interpreter, exec: PactExec, rollback: boolean, span: Span): void {
  // A private defpact rolls back step by step, down to step 0.
  const isPrivate = exec.executed !== null;
  const done =
    (!rollback && exec.step >= exec.stepCount - 1) || (rollback && (!isPrivate || exec.step === 0));
  ip.tx.pactExec = exec;
  ip.writeSys(SysTable.Pacts, exec.pactId, { exec: done ? null : exec }, span);
}

function dataArgs(
  ip: Interpreter,
  d: FunctionDef,
  args: readonly Value[],
  span: Span,
): PactValue[] {
  return args.map((a) => ip.data(a, span, `an argument of ${d.fqName}`));
}

/** Applying a defpact: starts it (step 0), nested when a defpact step is running. */
export function startPact(
  ip: Interpreter,
  d: FunctionDef,
  args: readonly Value[],
  span: Span,
): Value {
  ip.checkArgs(d, args, span);
  const data = dataArgs(ip, d, args, span);
  const parent = ip.pactStep;
  if (parent !== null) {
    const pactId = nestedPactId(parent.pactId, { def: d.fqName, args: data });
    // As in the reference, applying a nested defpact that already runs advances it
    // (or rolls it back) to the parent's step, like `continue`.
    verifyParent(ip, parent, d, span);
    if (parent.nested.has(pactId)) return continueNested(ip, d, args, span);
    if (parent.step !== 0)
      throw ip.failure(
        "EvalError",
        `Nested pact never started at prior step: ${d.fqName} (${pactId})`,
        span,
      );
    const run = runStep(
      ip,
      {
        def: d,
        args: data,
        pactId,
        step: 0,
        rollback: parent.rollback,
        resume: null,
        nested: [],
      },
      span,
    );
    parent.nested.set(pactId, run.exec);
    return run.value;
  }
  if (ip.tx.pactExec !== null)
    throw ip.failure("EvalError", "Multiple or nested pact exec found", span);
  const run = runStep(
    ip,
    {
      def: d,
      args: data,
      pactId: ip.ctx.txHash,
      step: 0,
      rollback: false,
      resume: null,
      nested: [],
    },
    span,
  );
  store(ip, run.exec, false, span);
  return run.value;
}

/** The defpact a stored continuation names (its current version). */
function defpactOf(ip: Interpreter, name: string, span: Span): FunctionDef {
  const dot = name.lastIndexOf(".");
  const m = dot > 0 ? loadModule(ip, name.slice(0, dot), span) : null;
  const d = m?.defs.get(name.slice(dot + 1));
  if (d === undefined || d.kind !== "defpact")
    throw ip.failure("EvalError", `resumePact: defpact not found: ${name}`, span);
  return d;
}

function checkStep(
  ip: Interpreter,
  prev: PactExec,
  step: number,
  rollback: boolean,
  span: Span,
): void {
  if (rollback) {
    if (step !== prev.step)
      throw ip.failure(
        "EvalError",
        `resumePact: rollback of step ${step}, but the last step run is ${prev.step}`,
        span,
      );
    if (!prev.stepHasRollback)
      throw ip.failure("EvalError", `resumePact: step ${step} has no rollback`, span);
    return;
  }
  if (step !== prev.step + 1)
    throw ip.failure(
      "EvalError",
      `resumePact: step ${step} requested, expected step ${prev.step + 1}`,
      span,
    );
  if (step >= prev.stepCount)
    throw ip.failure(
      "EvalError",
      `resumePact: step ${step} out of range (${prev.stepCount} steps)`,
      span,
    );
}

export type ContinueRequest = {
  readonly pactId: string;
  readonly step: number;
  readonly rollback: boolean;
  /** The state a cross-chain proof established (the state on the source chain). */
  readonly proven: PactExec | null;
  /** The repl's yield override: replaces the yield's data, keeping its provenance. */
  readonly yieldData: PactValue | null;
};

/** Continues a defpact: one step forward, or a rollback of the last one (§7). */
export function continuePact(ip: Interpreter, r: ContinueRequest, span: Span): Value {
  ip.chargeGas(GAS_READ_UNIT, span);
  const stored = ip.ctx.storage.readSys(SysTable.Pacts, r.pactId);
  let prev: PactExec;
  if (r.proven !== null) {
    if (stored !== null && stored.exec === null)
      throw ip.failure("EvalError", `resumePact: pact completed: ${r.pactId}`, span);
    if (stored !== null)
      throw ip.failure(
        "EvalError",
        `resumePact: pact already continued on this chain: ${r.pactId}`,
        span,
      );
    if (r.proven.pactId !== r.pactId)
      throw ip.failure(
        "EvalError",
        `resumePact: the proof is for pact ${r.proven.pactId}, not ${r.pactId}`,
        span,
      );
    prev = r.proven;
  } else {
    if (stored === null)
      throw ip.failure(
        "EvalError",
        `resumePact: no previous execution found for: ${r.pactId}`,
        span,
      );
    if (stored.exec === null)
      throw ip.failure("EvalError", `resumePact: pact completed: ${r.pactId}`, span);
    prev = stored.exec;
  }
  checkStep(ip, prev, r.step, r.rollback, span);
  const d = defpactOf(ip, prev.continuation.def, span);
  const y = prev.yield;
  const resume: PactYield | null =
    r.yieldData === null
      ? y
      : { data: r.yieldData, provenance: y?.provenance ?? null, source: y?.source ?? null };
  if (!r.rollback) checkProvenance(ip, resume, d, span);
  const run = runStep(
    ip,
    {
      def: d,
      args: prev.continuation.args,
      pactId: r.pactId,
      step: r.step,
      rollback: r.rollback,
      resume,
      nested: prev.nested,
    },
    span,
  );
  store(ip, run.exec, r.rollback, span);
  return run.value;
}

/** `(continue (child args…))`: advances a nested defpact to the parent's step. */
export function continueNested(
  ip: Interpreter,
  d: FunctionDef,
  args: readonly Value[],
  span: Span,
): Value {
  const parent = ip.pactStep;
  if (parent === null) throw ip.failure("EvalError", "continue: not in a defpact step", span);
  if (d.kind !== "defpact")
    throw ip.failure("EvalError", `continue: ${d.fqName} is not a defpact`, span);
  ip.checkArgs(d, args, span);
  const data = dataArgs(ip, d, args, span);
  const pactId = nestedPactId(parent.pactId, { def: d.fqName, args: data });
  const prev = parent.nested.get(pactId);
  if (prev === undefined)
    throw ip.failure(
      "EvalError",
      `Attempting to continue a pact that was not nested: ${d.fqName} (${pactId})`,
      span,
    );
  verifyParent(ip, parent, d, span);
  checkStep(ip, prev, parent.step, parent.rollback, span);
  const run = runStep(
    ip,
    {
      def: d,
      args: data,
      pactId,
      step: parent.step,
      rollback: parent.rollback,
      resume: prev.yield,
      nested: prev.nested,
    },
    span,
  );
  parent.nested.set(pactId, run.exec);
  return run.value;
}

function crossChainEvent(
  ip: Interpreter,
  name: "X_YIELD" | "X_RESUME",
  chain: string,
  s: PactStepContext,
): void {
  ip.tx.emit({
    name,
    module: { namespace: null, name: "pact" },
    moduleHash: s.def.module.hash,
    params: [
      { kind: "string", value: chain },
      { kind: "string", value: s.def.fqName },
      { kind: "list", items: s.args },
    ],
  });
}

/** `(yield obj [target-chain])`. */
export function yieldData(
  ip: Interpreter,
  data: PactValue,
  target: string | null,
  span: Span,
): void {
  const s = ip.pactStep;
  if (s === null) throw ip.failure("EvalError", "yield: not in a defpact step", span);
  if (target === null) {
    s.yielded = { data, provenance: null, source: ip.ctx.chainData.chainId };
    return;
  }
  if (s.stepHasRollback)
    throw ip.failure(
      "EvalError",
      "yield: a cross-chain yield is not allowed in a step with a rollback",
      span,
    );
  s.yielded = {
    data,
    provenance: { targetChainId: target, moduleHash: s.def.module.hash },
    source: ip.ctx.chainData.chainId,
  };
}

/** The yield `resume` binds. */
export function resumeYield(ip: Interpreter, span: Span): PactValue {
  const s = ip.pactStep;
  if (s === null) throw ip.failure("EvalError", "resume: not in a defpact step", span);
  const y = s.resume;
  if (y === null) throw ip.failure("EvalError", "resume: no yielded data to resume", span);
  // Reading a yield costs a unit per field, as the reference's `ReadYield`.
  if (y.data.kind === "object") ip.chargeGas(y.data.fields.size * GAS_READ_UNIT, span);
  return y.data;
}

/**
 * A cross-chain yield may only be resumed on its target chain, by the module
 * that yielded it (its current hash or one it blesses).
 */
function checkProvenance(ip: Interpreter, y: PactYield | null, d: FunctionDef, span: Span): void {
  const p = y?.provenance ?? null;
  if (p === null) return;
  const chain = ip.ctx.chainData.chainId;
  const m = loadModule(ip, d.module.fq, span);
  const hashes = m === null ? [d.module.hash] : [m.hash, ...m.record.blessed];
  if (p.targetChainId !== chain || !hashes.includes(p.moduleHash)) {
    throw ip.failure(
      "EvalError",
      `enforceYield: yield provenance {targetChainId: ${p.targetChainId}, moduleHash: ${p.moduleHash}} does not match {targetChainId: ${chain}, moduleHash: ${m?.hash ?? d.module.hash}}`,
      span,
    );
  }
}
