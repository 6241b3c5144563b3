/**
 * Catching-up progress: blocks left to the best peer's cut, the rate
 * blocks arrive at (over the last ~10 s) and the time left at that rate.
 * Pure arithmetic over samples, so the status and the log agree.
 * @module
 */

export type SyncStatus = {
  /** `alone`: no usable peer; `catching-up`: more than a few blocks behind a peer; else `synced`. */
  readonly state: "alone" | "catching-up" | "synced";
  readonly cutHeight: number;
  /** The highest cut height a usable peer announced, or null. */
  readonly peerCutHeight: number | null;
  readonly blocksLeft: number;
  /** Blocks per second over the last seconds (0 before any). */
  readonly blocksPerSecond: number;
  /** At that rate; null when unknown. */
  readonly secondsLeft: number | null;
  /** True while the built-in miner is held back because the node is behind its peers. */
  readonly miningHeld: boolean;
};

/**
 * Where the node reports what it catches up on (api/catchUpStatus.ts, the
 * app's catching-up banner), declared here: p2p sits below api.
 */
export type CatchUpReporter = {
  begin(what: string, total: number): { progress(done: number, total?: number): void; end(): void };
};

const SPAN_MS = 10_000;

export class SyncProgress {
  readonly #samples: { at: number; height: number }[] = [];

  /** Records the node's cut height at time `at` (ms). */
  sample(at: number, height: number): void {
    this.#samples.push({ at, height });
    while (this.#samples.length > 2 && (this.#samples[0] as { at: number }).at < at - SPAN_MS) {
      this.#samples.shift();
    }
  }

  /** Blocks per second over the samples kept. */
  rate(): number {
    const first = this.#samples[0];
    const last = this.#samples[this.#samples.length - 1];
    if (first === undefined || last === undefined || last.at <= first.at) return 0;
    return Math.max(0, ((last.height - first.height) * 1000) / (last.at - first.at));
  }
}
