/**
 * The CPU miner: a pool of worker threads (minerWorker.ts) searching one work
 * item in disjoint nonce ranges. It owns the clock (the creation time is
 * refreshed about once a second to max(now, previous + 1) µs and pushed to
 * every thread), checks each reported solution independently (noble Blake2s
 * over the whole header) before passing it on, sums the threads' hash rates,
 * and has a lifecycle: start / stop / setWork / close.
 *
 * After a solution the pool idles until it gets new work: a second solution
 * for the same parent would only be an orphan.
 * @module
 */
import { randomBytes } from "node:crypto";
import type { Worker } from "node:worker_threads";
import { blake2s256 } from "../crypto/blake2.ts";
import { CREATION_TIME_OFFSET, NONCE_OFFSET, WORK_HEADER_BYTES } from "./blake2sMidstate.ts";
import { MiningError, MiningErrorCode } from "./errors.ts";
import { assertLength, assertNonce, meetsTarget } from "./nonceSearch.ts";
import { positiveInteger } from "./positiveInteger.ts";
import {
  type FromWorker,
  type MinerWorkerSettings,
  parseFromWorker,
  type ToWorker,
} from "./protocol.ts";
import { spawnMinerWorker } from "./spawnMinerWorker.ts";

/** Mining work: 4 chain-id bytes, 32 target bytes, the 286-byte work header. */
export const WORK_BYTES = 322;
const TARGET_OFFSET = 4;
const HEADER_OFFSET = 36;
const U64_SPAN = 1n << 64n;
/** How long close() waits for a worker to leave by itself before terminating it. */
const CLOSE_GRACE_MS = 2000;

export type MiningSolution = {
  /** The id given with the work. */
  workId: string;
  /** The solved 286-byte header: the work header with nonce and (maybe) creation time changed. */
  header: Uint8Array;
  nonce: bigint;
  /** Creation time in the solved header, µs since the epoch. */
  creationTime: bigint;
};

export type WorkerPoolOptions = {
  /** Worker threads (default 1). */
  threads?: number | undefined;
  /** Wall clock in µs since the epoch (default `Date.now() * 1000`); tests pass a fake. */
  clock?: (() => bigint) | undefined;
  /** Creation-time refresh period in ms (default 1000). */
  refreshIntervalMs?: number | undefined;
  /** How often each thread reports its hash rate, in ms (default 1000). */
  progressIntervalMs?: number | undefined;
  /** First nonce of thread 0 for each dispatched work item (default: random). */
  startNonce?: (() => bigint) | undefined;
  /** A checked solution of the current work. */
  onSolution: (solution: MiningSolution) => void;
  /** The summed rate of all threads, in nonces per second, after each thread report. */
  onHashRate?: ((noncesPerSecond: number) => void) | undefined;
  /** A worker failed or misbehaved; after a worker failure the pool is stopped. */
  onError?: ((error: MiningError) => void) | undefined;
};

export type WorkerPoolState = "idle" | "running" | "stopped" | "closed";

type Work = {
  id: string;
  header: Uint8Array;
  target: Uint8Array;
  originalTime: bigint;
  creationTime: bigint;
  solved: boolean;
};

type Slot = { worker: Worker; index: number; rate: number; alive: boolean; exited: Promise<void> };

function randomNonce(): bigint {
  return randomBytes(8).readBigUInt64LE(0);
}

function defaultClock(): bigint {
  return BigInt(Date.now()) * 1000n;
}

export class WorkerPool {
  readonly threads: number;
  readonly #clock: () => bigint;
  readonly #refreshMs: number;
  readonly #settings: MinerWorkerSettings;
  readonly #startNonce: () => bigint;
  readonly #onSolution: (solution: MiningSolution) => void;
  readonly #onHashRate: ((noncesPerSecond: number) => void) | undefined;
  readonly #onError: ((error: MiningError) => void) | undefined;

  #state: WorkerPoolState = "idle";
  #slots: Slot[] = [];
  #spawning: Promise<void> | undefined;
  #work: Work | undefined;
  #generation = 0;
  #timer: NodeJS.Timeout | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: WorkerPoolOptions) {
    this.threads = positiveInteger(options.threads ?? 1, "threads");
    this.#refreshMs = positiveInteger(options.refreshIntervalMs ?? 1000, "refreshIntervalMs");
    this.#settings = {
      progressIntervalMs: positiveInteger(options.progressIntervalMs ?? 1000, "progressIntervalMs"),
    };
    this.#clock = options.clock ?? defaultClock;
    this.#startNonce = options.startNonce ?? randomNonce;
    this.#onSolution = options.onSolution;
    this.#onHashRate = options.onHashRate;
    this.#onError = options.onError;
  }

  get state(): WorkerPoolState {
    return this.#state;
  }

  /** Worker threads that have not exited yet. */
  get liveThreads(): number {
    return this.#slots.filter((s) => s.alive).length;
  }

  /** The id of the current work, if any. */
  get workId(): string | undefined {
    return this.#work?.id;
  }

  /** The creation time (µs) the threads currently hash for the current work, if any. */
  get creationTime(): bigint | undefined {
    return this.#work?.creationTime;
  }

  /** Summed rate of the threads' latest reports for the current work, nonces per second. */
  hashRate(): number {
    return this.#slots.reduce((sum, s) => sum + s.rate, 0);
  }

  /**
   * Starts the threads (on first use) and mines the current work, if any.
   * Resolves when every thread has loaded.
   * @throws MiningError MINING_POOL_CLOSED, MINING_WORKER_FAILED (a thread did not start)
   */
  async start(): Promise<void> {
    this.#assertOpen();
    if (this.#state === "running") return this.#spawning;
    this.#state = "running";
    if (this.#slots.length === 0) {
      this.#spawning ??= this.#spawn().finally(() => {
        this.#spawning = undefined;
      });
      await this.#spawning;
    }
    if (this.#state === "running") this.#dispatch();
  }

  /** Stops searching; threads stay loaded. Reports already in flight are dropped. */
  stop(): void {
    if (this.#state !== "running") return;
    this.#state = "stopped";
    this.#generation++;
    this.#stopTimer();
    this.#broadcast({ kind: "stop" });
    for (const s of this.#slots) s.rate = 0;
  }

  /**
   * Replaces the work (dropping the old). `work` is the 322 bytes of
   * GET /mining/work. While running, the threads switch to it at once.
   * @throws MiningError MINING_POOL_CLOSED, MINING_BAD_WORK
   */
  setWork(workId: string, work: Uint8Array): void {
    this.#assertOpen();
    assertLength(work, WORK_BYTES, "work");
    const header = work.slice(HEADER_OFFSET, HEADER_OFFSET + WORK_HEADER_BYTES);
    const time = new DataView(header.buffer).getBigInt64(CREATION_TIME_OFFSET, true);
    this.#work = {
      id: workId,
      header,
      target: work.slice(TARGET_OFFSET, HEADER_OFFSET),
      originalTime: time,
      creationTime: time,
      solved: false,
    };
    if (this.#state === "running" && this.#spawning === undefined) this.#dispatch();
  }

  /** Stops the threads and waits until every one has exited. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#state = "closed";
    this.#generation++;
    this.#stopTimer();
    await this.#spawning?.catch(() => undefined);
    await this.#shutDown();
  }

  async #shutDown(): Promise<void> {
    const slots = this.#slots;
    this.#slots = [];
    this.#broadcastTo(slots, { kind: "close" });
    await Promise.all(
      slots.map(async (s) => {
        const grace = setTimeout(() => void s.worker.terminate(), CLOSE_GRACE_MS);
        await s.exited;
        clearTimeout(grace);
      }),
    );
  }

  #assertOpen(): void {
    if (this.#state === "closed") {
      throw new MiningError({ code: MiningErrorCode.PoolClosed }, "the mining pool is closed");
    }
  }

  async #spawn(): Promise<void> {
    const ready: Promise<void>[] = [];
    for (let index = 0; index < this.threads; index++) {
      const worker = spawnMinerWorker(this.#settings);
      let onReady: () => void = () => undefined;
      let onFail: (e: MiningError) => void = () => undefined;
      ready.push(
        new Promise<void>((resolve, reject) => {
          onReady = resolve;
          onFail = reject;
        }),
      );
      const slot: Slot = {
        worker,
        index,
        rate: 0,
        alive: true,
        exited: new Promise((resolve) => worker.once("exit", () => resolve())),
      };
      this.#slots.push(slot);
      worker.on("message", (raw: unknown) => {
        let message: FromWorker;
        try {
          message = parseFromWorker(raw);
        } catch (e) {
          if (e instanceof MiningError) this.#onError?.(e);
          return;
        }
        if (message.kind === "ready") onReady();
        else this.#receive(slot, message);
      });
      worker.on("error", (e: Error) => {
        const error = this.#workerFailed(slot, e.message, e);
        onFail(error);
      });
      worker.on("exit", (code) => {
        slot.alive = false;
        const error = this.#workerFailed(slot, `exited with code ${code}`);
        onFail(error);
      });
    }
    try {
      await Promise.all(ready);
    } catch (e) {
      if (this.#state === "running") this.#state = "stopped";
      await this.#shutDown();
      throw e;
    }
  }

  /** A thread crashed or left: report it once and stop the pool (start() spawns afresh). */
  #workerFailed(slot: Slot, reason: string, cause?: unknown): MiningError {
    const error = new MiningError(
      { code: MiningErrorCode.WorkerFailed, thread: slot.index, reason },
      `mining thread ${slot.index} failed: ${reason}`,
      { cause },
    );
    // Closing, already handled, or still starting (start() rejects with it).
    if (!this.#slots.includes(slot) || this.#spawning !== undefined) return error;
    this.#onError?.(error);
    if (this.#state === "running") {
      this.#state = "stopped";
      this.#generation++;
      this.#stopTimer();
    }
    void this.#shutDown();
    return error;
  }

  #receive(slot: Slot, message: Exclude<FromWorker, { kind: "ready" }>): void {
    switch (message.kind) {
      case "progress":
        // A thread's speed does not depend on the work: reports of an older
        // work item still count while running (blocks may come faster than reports).
        if (this.#state !== "running" || message.elapsedMs <= 0) return;
        slot.rate = (message.tried * 1000) / message.elapsedMs;
        this.#onHashRate?.(this.hashRate());
        return;
      case "solved":
        if (message.generation !== this.#generation) return;
        this.#solved(message.header);
        return;
      case "failed":
        this.#onError?.(
          new MiningError(
            { code: MiningErrorCode.BadMessage, direction: "toWorker", reason: message.reason },
            `mining thread ${slot.index} rejected a message: ${message.reason}`,
          ),
        );
        return;
      default: {
        const unreachable: never = message;
        throw unreachable;
      }
    }
  }

  #solved(header: Uint8Array): void {
    const work = this.#work;
    if (work === undefined || work.solved) return;
    const reason = checkSolution(work, header);
    if (reason !== null) {
      this.#onError?.(
        new MiningError(
          { code: MiningErrorCode.BadSolution, workId: work.id, reason },
          `a mining thread reported a bad solution for work ${work.id}: ${reason}`,
        ),
      );
      return;
    }
    work.solved = true;
    this.#generation++;
    this.#stopTimer();
    this.#broadcast({ kind: "stop" });
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
    this.#onSolution({
      workId: work.id,
      header,
      nonce: view.getBigUint64(NONCE_OFFSET, true),
      creationTime: view.getBigInt64(CREATION_TIME_OFFSET, true),
    });
  }

  /** Sends the current work to every thread, each with its own slice of the nonce space. */
  #dispatch(): void {
    const work = this.#work;
    this.#generation++;
    this.#stopTimer();
    // Rates are kept across work items (threads report over windows that span them).
    if (work === undefined || work.solved) {
      this.#broadcast({ kind: "stop" });
      return;
    }
    const base = this.#startNonce();
    assertNonce(base, "startNonce");
    const stride = U64_SPAN / BigInt(this.threads);
    for (const s of this.#slots) {
      this.#post(s, {
        kind: "work",
        generation: this.#generation,
        header: work.header,
        target: work.target,
        startNonce: (base + BigInt(s.index) * stride) % U64_SPAN,
      });
    }
    this.#timer = setInterval(() => this.#refreshTime(), this.#refreshMs);
    this.#timer.unref();
  }

  #refreshTime(): void {
    const work = this.#work;
    if (this.#state !== "running" || work === undefined || work.solved) return;
    const now = this.#clock();
    const next = now > work.creationTime ? now : work.creationTime + 1n;
    work.creationTime = next;
    new DataView(work.header.buffer).setBigInt64(CREATION_TIME_OFFSET, next, true);
    this.#broadcast({ kind: "time", generation: this.#generation, creationTime: next });
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #broadcast(message: ToWorker): void {
    this.#broadcastTo(this.#slots, message);
  }

  #broadcastTo(slots: readonly Slot[], message: ToWorker): void {
    for (const s of slots) this.#post(s, message);
  }

  #post(slot: Slot, message: ToWorker): void {
    if (slot.alive) slot.worker.postMessage(message);
  }
}

/** Why `header` is not a solution of `work`, or null when it is. */
function checkSolution(work: Work, header: Uint8Array): string | null {
  for (let i = 0; i < WORK_HEADER_BYTES; i++) {
    const mutable =
      (i >= CREATION_TIME_OFFSET && i < CREATION_TIME_OFFSET + 8) || i >= NONCE_OFFSET;
    if (!mutable && header[i] !== work.header[i]) return `byte ${i} differs from the work`;
  }
  const time = new DataView(header.buffer, header.byteOffset).getBigInt64(
    CREATION_TIME_OFFSET,
    true,
  );
  if (time < work.originalTime || time > work.creationTime) {
    return `creation time ${time} was never given out`;
  }
  return meetsTarget(blake2s256(header), work.target) ? null : "hash above target";
}
