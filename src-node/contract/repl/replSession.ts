/**
 * A `.repl` session: runs scripts form by form, keeps the environment the
 * `env-*` natives set (applied when each top-level form finishes, as in the
 * reference), the open transaction, printed output and every expectation's
 * result with its file and line.
 *
 * File access goes through an injected reader, so the session itself does no
 * I/O and runs anywhere the evaluator runs.
 * @module
 */
import { type PactError, renderPactError } from "../errors.ts";
import type { NativeTable } from "../eval/compile.ts";
import { DEFAULT_TX_HASH } from "../eval/createRuntimeContext.ts";
import { ContractGasMeter, UNLIMITED_GAS } from "../eval/gasTable.ts";
import { Interpreter } from "../eval/interpreter.ts";
import {
  type ChainData,
  DEFAULT_STEP_LIMIT,
  defaultChainData,
  type ExecMode,
  type GasMeter,
  type NamespacePolicy,
  type RuntimeContext,
  type Signer,
  type SpvResult,
  type SpvSupport,
  StepMeter,
} from "../eval/runtimeContext.ts";
import type { Value } from "../eval/term.ts";
import { TxState } from "../eval/txState.ts";
import { type EvalResult, evaluateForm, parseSource } from "../evaluate.ts";
import { buildNativeTable, coreNatives } from "../natives/nativeTable.ts";
import type { ContractStorage } from "../storage/contractStorage.ts";
import { createMemoryStorage } from "../storage/memoryStorage.ts";
import type { PactExec } from "../storage/pactExec.ts";
import type { Span } from "../syntax/span.ts";
import { pactValueToJsonText } from "../values/json.ts";
import { makeObject, type PactValue } from "../values/value.ts";
import { createReplNatives } from "./replNatives.ts";

/** Reads a file named by `load`; `path` is already resolved against the loading file. */
export type FileReader = (path: string) => string;

/** One `expect*` outcome. */
export type ExpectationResult = {
  readonly file: string;
  readonly line: number;
  readonly doc: string;
  readonly ok: boolean;
  /** `Expect: success: doc` or `FAILURE: doc: …` */
  readonly message: string;
};

/** What running a script produced. */
export type ReplReport = {
  readonly expectations: readonly ExpectationResult[];
  /** An uncaught failure stops the script; it is reported here with its rendered text. */
  readonly error: { readonly failure: PactError; readonly rendered: string } | null;
  /** Lines the script printed (`print`, tx boundaries, load messages). */
  readonly output: readonly string[];
};

export type ReplEnv = {
  data: PactValue;
  signers: readonly Signer[];
  chainData: ChainData;
  txHash: string;
  execFlags: ReadonlySet<string>;
  namespacePolicy: NamespacePolicy;
  /** `env-entity`: the private-pact entity steps are run for (null: none). */
  entity: string | null;
  /** `env-simulate-onchain`: errors read as on chain (the reference's not-in-repl mode). */
  onChain: boolean;
};

/** Makes the storage a session runs against (the reference in-memory one by default). */
export type StorageFactory = () => ContractStorage;

export type ReplSessionOptions = {
  readonly readFile?: FileReader | undefined;
  /** The storage to run against; or give {@link ReplSessionOptions.storageFactory}. */
  readonly storage?: ContractStorage | undefined;
  /** Builds the session's storage (lets the same scripts run on every implementation). */
  readonly storageFactory?: StorageFactory | undefined;
  readonly stepLimit?: number | undefined;
  /** Joins a `load` path with the directory of the loading file. */
  readonly resolvePath?: ((fromFile: string, path: string) => string) | undefined;
};

/** The key of a `mock-spv` answer. */
export function spvMockKey(type: string, payload: PactValue): string {
  return `${type} ${pactValueToJsonText(payload)}`;
}

/**
 * The reference repl's path of a loaded file: `path` as written when absolute
 * or when the loading file was named without a folder, else joined to the
 * loading file's folder; never normalized (the name is part of every source
 * position, and of module references' JSON before Pact 4.9).
 */
function posixResolve(fromFile: string, path: string): string {
  if (path.startsWith("/")) return path;
  const slash = fromFile.lastIndexOf("/");
  if (slash < 0) return path;
  return slash === 0 ? `/${path}` : `${fromFile.slice(0, slash)}/${path}`;
}

/** The session's gas meter, with the log `env-gaslog` starts and reads. */
export class ReplGasMeter extends ContractGasMeter {
  private log: { name: string; units: number }[] | null = null;

  constructor() {
    super({ kind: "fixed", rate: 0 }, UNLIMITED_GAS);
  }

  override charge(units: number): boolean {
    const before = this.used;
    return this.#logged(before, super.charge(units));
  }

  /** Size charges are gas too: `env-gaslog`'s total matches `env-gas`. */
  override chargeSize(units: number): boolean {
    const before = this.used;
    return this.#logged(before, super.chargeSize(units));
  }

  /** Logs what a charge added to `used` since `before` (when logging is on); passes `ok` on. */
  #logged(before: number, ok: boolean): boolean {
    if (this.log !== null && this.used !== before)
      this.log.push({ name: "charge", units: this.used - before });
    return ok;
  }

  /** The entries logged since the last call (null when logging was off), and logs anew. */
  takeLog(): { name: string; units: number }[] | null {
    const l = this.log;
    this.log = [];
    return l;
  }
}

export class ReplSession {
  /** The environment new forms see. */
  env: ReplEnv;
  /** Changes made by the current form; applied when it finishes. */
  pending: Partial<ReplEnv> = {};
  readonly storage: ContractStorage;
  /** The open transaction (`begin-tx`), if any. */
  tx: { id: number; name: string | null } | null = null;
  /** The evaluation state (capabilities, events, imports …); reset at transaction boundaries. */
  evalState = new TxState();
  /** Gas of the session (`env-gasmodel`, `env-gaslimit`, `env-gas`). */
  readonly gas = new ReplGasMeter();
  /** The last defpact state a form left (what `continue-pact` and `pact-state` use). */
  lastPactExec: PactExec | null = null;
  /** `mock-spv` answers by type and payload JSON. */
  readonly spvMocks = new Map<string, PactValue>();
  /** `env-enable-repl-natives`: module code may use the repl natives. */
  replNativesInModules = false;
  readonly expectations: ExpectationResult[] = [];
  readonly output: string[] = [];
  readonly natives: NativeTable;
  readonly stepLimit: number;
  private readonly readFile: FileReader | undefined;
  private readonly resolvePath: (fromFile: string, path: string) => string;
  private loadDepth = 0;

  constructor(opts: ReplSessionOptions = {}) {
    this.env = {
      data: makeObject([]),
      signers: [],
      chainData: defaultChainData,
      txHash: DEFAULT_TX_HASH,
      execFlags: new Set(),
      namespacePolicy: { kind: "simple" },
      entity: null,
      onChain: false,
    };
    this.storage = opts.storage ?? opts.storageFactory?.() ?? createMemoryStorage();
    this.readFile = opts.readFile;
    this.resolvePath = opts.resolvePath ?? posixResolve;
    this.stepLimit = opts.stepLimit ?? DEFAULT_STEP_LIMIT;
    this.natives = buildNativeTable([...coreNatives.values()], createReplNatives(this));
  }

  /** The runtime context of the next top-level form. */
  context(): RuntimeContext {
    return this.contextOf(this.env, new StepMeter(this.stepLimit));
  }

  /** The runtime context of an environment (`with-applied-env` builds one mid-form). */
  contextOf(env: ReplEnv, meter: GasMeter): RuntimeContext {
    return {
      data: env.data,
      signers: env.signers,
      chainData: env.chainData,
      txHash: env.txHash,
      execFlags: env.execFlags,
      storage: this.storage,
      meter,
      gas: this.gas,
      namespacePolicy: env.namespacePolicy,
      spv: this.spv,
      mode: this.mode(env),
      inRepl: !env.onChain,
      entity: env.entity,
    };
  }

  /**
   * The reference's repl runs in transactional mode, which refuses history
   * and module listing only when a script sets `DisableHistoryInTransactionalMode`
   * (chainweb's flag).
   */
  private mode(env: ReplEnv): ExecMode {
    return env.execFlags.has("DisableHistoryInTransactionalMode") ? "transactional" : "repl";
  }

  /** Takes the changes made so far in this form (`with-applied-env` applies them itself). */
  takePending(): Partial<ReplEnv> {
    const p = this.pending;
    this.pending = {};
    return p;
  }

  /** The repl's SPV: answers what `mock-spv` registered; continuation proofs are not mocked. */
  readonly spv: SpvSupport = {
    verify: (type, payload): SpvResult<PactValue> => {
      const v = this.spvMocks.get(spvMockKey(type, payload));
      return v === undefined
        ? { ok: false, error: `no mock registered for ${type} ${pactValueToJsonText(payload)}` }
        : { ok: true, value: v };
    },
    verifyContinuation: () => ({
      ok: false,
      error: "cross-chain proofs are not mocked in the repl",
    }),
  };

  /** Natives module code may use: the core table, or all when repl natives are enabled. */
  moduleNatives(): NativeTable {
    return this.replNativesInModules ? this.natives : coreNatives;
  }

  /** A fresh evaluation state (transaction boundaries). */
  resetEvalState(): void {
    this.evalState = new TxState();
  }

  /** Records a change to the environment (visible from the next top-level form). */
  setEnv(change: Partial<ReplEnv>): void {
    this.pending = { ...this.pending, ...change };
  }

  private applyPending(): void {
    this.env = { ...this.env, ...this.pending };
    this.pending = {};
  }

  record(span: Span, doc: string, ok: boolean, message: string): string {
    this.expectations.push({ file: span.file, line: span.line, doc, ok, message });
    return message;
  }

  print(line: string): void {
    this.output.push(line);
  }

  /** Evaluates one source text form by form; stops at the first uncaught failure. */
  evalSource(source: string, file: string): EvalResult<Value | null> {
    const parsed = parseSource(source, file);
    if (!parsed.ok) return parsed;
    let last: Value | null = null;
    for (const node of parsed.value) {
      const ip = new Interpreter(this.context(), {
        tx: this.evalState,
        natives: this.natives,
        moduleNatives: this.moduleNatives(),
        source,
      });
      const r = evaluateForm(node, ip, this.natives);
      if (ip.tx.pactExec !== null) this.lastPactExec = ip.tx.pactExec;
      this.applyPending();
      if (!r.ok) return r;
      last = r.value;
    }
    return { ok: true, value: last };
  }

  /** Runs a whole script and reports. */
  runScript(source: string, file: string): ReplReport {
    const r = this.evalSource(source, file);
    return {
      expectations: [...this.expectations],
      error: r.ok ? null : { failure: r.error, rendered: renderPactError(r.error) },
      output: [...this.output],
    };
  }

  /** `load`: reads and evaluates another file (relative to `fromFile`). */
  load(fromFile: string, path: string): EvalResult<Value | null> & { file: string } {
    const file = this.resolvePath(fromFile, path);
    if (this.readFile === undefined) {
      return { ...this.failLoad(`load: no file reader configured (${file})`), file };
    }
    if (this.loadDepth > 16)
      return { ...this.failLoad(`load: files nested too deeply (${file})`), file };
    let text: string;
    try {
      text = this.readFile(file);
    } catch (e) {
      return {
        ...this.failLoad(
          `load: cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`,
        ),
        file,
      };
    }
    this.loadDepth++;
    try {
      return { ...this.evalSource(text, file), file };
    } finally {
      this.loadDepth--;
    }
  }

  private failLoad(message: string): EvalResult<Value | null> {
    return { ok: false, error: { kind: "EvalError", message, span: null, callStack: [] } };
  }
}
