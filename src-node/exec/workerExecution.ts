/**
 * `WorkerExecution`: the node's {@link ExecutionHost}: /local and payload
 * building run in execution worker threads (execWorker.ts), each with its
 * own read-only connections, so that a long command never holds the node's
 * event loop (the API, update streams, the desktop's main process).
 *
 * - The node's thread keeps every state write: before a request it moves
 *   the state to the block the request runs on (`ChainExecutor.localParent`,
 *   `stateAt`) and names that block; the worker reads the state after it on
 *   one snapshot. When the node moved the state away before the worker
 *   looked (`stale`), the request is sent again; after a few tries it runs
 *   on this thread, which is never wrong.
 * - Workers start when the node listens ({@link WorkerExecution.warm}) or
 *   on demand, up to `workers`; a request goes to an idle ready worker, else
 *   the least busy ready one (a new one starts meanwhile, below the limit),
 *   and to a loading one only when none is ready.
 * - A worker that stops (a crash, running out of memory) is logged with the
 *   reason and replaced on the next request; its requests are sent once
 *   more to another worker, and fail with EXEC_WORKER_FAILED (503) if that
 *   one stops too. A worker that never starts twice in a row (no thread
 *   support, a packaging fault) turns the host to in-process execution,
 *   with an error logged.
 * - Answers are parsed (execProtocol.ts); payload parts are hashed again
 *   here, so a payload's hashes never come from the worker.
 * @module
 */

import type { Worker } from "node:worker_threads";
import type { BlockHeader } from "../chain/blockHeader.ts";
import { type MinerInfo, minerDataBytes } from "../chain/minerData.ts";
import { buildPayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import type { ParsedCommand } from "../command/commandTypes.ts";
import type { Block } from "../store/blockDb.ts";
import { spawnWorker } from "../threads/spawnWorker.ts";
import { blockTransactionText } from "./blockTransaction.ts";
import type { ChainExecutor, ExecutorLog } from "./chainExecutor.ts";
import {
  type CommandError,
  CommandErrorCode,
  ExecError,
  ExecErrorCode,
  execInvariant,
} from "./errors.ts";
import {
  type ExecWorkerSettings,
  errorOfWire,
  type FromExecWorker,
  parseFromExecWorker,
  type ToExecWorker,
  wireHeader,
  workerFailed,
} from "./execProtocol.ts";
import { type ExecutionHost, InProcessExecution, type LocalRequest } from "./executionHost.ts";
import type { LocalAnswer } from "./localRun.ts";
import { nodeCommands } from "./nodeCommands.ts";
import { type BuiltPayload, type ReadyCommand, UNEXECUTABLE_WARNING } from "./payloadBuilder.ts";

/** Execution workers by default: one keeps /local answering while another builds a payload. */
export const DEFAULT_EXECUTION_WORKERS = 2;
/** How often a request is sent again after `stale` before it runs on the node's thread. */
const STALE_TRIES = 3;
/** Workers that stop before they are ready, in a row, before the host runs in process. */
const START_FAILURES = 2;
/** How long close() waits for a worker to leave by itself before terminating it. */
const CLOSE_GRACE_MS = 2000;

export type WorkerExecutionOptions = {
  /** The node's executor (on this thread): moves the state, and the in-process fallback. */
  readonly executor: ChainExecutor;
  readonly statePath: string;
  readonly blocksPath: string;
  readonly nativeBinding?: string | undefined;
  /** Most worker threads (default {@link DEFAULT_EXECUTION_WORKERS}). */
  readonly workers?: number | undefined;
  readonly log?: ExecutorLog | undefined;
  /** Starts a worker (default: execWorker.ts through threads/spawnWorker.ts); tests pass their own. */
  readonly spawn?: ((settings: ExecWorkerSettings) => Worker) | undefined;
  /** /local commands with a gas limit up to this run on the calling thread (default {@link INLINE_LOCAL_GAS_LIMIT}). */
  readonly inlineLocalGasLimit?: number | undefined;
};

/**
 * /local commands whose gas limit is at most this run on the node's thread.
 * Gas bounds time (at most about 5 µs a unit, `npm run bench -- hostile`), so
 * such a command holds the event loop for about 12 ms at worst, less than a
 * round trip to a worker costs in throughput: the messages and the state
 * check made /local 2.5 times slower for the small commands wallets send
 * (gas limits of 600–2,500). Larger limits, where one command could hold the
 * loop for up to a second, go to a worker.
 */
export const INLINE_LOCAL_GAS_LIMIT = 2_500;

type Request = Exclude<ToExecWorker, { kind: "close" }>;
type Answer = Exclude<FromExecWorker, { kind: "ready" | "failed" }>;

type Slot = {
  readonly worker: Worker;
  readonly pending: Set<number>;
  ready: boolean;
  alive: boolean;
  readonly exited: Promise<void>;
};

type Pending = {
  readonly request: Request;
  readonly resolve: (a: Answer) => void;
  readonly reject: (e: unknown) => void;
  /** Workers that stopped while running it. */
  stops: number;
};

/**
 * The heap an execution worker may use, MB. Gas bounds what one command can
 * allocate (the memory bound of contract/eval/gasTable.ts: 10 million
 * elements, several hundred MB at most), so a worker that reaches this is
 * out of bounds: it stops, its request fails with EXEC_WORKER_FAILED and
 * the next request starts a new worker, while the node's own heap is
 * untouched.
 */
export const EXEC_WORKER_HEAP_MB = 2048;

/** A new execution worker thread (execWorker.ts); it posts `{kind: "ready"}` once it listens. */
export function spawnExecWorker(
  settings: ExecWorkerSettings,
  heapMb: number = EXEC_WORKER_HEAP_MB,
): Worker {
  return spawnWorker(new URL("./execWorker.ts", import.meta.url), settings, {
    maxOldGenerationSizeMb: heapMb,
  });
}

export class WorkerExecution implements ExecutionHost {
  readonly #executor: ChainExecutor;
  readonly #inProcess: InProcessExecution;
  readonly #settings: ExecWorkerSettings;
  readonly #max: number;
  readonly #log: ExecutorLog | undefined;
  readonly #spawn: (settings: ExecWorkerSettings) => Worker;
  readonly #inlineLocalGasLimit: number;
  readonly #slots: Slot[] = [];
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #startFailures = 0;
  #inProcessOnly = false;
  #closed = false;

  constructor(options: WorkerExecutionOptions) {
    this.#executor = options.executor;
    this.#inProcess = new InProcessExecution(options.executor);
    this.#settings = {
      network: options.executor.version.name,
      statePath: options.statePath,
      blocksPath: options.blocksPath,
      nativeBinding: options.nativeBinding,
      spvProofDepth: options.executor.spvProofDepth,
      commandTimeLimitMs: options.executor.commandTimeLimitMs,
    };
    this.#max = Math.max(1, Math.floor(options.workers ?? DEFAULT_EXECUTION_WORKERS));
    this.#log = options.log;
    this.#spawn = options.spawn ?? spawnExecWorker;
    this.#inlineLocalGasLimit = options.inlineLocalGasLimit ?? INLINE_LOCAL_GAS_LIMIT;
  }

  /** Worker threads running now. */
  get workers(): number {
    return this.#slots.length;
  }

  /** True once workers could not start and execution runs on the node's thread. */
  get inProcessOnly(): boolean {
    return this.#inProcessOnly;
  }

  /**
   * Starts the workers now (the node calls it when it starts listening, so
   * that requests do not wait for threads to load).
   */
  warm(): void {
    if (this.#closed || this.#inProcessOnly) return;
    while (this.#slots.filter((s) => s.alive).length < this.#max) this.#start().worker.unref();
  }

  async local(chainId: number, body: unknown, request: LocalRequest): Promise<LocalAnswer> {
    return this.localNowOrLater(chainId, body, request);
  }

  localNowOrLater(
    chainId: number,
    body: unknown,
    request: LocalRequest,
  ): LocalAnswer | Promise<LocalAnswer> {
    // Parsed here to read the gas limit; a malformed command is refused here as in a worker.
    const command = nodeCommands.parseCommand(body);
    if (command.payload.meta.gasLimit <= this.#inlineLocalGasLimit) {
      if (request.signatureVerification) nodeCommands.verifyCommandSignatures(command);
      return this.#executor.local(chainId, command, request);
    }
    return this.#localInWorker(chainId, body, request);
  }

  async #localInWorker(
    chainId: number,
    body: unknown,
    request: LocalRequest,
  ): Promise<LocalAnswer> {
    const answer = await this.#ask(() => ({
      kind: "local",
      id: 0,
      parent: this.#executor.localParent(chainId, request.rewindDepth),
      body,
      preflight: request.preflight,
      signatureVerification: request.signatureVerification,
    }));
    if (answer === undefined) return this.#inProcess.local(chainId, body, request);
    if (answer.kind === "local") return { kind: "result", output: answer.output };
    if (answer.kind === "invalid") {
      return {
        kind: "invalid",
        failures: answer.failures.map((f) => errorOfWire(f) as CommandError),
      };
    }
    throw execInvariant(`a /local request was answered with ${answer.kind}`);
  }

  async buildPayload(
    parent: BlockHeader,
    miner: MinerInfo,
    candidates: readonly ReadyCommand[],
    blockTimeS: number,
  ): Promise<BuiltPayload> {
    const byKey = new Map<string, ParsedCommand>(
      candidates.map((c) => [c.command.hash, c.command] as const),
    );
    const wire = candidates.map((c) => ({
      requestKey: c.command.hash,
      text: blockTransactionText(c.command),
    }));
    const minerData = minerDataBytes(miner);
    const answer = await this.#ask(() => ({
      kind: "payload",
      id: 0,
      parent: this.#executor.stateAt(parent),
      minerData,
      candidates: wire,
      blockTimeS,
    }));
    if (answer === undefined)
      return this.#inProcess.buildPayload(parent, miner, candidates, blockTimeS);
    if (answer.kind !== "payload") {
      throw execInvariant(`a payload request was answered with ${answer.kind}`);
    }
    const command = (key: string): ParsedCommand => {
      const c = byKey.get(key);
      if (c === undefined) throw execInvariant(`the worker named ${key}, not a candidate`);
      return c;
    };
    const built: BuiltPayload = {
      payload: buildPayloadWithOutputs(answer.payload),
      included: answer.included.map(command),
      dropped: answer.dropped.map((d) => ({
        command: command(d.requestKey),
        error: errorOfWire(d.error) as CommandError,
      })),
    };
    // The worker has no log: the commands it left out because their execution threw are logged here.
    for (const d of built.dropped) {
      const t = d.error.type;
      if (t.code !== CommandErrorCode.Unexecutable) continue;
      this.#log?.warn(UNEXECUTABLE_WARNING, {
        chainId: parent.chainId,
        requestKey: d.command.hash,
        reason: t.reason,
      });
    }
    this.#executor.rememberIncluded(built, candidates);
    return built;
  }

  async prepareBlock(block: Block): Promise<void> {
    const { header, payload } = block;
    if (this.#closed || this.#inProcessOnly) return;
    const parent = this.#executor.blocks.header(header.parent);
    // An unknown parent (or any header fault) is for the insert to report.
    if (parent === undefined || parent.chainId !== header.chainId) return;
    let answer: Answer | undefined;
    try {
      answer = await this.#ask(() => ({
        kind: "block",
        id: 0,
        parent: this.#executor.stateAt(parent),
        header,
        payload: {
          transactions: payload.transactions.map((t) => ({
            transaction: t.transaction,
            output: t.output,
          })),
          minerData: payload.minerData,
          coinbase: payload.coinbase,
        },
      }));
    } catch (e) {
      if (
        e instanceof ExecError &&
        (e.code === ExecErrorCode.BlockInvalid || e.code === ExecErrorCode.OutputMismatch)
      ) {
        this.#executor.offerPrepared(header.hash, {
          ok: false,
          payloadHash: payload.payloadHash,
          error: e,
        });
        return;
      }
      if (e instanceof ExecError && e.code === ExecErrorCode.ShuttingDown) throw e;
      this.#log?.warn("executing a block in a worker failed; the insert executes it", {
        hash: header.hash,
        error: e instanceof Error ? e.message : String(e),
      });
      return;
    }
    if (answer === undefined) return;
    if (answer.kind !== "block") {
      throw execInvariant(`a block request was answered with ${answer.kind}`);
    }
    this.#executor.offerPrepared(header.hash, {
      ok: true,
      payloadHash: payload.payloadHash,
      baseEndTxId: answer.baseEndTxId,
      rows: answer.rows,
      results: answer.results,
      endTxId: answer.endTxId,
    });
  }

  /**
   * Sends the request `make` gives (made again for each try: it moves the
   * state) until an answer other than `stale`; undefined: run it in process.
   * @throws the request's own error (a `failed` answer), EXEC_WORKER_FAILED, EXEC_SHUTTING_DOWN.
   */
  async #ask(make: () => Request): Promise<Answer | undefined> {
    for (let tries = 0; tries < STALE_TRIES; tries++) {
      if (this.#closed) throw shuttingDown();
      if (this.#inProcessOnly) return undefined;
      const request = make();
      // Headers cross the boundary in their binary form (execProtocol.ts).
      const answer = await this.#send({
        ...request,
        parent: wireHeader(request.parent),
        ...(request.kind === "block" ? { header: wireHeader(request.header) } : {}),
      } as unknown as Request);
      if (answer === undefined) return undefined;
      if (answer.kind !== "stale") return answer;
    }
    this.#log?.warn("the state moved under the execution worker; running the request in process", {
      tries: STALE_TRIES,
    });
    return undefined;
  }

  /** One try on a worker; undefined when the host turned in-process meanwhile. */
  #send(request: Request): Promise<Answer | undefined> {
    const id = this.#nextId++;
    return new Promise<Answer | undefined>((resolve, reject) => {
      const p: Pending = {
        request: { ...request, id },
        resolve,
        reject,
        stops: 0,
      };
      this.#pending.set(id, p);
      this.#dispatch(id, p);
    }).catch((e: unknown) => {
      if (e === IN_PROCESS) return undefined;
      throw e;
    });
  }

  #dispatch(id: number, p: Pending): void {
    if (this.#inProcessOnly) {
      this.#pending.delete(id);
      p.reject(IN_PROCESS);
      return;
    }
    let slot: Slot;
    try {
      slot = this.#slot();
    } catch (e) {
      // The thread could not even be created.
      const reason = e instanceof Error ? e.message : String(e);
      this.#log?.warn("an execution worker could not be created", { reason });
      this.#startFailed(reason);
      p.stops++;
      if (this.#inProcessOnly || p.stops <= 1) {
        this.#dispatch(id, p);
      } else {
        this.#pending.delete(id);
        p.reject(workerFailed(reason));
      }
      return;
    }
    slot.pending.add(id);
    slot.worker.ref();
    try {
      slot.worker.postMessage(p.request);
    } catch (e) {
      slot.pending.delete(id);
      this.#pending.delete(id);
      p.reject(execInvariant(`cannot send to the execution worker: ${String(e)}`, e));
    }
  }

  /**
   * An idle ready worker; else the least busy ready one, while another
   * starts (below the limit); a loading worker only when none is ready (a
   * thread loads its modules for a while, and work queued there waits).
   */
  #slot(): Slot {
    let alive = this.#slots.filter((s) => s.alive);
    const ready = alive.filter((s) => s.ready);
    const idle = ready.find((s) => s.pending.size === 0);
    if (idle !== undefined) return idle;
    if (alive.length < this.#max) {
      const started = this.#start();
      if (ready.length === 0) return started;
      started.worker.unref();
      alive = ready;
    } else if (ready.length > 0) {
      alive = ready;
    }
    return alive.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  #start(): Slot {
    const worker = this.#spawn(this.#settings);
    let exited!: () => void;
    const slot: Slot = {
      worker,
      pending: new Set(),
      ready: false,
      alive: true,
      exited: new Promise<void>((r) => {
        exited = r;
      }),
    };
    this.#slots.push(slot);
    worker.on("message", (raw: unknown) => this.#onMessage(slot, raw));
    worker.on("error", (e: Error) => this.#stopped(slot, `${e.name}: ${e.message}`));
    worker.on("exit", (code: number) => {
      exited();
      this.#stopped(slot, `exited with code ${code}`);
    });
    return slot;
  }

  #onMessage(slot: Slot, raw: unknown): void {
    let m: FromExecWorker;
    try {
      m = parseFromExecWorker(raw);
    } catch (e) {
      this.#log?.error("unreadable message from an execution worker", {
        error: e instanceof Error ? e.message : String(e),
      });
      return;
    }
    if (m.kind === "ready") {
      slot.ready = true;
      this.#startFailures = 0;
      return;
    }
    if (m.kind === "failed" && m.id === null) {
      this.#log?.error("an execution worker could not read a request", { error: m.error.message });
      return;
    }
    const id = m.id as number;
    const p = this.#pending.get(id);
    if (p === undefined) return;
    this.#pending.delete(id);
    slot.pending.delete(id);
    if (slot.pending.size === 0) slot.worker.unref();
    if (m.kind === "failed") p.reject(errorOfWire(m.error));
    else p.resolve(m);
  }

  /** A worker stopped: its requests go to another worker once, or fail. */
  #stopped(slot: Slot, reason: string): void {
    if (!slot.alive) return;
    slot.alive = false;
    const at = this.#slots.indexOf(slot);
    if (at >= 0) this.#slots.splice(at, 1);
    if (this.#closed) return;
    this.#log?.warn("an execution worker stopped; another starts on the next request", {
      reason,
      requests: slot.pending.size,
    });
    if (!slot.ready) this.#startFailed(reason);
    for (const id of slot.pending) {
      const p = this.#pending.get(id);
      if (p === undefined) continue;
      p.stops++;
      // In-process only now: the request runs here (dispatch hands it back).
      if (p.stops > 1 && !this.#inProcessOnly) {
        this.#pending.delete(id);
        p.reject(workerFailed(reason));
      } else {
        this.#dispatch(id, p);
      }
    }
    slot.pending.clear();
  }

  /** A worker that never became ready; after {@link START_FAILURES} in a row, in process only. */
  #startFailed(reason: string): void {
    this.#startFailures++;
    if (this.#startFailures >= START_FAILURES && !this.#inProcessOnly) {
      this.#inProcessOnly = true;
      this.#log?.error("execution workers cannot start; executing on the node's thread", {
        reason,
      });
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const p of this.#pending.values()) p.reject(shuttingDown());
    this.#pending.clear();
    const slots = [...this.#slots];
    this.#slots.length = 0;
    await Promise.all(
      slots.map(async (s) => {
        // A worker that is already gone ignores the message (postMessage does not throw).
        s.worker.postMessage({ kind: "close" } satisfies ToExecWorker);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((r) => {
          timer = setTimeout(() => r("late"), CLOSE_GRACE_MS);
        });
        if ((await Promise.race([s.exited, late])) === "late") await s.worker.terminate();
        clearTimeout(timer);
      }),
    );
  }
}

/** Rejection of a request that is to run in process instead. */
const IN_PROCESS = Symbol("in-process");

function shuttingDown(): ExecError {
  return new ExecError(
    { code: ExecErrorCode.ShuttingDown },
    "the node is shutting down; send the request again once it is back",
  );
}
