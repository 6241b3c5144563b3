/**
 * `StateCompactor`: compacts each chain's contract-state history below a
 * horizon, in the background, in small steps (the SQL and its guarantees:
 * store/stateCompaction.ts; docs/storage.md "Contract state").
 *
 * The horizon is a depth: a chain's state stays exact for the `horizon`
 * blocks below its head (/local's `rewindDepth` up to it, rewinds of forks
 * that deep). Rounds start once the horizon has moved {@link
 * StateCompactorOptions.roundBlocks} blocks since the last one. Each step is
 * one short SQLite transaction of at most `batchRows` rows; the loop runs
 * steps for at most a few milliseconds, then yields to the event loop
 * (setImmediate), and sleeps `idleMs` when no chain has anything to do. The
 * node's thread is the only writer of state.sqlite, so steps never run
 * inside a block's execution. An archive node runs no compactor.
 * @module
 */
import { genesisHeightOf, type NetworkVersion } from "../chain/networkVersion.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { beginCompaction, type CompactionHooks, compactionStep } from "../store/stateCompaction.ts";
import type { StateDb } from "../store/stateDb.ts";
import type { ExecutorLog } from "./chainExecutor.ts";
import { DEFAULT_SPV_PROOF_DEPTH } from "./spvVerifier.ts";

/**
 * The default horizon: the deepest depth the node promises anywhere. /local
 * `rewindDepth` is served up to the horizon itself; /poll's
 * `confirmationDepth` reads the results index, which compaction keeps whole,
 * so any depth works; a continuation's SPV proof root may lie `spvProofDepth`
 * blocks below its parent (20,000 by default, the reference's), the deepest
 * of the three, so the state is kept exact that deep too.
 */
export function defaultStateHorizon(spvProofDepth = DEFAULT_SPV_PROOF_DEPTH): number {
  return spvProofDepth;
}

/** Rows one step handles at most (a few milliseconds of work). */
export const DEFAULT_COMPACTION_BATCH_ROWS = 500;

/** The longest the loop runs steps before it yields to the event loop. */
const SLICE_MS = 4;

export type StateCompactorOptions = {
  readonly version: NetworkVersion;
  readonly state: StateDb;
  /** Blocks below each chain's head whose state stays exact (≥ 1). */
  readonly horizon: number;
  /** Rows one step handles at most (default {@link DEFAULT_COMPACTION_BATCH_ROWS}). */
  readonly batchRows?: number | undefined;
  /** A round starts once the horizon moved this many blocks (default min(64, horizon)). */
  readonly roundBlocks?: number | undefined;
  /** Sleep between checks when there is nothing to do, ms (default 2,000). */
  readonly idleMs?: number | undefined;
  readonly log?: ExecutorLog | undefined;
  readonly hooks?: CompactionHooks | undefined;
};

export class StateCompactor {
  readonly horizon: number;
  readonly #version: NetworkVersion;
  readonly #state: StateDb;
  readonly #batchRows: number;
  readonly #roundBlocks: number;
  readonly #idleMs: number;
  readonly #log: ExecutorLog | undefined;
  readonly #hooks: CompactionHooks | undefined;
  /** Chains with an unfinished round (all of them at first: a previous run may have stopped in one). */
  readonly #busy: Set<number>;
  #next = 0;
  #timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  #closed = false;
  #deleted = 0;

  constructor(options: StateCompactorOptions) {
    this.#version = options.version;
    this.#state = options.state;
    this.horizon = Math.max(1, options.horizon);
    this.#batchRows = Math.max(1, options.batchRows ?? DEFAULT_COMPACTION_BATCH_ROWS);
    this.#roundBlocks = Math.max(1, options.roundBlocks ?? Math.min(64, this.horizon));
    this.#idleMs = options.idleMs ?? 2_000;
    this.#log = options.log;
    this.#hooks = options.hooks;
    this.#busy = new Set(options.version.chainIds);
  }

  /** Rows deleted since the compactor was made. */
  get deleted(): number {
    return this.#deleted;
  }

  /** Starts the background loop (idempotent). */
  start(): void {
    if (this.#closed || this.#timer !== undefined) return;
    this.#schedule(true);
  }

  /** Stops the loop; a step never runs after it returns. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer as NodeJS.Timeout);
      clearImmediate(this.#timer as NodeJS.Immediate);
    }
    this.#timer = undefined;
  }

  /**
   * One bounded step on the next chain with something to do (a round
   * started when due). False when no chain had anything to do.
   */
  step(): boolean {
    const chains = this.#version.chainIds;
    for (let i = 0; i < chains.length; i++) {
      const at = (this.#next + i) % chains.length;
      const chainId = chains[at] as number;
      if (this.#busy.has(chainId) && this.#state.compaction(chainId) === undefined) {
        this.#busy.delete(chainId);
      }
      // A round's start and its first step commit together.
      const r = this.#state.transaction(() =>
        this.#busy.has(chainId) || this.#beginIfDue(chainId)
          ? compactionStep(this.#state, chainId, this.#batchRows, this.#hooks)
          : undefined,
      );
      if (r === undefined) continue;
      this.#deleted += r.deleted;
      if (r.more) this.#busy.add(chainId);
      else this.#busy.delete(chainId);
      this.#next = (at + 1) % chains.length;
      return true;
    }
    return false;
  }

  /** Runs steps until no chain has anything to do (tests, benchmarks); the steps taken. */
  runToEnd(): number {
    let steps = 0;
    while (this.step()) steps++;
    return steps;
  }

  #beginIfDue(chainId: number): boolean {
    const head = this.#state.head(chainId);
    if (head === undefined) return false;
    const target = head.height - this.horizon;
    const since =
      this.#state.compaction(chainId)?.horizonHeight ?? genesisHeightOf(this.#version, chainId);
    if (target - since < this.#roundBlocks) return false;
    return beginCompaction(this.#state, chainId, target);
  }

  #schedule(busy: boolean): void {
    if (this.#closed) return;
    const t = busy ? setImmediate(this.#tick) : setTimeout(this.#tick, this.#idleMs);
    t.unref();
    this.#timer = t;
  }

  #tick = (): void => {
    this.#timer = undefined;
    if (this.#closed || !this.#state.isOpen) return;
    let busy = false;
    try {
      const until = performance.now() + SLICE_MS;
      do busy = this.step();
      while (busy && performance.now() < until);
    } catch (e) {
      // Compaction is housekeeping: a failed step (rolled back) is logged and tried again later.
      this.#log?.error("state compaction step failed", {
        code: isNodeError(e) ? e.code : undefined,
        error: e instanceof Error ? e.message : String(e),
      });
      busy = false;
    }
    this.#schedule(busy);
  };
}
