/**
 * The entry point for running one command's contract code: an `exec`
 * payload (code) or a `cont` payload (continue a defpact: id, step, rollback,
 * optional cross-chain proof checked by the injected SPV verifier), against a
 * runtime context (signers, message data, chain data, tx hash, gas limit and
 * model, namespace policy, storage). The storage transaction is begun here
 * and committed on success, rolled back on failure (or always, in local
 * mode). The outcome carries the result, events, the defpact state, gas
 * used, the writes (the command result's logs) and the txId.
 *
 * System code (coinbase, gas purchase and redemption, genesis) runs through
 * the same entry with `grantedCaps`: capabilities in force before any code
 * runs, as chainweb's "magic" `coin.COINBASE`, `coin.GAS`, `coin.GENESIS`
 * (reference §4.6). Buying gas may also name a `gasPayer`: a signer's
 * `GAS_PAYER` capability, acquired around the code when its module
 * implements `gas-payer-v1` (the gas station pattern, reference §8.2).
 *
 * @example
 * ```ts
 * const out = runContractCommand({
 *   payload: { kind: "exec", code: '(coin.transfer "a" "b" 1.0)' },
 *   data, signers, chainData, txHash, gasLimit: 2500, storage,
 *   namespacePolicy: { kind: "smart", allowRoot: false, validator: "ns.validate" },
 * });
 * if (out.result.ok) … out.events, out.gasUsed, out.continuation, out.logs, out.txId
 * ```
 * @module
 */

import { contractInvariant } from "./errors.ts";
import { acquireAround, grantMagic } from "./eval/capabilities.ts";
import type { NativeTable } from "./eval/compile.ts";
import { continuePact } from "./eval/defpacts.ts";
import { ContractGasMeter, type GasModel } from "./eval/gasTable.ts";
import { Interpreter } from "./eval/interpreter.ts";
import { loadModule } from "./eval/modules.ts";
import {
  type ChainData,
  DEFAULT_STEP_LIMIT,
  type ExecMode,
  type GasMeter,
  type NamespacePolicy,
  type RuntimeContext,
  type SigCapability,
  type Signer,
  type SpvSupport,
  StepMeter,
} from "./eval/runtimeContext.ts";
import { isData, type Value } from "./eval/term.ts";
import { type PactEvent, TxState, type TxWrite } from "./eval/txState.ts";
import { typeNameOf } from "./eval/typeSpec.ts";
import { type EvalResult, evaluateForm, guarded, parseSource } from "./evaluate.ts";
import { coreNatives } from "./natives/nativeTable.ts";
import type { ContractStorage } from "./storage/contractStorage.ts";
import type { PactExec } from "./storage/pactExec.ts";
import type { ParseNode } from "./syntax/parseTree.ts";
import type { Span } from "./syntax/span.ts";
import { type PactValue, pString } from "./values/value.ts";

export type ContractPayload =
  | { readonly kind: "exec"; readonly code: string }
  | {
      readonly kind: "cont";
      /** The defpact id (`pactId`; the spec's `contractTxHash`). */
      readonly pactId: string;
      readonly step: number;
      readonly rollback: boolean;
      /** Base64url SPV proof of the source chain's step, for a cross-chain continuation. */
      readonly proof: string | null;
    };

/**
 * A gas payer for buying gas: `cap` is a signer's `GAS_PAYER` capability
 * (`ns.module.GAS_PAYER` with the signer's arguments); `data` is the message
 * data its defcap sees (the node's enriched data: `tx-type` …).
 */
export type GasPayer = { readonly cap: SigCapability; readonly data: PactValue };

/** The interface a gas payer's module must implement. */
export const GAS_PAYER_INTERFACE = "gas-payer-v1";

export type ContractCommand = {
  readonly payload: ContractPayload;
  /** Message data (`read-msg` …): an object. */
  readonly data: PactValue;
  readonly signers: readonly Signer[];
  readonly chainData: ChainData;
  /** Base64url hash of the command (the id of a defpact it starts). */
  readonly txHash: string;
  readonly gasLimit: number;
  /** Default: the table model. */
  readonly gasModel?: GasModel | undefined;
  /** Gas already charged before the code runs (chainweb's transaction-size charge). */
  readonly initialGas?: number | undefined;
  readonly namespacePolicy: NamespacePolicy;
  readonly storage: ContractStorage;
  readonly spv?: SpvSupport | null | undefined;
  readonly execFlags?: ReadonlySet<string> | undefined;
  /** Default `transactional`; `local` evaluates and rolls back (the /local endpoint). */
  readonly mode?: Exclude<ExecMode, "repl"> | undefined;
  /** Capabilities in force before any code runs (system code). */
  readonly grantedCaps?: readonly SigCapability[] | undefined;
  /**
   * Acquired (its defcap run with `data` as the message data, without the
   * module-admin check) for the extent of the code, when its module exists
   * and implements `gas-payer-v1`; otherwise the code runs without it. A
   * failing defcap fails the command. (Buying gas: chainweb's `findPayer`.)
   */
  readonly gasPayer?: GasPayer | null | undefined;
  /** File name positions in failures carry. Default `tx`. */
  readonly file?: string | undefined;
  readonly natives?: NativeTable | undefined;
  readonly stepLimit?: number | undefined;
  /**
   * The work meter instead of a step meter of `stepLimit` (the host's own,
   * e.g. one that also aborts after a wall-clock limit: exec/timeLimit.ts).
   */
  readonly meter?: GasMeter | undefined;
};

export type ContractOutcome = {
  readonly result: EvalResult<PactValue>;
  /** In order; empty when the command failed (its events are discarded). */
  readonly events: readonly PactEvent[];
  /** The defpact state the command left (started or continued), or null. */
  readonly continuation: PactExec | null;
  /** Gas charged, including `initialGas`; never above the limit. */
  readonly gasUsed: number;
  /** The writes, in order; empty when the command failed or ran locally. */
  readonly logs: readonly TxWrite[];
  /** The committed transaction's id; null on failure or in local mode. */
  readonly txId: number | null;
};

/** A result must be data; a function or table left as the last value is shown as its name. */
function resultValue(v: Value): PactValue {
  return isData(v) ? v : pString(`<${typeNameOf(v)}>`);
}

/**
 * Parse trees of recent programs (immutable), by file and text: system code
 * (buy gas, redeem gas, coinbase) is the same text for every command.
 */
const parsedPrograms = new Map<string, ParseNode[]>();
const PARSED_MAX = 256;
const PARSED_MAX_TEXT = 4096;

function parseCached(source: string, file: string): EvalResult<ParseNode[]> {
  if (source.length > PARSED_MAX_TEXT) return parseSource(source, file);
  const key = `${file}\u0000${source}`;
  const hit = parsedPrograms.get(key);
  if (hit !== undefined) return { ok: true, value: hit };
  const parsed = parseSource(source, file);
  if (parsed.ok) {
    if (parsedPrograms.size >= PARSED_MAX)
      parsedPrograms.delete(parsedPrograms.keys().next().value as string);
    parsedPrograms.set(key, parsed.value);
  }
  return parsed;
}

function runCode(
  ip: Interpreter,
  source: string,
  file: string,
  natives: NativeTable,
): EvalResult<PactValue> {
  const parsed = parseCached(source, file);
  if (!parsed.ok) return parsed;
  if (parsed.value.length === 0) {
    const span: Span = { file, line: 1, column: 0, offset: 0, end: source.length };
    return {
      ok: false,
      error: {
        kind: "SyntaxError",
        message: "expected at least one expression",
        span,
        callStack: [],
      },
    };
  }
  let last: PactValue = pString("");
  for (const node of parsed.value) {
    const r = evaluateForm(node, ip, natives);
    if (!r.ok) return r;
    last = resultValue(r.value);
  }
  return { ok: true, value: last };
}

function runCont(
  ip: Interpreter,
  p: Extract<ContractPayload, { kind: "cont" }>,
  file: string,
): EvalResult<PactValue> {
  const span: Span = { file, line: 1, column: 0, offset: 0, end: 0 };
  return guarded(() => {
    let proven: PactExec | null = null;
    if (p.proof !== null) {
      const spv = ip.ctx.spv;
      if (spv === null)
        throw ip.failure("TxFailure", "Cross-chain continuations are not supported here", span);
      const r = spv.verifyContinuation(p.proof);
      if (!r.ok) throw ip.failure("TxFailure", `SPV verification failed: ${r.error}`, span);
      proven = r.value;
    }
    const v = continuePact(
      ip,
      { pactId: p.pactId, step: p.step, rollback: p.rollback, proven, yieldData: null },
      span,
    );
    return resultValue(v);
  }, span);
}

function runPayload(
  ip: Interpreter,
  payload: ContractPayload,
  file: string,
  natives: NativeTable,
): EvalResult<PactValue> {
  const r =
    payload.kind === "exec" ? runCode(ip, payload.code, file, natives) : runCont(ip, payload, file);
  if (!r.ok) return r;
  // The result and events are rendered as JSON outside the evaluator: their size is paid here.
  const span: Span = { file, line: 1, column: 0, offset: 0, end: 0 };
  const charged = guarded(
    () => ip.chargeOutputSize([r.value, ...ip.tx.events.flatMap((e) => e.params)], span),
    span,
  );
  return charged.ok ? r : charged;
}

/**
 * Runs `run` with the gas payer's capability acquired, when its module
 * implements gas-payer-v1. The defcap runs on an interpreter of its own that
 * shares the transaction state but sees the payer's message data.
 */
function withGasPayer(
  ip: Interpreter,
  payer: GasPayer,
  file: string,
  natives: NativeTable,
  run: () => EvalResult<PactValue>,
): EvalResult<PactValue> {
  const span: Span = { file, line: 1, column: 0, offset: 0, end: 0 };
  const payerIp = new Interpreter(
    { ...ip.ctx, data: payer.data },
    { tx: ip.tx, natives, moduleNatives: natives, source: "" },
  );
  // Set by the closures below (the code runs inside the acquisition).
  const ran: { result: EvalResult<PactValue> | null } = { result: null };
  const acquired = guarded(() => {
    const parts = payer.cap.name.split(".");
    const member = parts.pop();
    const m = parts.length === 0 ? null : loadModule(payerIp, parts.join("."), span);
    if (m === null || m.kind !== "module" || !m.record.interfaces.includes(GAS_PAYER_INTERFACE)) {
      ran.result = run();
      return;
    }
    const def = member === undefined ? undefined : m.defs.get(member);
    if (def === undefined || def.kind !== "defcap")
      throw payerIp.failure(
        "EvalError",
        `gas payer: ${payer.cap.name} is not a capability of ${m.fq}`,
        span,
      );
    payerIp.checkArgs(def, payer.cap.args, span);
    acquireAround(payerIp, { def, cap: { name: def.fqName, args: payer.cap.args } }, span, () => {
      ran.result = run();
    });
  }, span);
  if (!acquired.ok) return acquired;
  if (ran.result === null) throw contractInvariant("gas payer: the code did not run");
  return ran.result;
}

/** Runs one command's code or continuation in its own storage transaction. */
export function runContractCommand(cmd: ContractCommand): ContractOutcome {
  const gas = new ContractGasMeter(cmd.gasModel ?? { kind: "table" }, cmd.gasLimit);
  gas.used = cmd.initialGas ?? 0;
  const mode = cmd.mode ?? "transactional";
  const ctx: RuntimeContext = {
    data: cmd.data,
    signers: cmd.signers,
    chainData: cmd.chainData,
    txHash: cmd.txHash,
    execFlags: cmd.execFlags ?? new Set(),
    storage: cmd.storage,
    meter: cmd.meter ?? new StepMeter(cmd.stepLimit ?? DEFAULT_STEP_LIMIT),
    gas,
    namespacePolicy: cmd.namespacePolicy,
    spv: cmd.spv ?? null,
    mode,
  };
  const natives = cmd.natives ?? coreNatives;
  const file = cmd.file ?? "tx";
  const tx = new TxState();
  const source = cmd.payload.kind === "exec" ? cmd.payload.code : "";
  const ip = new Interpreter(ctx, { tx, natives, moduleNatives: natives, source });
  grantMagic(ip, cmd.grantedCaps ?? []);
  cmd.storage.beginTx();
  const payer = cmd.gasPayer ?? null;
  let result: EvalResult<PactValue>;
  try {
    result =
      payer === null
        ? runPayload(ip, cmd.payload, file, natives)
        : withGasPayer(ip, payer, file, natives, () => runPayload(ip, cmd.payload, file, natives));
  } catch (e) {
    // The host aborted the run (exec/timeLimit.ts) or a bug escaped: nothing of it stays.
    cmd.storage.rollbackTx();
    throw e;
  }
  const gasUsed = Math.min(gas.used, gas.limit);
  if (!result.ok || mode === "local") {
    cmd.storage.rollbackTx();
    return {
      result,
      events: result.ok ? tx.events : [],
      continuation: result.ok ? tx.pactExec : null,
      gasUsed,
      logs: [],
      txId: null,
    };
  }
  const txId = cmd.storage.commitTx();
  return { result, events: tx.events, continuation: tx.pactExec, gasUsed, logs: tx.writes, txId };
}
