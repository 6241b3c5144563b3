/**
 * The node's own CPU miner: mines the node's work (miningService.ts) for a
 * configured miner in worker threads (workerPool.ts), submits what it finds
 * through the same checks as the HTTP API, and fetches new work after each
 * solution and whenever its chain's work goes out of date (a new block on
 * that chain or on a neighbour it waited for), or is refreshed because new
 * commands reached that chain's mempool (then on the same chain). It starts and stops at
 * runtime, can change its thread count and miner while running, and reports
 * its hash rate and the blocks it found. Used by `weft node --mine` and by
 * the desktop app's mining switch (app route `/app/api/mining`).
 *
 * Mine on demand (mineOnDemand.ts): with a {@link DemandSource} the miner can
 * also run only while pending commands are owed blocks, on the chain the
 * source names, and idle (threads stopped) otherwise. Without a miner it pays
 * the `demandMinerInfo` (the node passes a development account on the
 * development networks), also when mining is switched on, so a development
 * node mines without a reward account. Mining switched on (`start()`) mines
 * every chain and wins over mine on demand; switched off, mine on demand (if
 * on) takes over again. {@link BuiltInMiner.wake} makes an idle miner ask
 * the source again when demand came from elsewhere than a work update (a
 * cross-chain proof waiting for a chain).
 *
 * It keeps the last hour of its hash rate (one sample per
 * {@link RATE_SAMPLE_MS}) and of the blocks it found, for the Node page's charts.
 * @module
 */
import type { MinerInfo } from "../chain/minerData.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { MiningError, MiningErrorCode } from "./errors.ts";
import type { MiningLog, MiningService } from "./miningService.ts";
import { type MiningSolution, WorkerPool, type WorkerPoolOptions } from "./workerPool.ts";
import type { WorkUpdateKind } from "./workUpdates.ts";

/** Most threads the miner accepts. */
export const MAX_MINER_THREADS = 1024;
/** Wait before asking again when the node has no work (or another failure), ms. */
const RETRY_MS = 1000;
/** How far back the history goes, ms. */
export const HISTORY_MS = 3_600_000;
/** At most one hash-rate sample per this many ms. */
export const RATE_SAMPLE_MS = 10_000;

/** Where mine on demand mines next: a chain, or undefined to idle; and what it still owes. */
export type DemandSource = {
  next(): number | undefined;
  /** The chains owed blocks, ascending, with the height each must reach. */
  owed(): ReadonlyMap<number, number>;
};

export type MinerHistory = {
  /** Hash-rate samples of the last hour, oldest first; `at` in ms since the UNIX epoch. */
  readonly hashRate: readonly { readonly at: number; readonly rate: number }[];
  /** Blocks this miner found in the last hour, oldest first. */
  readonly blocks: readonly {
    readonly at: number;
    readonly chainId: number;
    readonly height: number;
  }[];
};

export type BuiltInMinerStatus = {
  readonly enabled: boolean;
  readonly threads: number;
  /** The account rewards go to; null when no miner is configured. */
  readonly account: string | null;
  /** Nonces per second summed over the threads (latest reports); 0 when stopped. */
  readonly hashRate: number;
  /** Blocks this miner found and the node stored since it was created. */
  readonly blocksFound: number;
  /** Whether mine on demand is on (it mines only while Mining is off). */
  readonly onDemand: boolean;
  /** Whether this node offers mine on demand. */
  readonly onDemandAvailable: boolean;
  /** Threads are searching now (Mining on, or mine on demand with commands to confirm). */
  readonly active: boolean;
  /** When this miner last found a block, ms since the UNIX epoch; null if never. */
  readonly lastBlockAt: number | null;
  /** Held while the node catches up with its peers: nothing is mined until it has. */
  readonly held: boolean;
  /**
   * The account the blocks it mines pay (the reward account, else the
   * development account on development networks); null when it cannot mine
   * for want of one.
   */
  readonly payee: string | null;
  /** What mine on demand still owes (when it is what runs): chains and the heights they must reach. */
  readonly demand: readonly { readonly chainId: number; readonly height: number }[];
};

/** The part of {@link WorkerPool} the miner uses (tests may pass another). */
export type MinerPool = Pick<WorkerPool, "start" | "stop" | "setWork" | "close">;

export type BuiltInMinerOptions = {
  readonly service: MiningService;
  /** Worker threads (default 1). */
  readonly threads?: number | undefined;
  /** The miner rewards go to; start() needs one. */
  readonly minerInfo?: MinerInfo | undefined;
  readonly log?: MiningLog | undefined;
  /** Creates the thread pool (default: a {@link WorkerPool}). */
  readonly createPool?: ((options: WorkerPoolOptions) => MinerPool) | undefined;
  /** How often threads report their rate, ms (default 1000). */
  readonly progressIntervalMs?: number | undefined;
  /** Makes mine on demand available (mineOnDemand.ts). */
  readonly demand?: DemandSource | undefined;
  /** Who mine on demand pays when no miner is set. */
  readonly demandMinerInfo?: MinerInfo | undefined;
};

export type BuiltInMinerChange = {
  readonly threads?: number | undefined;
  readonly minerInfo?: MinerInfo | undefined;
};

/** @throws {MiningError} MINING_BAD_ARGUMENT unless 1 ≤ threads ≤ {@link MAX_MINER_THREADS}. */
export function checkMinerThreads(threads: number): number {
  if (!Number.isSafeInteger(threads) || threads < 1 || threads > MAX_MINER_THREADS) {
    throw new MiningError(
      { code: MiningErrorCode.BadArgument, field: "threads", value: String(threads) },
      `threads: ${String(threads)} is not an integer from 1 to ${MAX_MINER_THREADS}`,
    );
  }
  return threads;
}

function describe(e: unknown): Record<string, unknown> {
  return isNodeError(e)
    ? { code: e.code, error: e.message }
    : { error: e instanceof Error ? e.message : String(e) };
}

type Current = { readonly workId: string; readonly chainId: number };

export class BuiltInMiner {
  readonly #service: MiningService;
  readonly #log: MiningLog | undefined;
  readonly #createPool: (options: WorkerPoolOptions) => MinerPool;
  readonly #progressIntervalMs: number | undefined;
  #threads: number;
  #minerInfo: MinerInfo | undefined;
  readonly #demand: DemandSource | undefined;
  readonly #demandMinerInfo: MinerInfo | undefined;
  /** The threads run (Mining on, or mine on demand on). */
  #enabled = false;
  /** Mining switched on: every chain, all the time. */
  #continuous = false;
  #onDemand = false;
  /** Running but stopped for lack of demand. */
  #idle = false;
  /** Held by the node while it is behind its peers (p2p): no mining on a stale cut. */
  #held = false;
  readonly #rates: { at: number; rate: number }[] = [];
  readonly #found: { at: number; chainId: number; height: number }[] = [];
  #pool: MinerPool | undefined;
  #unsubscribe: (() => void) | undefined;
  #current: Current | undefined;
  #workSeq = 0;
  #fetching = false;
  #fetchAgain = false;
  /** The chain the next fetch asks for (a refresh of the current chain), if any. */
  #suggestedChain: number | undefined;
  #retry: NodeJS.Timeout | undefined;
  #hashRate = 0;
  #blocksFound = 0;
  #closed = false;
  /** Serialises start/stop/configure/close. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: BuiltInMinerOptions) {
    this.#service = options.service;
    this.#log = options.log;
    this.#threads = checkMinerThreads(options.threads ?? 1);
    this.#minerInfo = options.minerInfo;
    this.#progressIntervalMs = options.progressIntervalMs;
    this.#createPool = options.createPool ?? ((o) => new WorkerPool(o));
    this.#demand = options.demand;
    this.#demandMinerInfo = options.demandMinerInfo;
  }

  status(): BuiltInMinerStatus {
    const active = this.#enabled && !this.#idle;
    return {
      enabled: this.#continuous,
      threads: this.#threads,
      account: this.#minerInfo?.account ?? null,
      hashRate: active ? this.#hashRate : 0,
      blocksFound: this.#blocksFound,
      onDemand: this.#onDemand,
      onDemandAvailable: this.#demand !== undefined,
      active,
      lastBlockAt: this.#found.at(-1)?.at ?? null,
      held: this.#held && this.wanted,
      payee: this.payee?.account ?? null,
      demand:
        this.#demanding && !this.#held && this.#demand !== undefined
          ? [...this.#demand.owed()].map(([chainId, height]) => ({ chainId, height }))
          : [],
    };
  }

  /** The last hour of hash rates and found blocks. */
  history(): MinerHistory {
    this.#prune();
    return { hashRate: [...this.#rates], blocks: [...this.#found] };
  }

  /** The account mined blocks pay: the miner, else the development account (development networks). */
  get payee(): MinerInfo | undefined {
    return this.#minerInfo ?? this.#demandMinerInfo;
  }

  get minerInfo(): MinerInfo | undefined {
    return this.#minerInfo;
  }

  /**
   * Starts mining (no-op when running).
   * @throws {MiningError} MINING_CANNOT_START without a miner,
   *   MINING_WORKER_FAILED when a thread does not start, MINING_POOL_CLOSED after close().
   */
  start(): Promise<void> {
    return this.#serial(async () => {
      if (this.#continuous) return;
      this.#continuous = true;
      try {
        await this.#reconcile();
      } catch (e) {
        this.#continuous = false;
        throw e;
      }
    });
  }

  /** Stops mining (mine on demand, if on, goes on); the threads stay loaded for a quick restart. */
  stop(): Promise<void> {
    return this.#serial(async () => {
      this.#continuous = false;
      await this.#reconcile();
    });
  }

  /**
   * Turns mine on demand on or off.
   * @throws {MiningError} MINING_CANNOT_START when this node has no mine on
   *   demand, or it is turned on with no account to pay.
   */
  setOnDemand(on: boolean): Promise<void> {
    return this.#serial(async () => {
      if (on && this.#demand === undefined) {
        throw new MiningError(
          { code: MiningErrorCode.CannotStart, reason: "no mine on demand" },
          "mining cannot start: mine on demand is not available on this node",
        );
      }
      if (this.#onDemand === on) return;
      this.#onDemand = on;
      try {
        await this.#reconcile();
      } catch (e) {
        this.#onDemand = false;
        throw e;
      }
    });
  }

  /**
   * Holds the threads while the node is behind its peers (p2p/peerNetwork.ts),
   * or releases them, without touching the switches: released, the miner
   * runs again only if mining or mine on demand is still on.
   */
  hold(held: boolean): Promise<void> {
    return this.#serial(async () => {
      if (this.#held === held) return;
      this.#held = held;
      await this.#reconcile();
    });
  }

  /**
   * Mine on demand's source has new demand that no work update announced
   * (a cross-chain proof waits for a chain): an idle miner asks it again. A
   * busy one asks after its current block anyway.
   */
  wake(): void {
    if (this.#enabled && this.#demanding && this.#current === undefined) this.#fetchWork();
  }

  /** Whether mining or mine on demand is on (what a hold keeps from running). */
  get wanted(): boolean {
    return this.#continuous || (this.#onDemand && this.#demand !== undefined);
  }

  /** Runs or stops the threads as the two switches (and a hold) say; a running miner picks its next work. */
  async #reconcile(): Promise<void> {
    const want = !this.#held && this.wanted;
    if (want && !this.#enabled) await this.#start();
    else if (!want && this.#enabled) this.#stop();
    else if (this.#enabled) {
      this.#current = undefined;
      this.#fetchWork();
    }
  }

  get #demanding(): boolean {
    return !this.#continuous && this.#onDemand && this.#demand !== undefined;
  }

  /** Changes the thread count and/or the miner; a running miner goes on with the new settings. */
  async configure(change: BuiltInMinerChange): Promise<void> {
    const threads = change.threads === undefined ? undefined : checkMinerThreads(change.threads);
    await this.#serial(async () => {
      if (change.minerInfo !== undefined) this.#minerInfo = change.minerInfo;
      if (threads !== undefined && threads !== this.#threads) {
        this.#threads = threads;
        const old = this.#pool;
        this.#pool = undefined;
        if (old !== undefined) {
          old.stop();
          await old.close();
        }
        if (this.#enabled) {
          this.#stop();
          await this.#start();
          return;
        }
      }
      if (this.#enabled && change.minerInfo !== undefined) this.#fetchWork();
    });
  }

  /** Stops and ends every thread. Idempotent. */
  close(): Promise<void> {
    return this.#serial(async () => {
      this.#closed = true;
      this.#stop();
      const pool = this.#pool;
      this.#pool = undefined;
      await pool?.close();
    });
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #start(): Promise<void> {
    if (this.#closed) {
      throw new MiningError({ code: MiningErrorCode.PoolClosed }, "the built-in miner is closed");
    }
    if (this.#enabled) return;
    if (this.payee === undefined) {
      throw new MiningError(
        { code: MiningErrorCode.CannotStart, reason: "no miner account" },
        "mining cannot start: no reward account is set (choose one on the app's Node page, give --miner-account, or set mining.account in the configuration)",
      );
    }
    this.#pool ??= this.#newPool();
    this.#enabled = true;
    this.#idle = false;
    this.#hashRate = 0;
    this.#unsubscribe = this.#service.updates.subscribe((changed, kind) =>
      this.#onUpdates(changed, kind),
    );
    try {
      await this.#pool.start();
    } catch (e) {
      this.#stop();
      const pool = this.#pool;
      this.#pool = undefined;
      await pool?.close();
      throw e;
    }
    this.#log?.info("built-in miner started", {
      threads: this.#threads,
      account: this.payee?.account,
      onDemand: this.#demanding,
    });
    this.#fetchWork();
  }

  #stop(): void {
    if (!this.#enabled) return;
    this.#enabled = false;
    this.#idle = false;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#current = undefined;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#pool?.stop();
    this.#hashRate = 0;
    this.#log?.info("built-in miner stopped", { blocksFound: this.#blocksFound });
  }

  #newPool(): MinerPool {
    return this.#createPool({
      threads: this.#threads,
      clock: () => BigInt(this.#service.now()),
      progressIntervalMs: this.#progressIntervalMs,
      onSolution: (s) => this.#onSolution(s),
      onHashRate: (rate) => {
        if (this.#enabled && !this.#idle) this.#hashRate = rate;
        this.#sampleRate(this.#hashRate);
      },
      onError: (e) => this.#onPoolError(e),
    });
  }

  #onPoolError(e: MiningError): void {
    this.#log?.warn("built-in miner thread problem", { code: e.code, error: e.message });
    if (e.code === MiningErrorCode.WorkerFailed && this.#enabled) {
      // The pool stops itself after a thread failure; reflect that.
      void this.#serial(async () => this.#stop());
    }
  }

  #onUpdates(changed: readonly number[], kind: WorkUpdateKind): void {
    if (!this.#enabled) return;
    const current = this.#current;
    if (current === undefined) this.#fetchWork();
    else if (changed.includes(current.chainId))
      // Refreshed: the same chain again, now with the new commands in its payload.
      this.#fetchWork(kind === "refreshed" ? current.chainId : undefined);
  }

  #onSolution(solution: MiningSolution): void {
    if (!this.#enabled || solution.workId !== this.#current?.workId) return;
    void this.#accept(solution);
  }

  /** Stores the solved block (executed off the event loop first), then gets new work. */
  async #accept(solution: MiningSolution): Promise<void> {
    try {
      const solved = await this.#service.accept(solution.header);
      if (solved.status === "inserted") {
        this.#blocksFound++;
        this.#found.push({
          at: this.#nowMs(),
          chainId: solved.header.chainId,
          height: solved.header.height,
        });
        this.#prune();
      }
    } catch (e) {
      this.#log?.warn("built-in miner: solution refused", describe(e));
    }
    this.#fetchWork();
  }

  /**
   * Gets new work (on `chainId` when given and it can be extended) and hands
   * it to the threads; requests made meanwhile are merged (the last one's
   * chain counts).
   */
  #fetchWork(chainId?: number): void {
    this.#suggestedChain = chainId;
    if (this.#fetching) {
      this.#fetchAgain = true;
      return;
    }
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#fetching = true;
    void this.#fetchLoop().finally(() => {
      this.#fetching = false;
    });
  }

  /** Nothing owed: the threads stop until an update brings demand. */
  #goIdle(pool: MinerPool): void {
    this.#current = undefined;
    if (this.#idle) return;
    this.#idle = true;
    pool.stop();
    this.#hashRate = 0;
    this.#sampleRate(0);
  }

  #nowMs(): number {
    return Math.floor(this.#service.now() / 1000);
  }

  #sampleRate(rate: number): void {
    const at = this.#nowMs();
    const last = this.#rates.at(-1);
    if (last !== undefined && at - last.at < RATE_SAMPLE_MS) return;
    this.#rates.push({ at, rate });
    this.#prune();
  }

  #prune(): void {
    const oldest = this.#nowMs() - HISTORY_MS;
    while ((this.#rates[0]?.at ?? oldest) < oldest) this.#rates.shift();
    while ((this.#found[0]?.at ?? oldest) < oldest) this.#found.shift();
  }

  async #fetchLoop(): Promise<void> {
    do {
      this.#fetchAgain = false;
      const info = this.payee;
      const pool = this.#pool;
      if (!this.#enabled || info === undefined || pool === undefined) return;
      try {
        let suggested = this.#suggestedChain;
        this.#suggestedChain = undefined;
        if (this.#demanding) {
          suggested = this.#demand?.next();
          if (suggested === undefined) {
            this.#goIdle(pool);
            continue;
          }
        }
        if (this.#idle) {
          this.#idle = false;
          await pool.start();
          if (!this.#enabled || this.#pool !== pool) return;
        }
        const work = await this.#service.work(info, suggested);
        if (!this.#enabled || this.#pool !== pool) return;
        const workId = String(++this.#workSeq);
        this.#current = { workId, chainId: work.header.chainId };
        pool.setWork(workId, work.bytes);
      } catch (e) {
        this.#log?.warn("built-in miner: no work", describe(e));
        this.#current = undefined;
        if (!this.#fetchAgain && this.#enabled) {
          this.#retry = setTimeout(() => {
            this.#retry = undefined;
            this.#fetchWork();
          }, RETRY_MS);
          this.#retry.unref();
        }
      }
    } while (this.#fetchAgain);
  }
}
