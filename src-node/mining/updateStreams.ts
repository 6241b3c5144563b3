/**
 * The policy of `GET /mining/updates` streams, apart from HTTP: each open
 * stream watches one chain (or all), gets `onUpdate` when that chain's work
 * goes out of date or is refreshed with more commands (workUpdates.ts), and
 * is ended by the server after
 * `timeoutMs` × a random factor in [0.9, 1.1) (reference default 240 s), so
 * that miners reconnect and dead clients go away; at most `limit` streams
 * are open at once.
 * @module
 */
import { MiningError, MiningErrorCode } from "./errors.ts";
import { positiveInteger } from "./positiveInteger.ts";
import type { WorkUpdateKind, WorkUpdates } from "./workUpdates.ts";

/** Default stream lifetime, ms (the reference's `updateStreamTimeout`). */
export const DEFAULT_UPDATE_STREAM_TIMEOUT_MS = 240_000;
/** Default cap of concurrent streams (the reference's `updateStreamLimit`). */
export const DEFAULT_UPDATE_STREAM_LIMIT = 2000;

export type UpdateStreamSink = {
  /** The watched chain's work is out of date (`new-cut`) or could hold more commands (`refreshed`). */
  onUpdate(kind: WorkUpdateKind): void;
  /** The server ends the stream (timeout or shutdown). */
  onEnd(): void;
};

export type UpdateStreamHandle = {
  /** Ends the stream from the client's side (disconnect); `onEnd` is not called. */
  close(): void;
};

export type UpdateStreamsOptions = {
  readonly limit?: number | undefined;
  readonly timeoutMs?: number | undefined;
  /** Uniform in [0, 1), for the jitter. */
  readonly random?: (() => number) | undefined;
};

type Open = { chainId: number | undefined; sink: UpdateStreamSink; timer: NodeJS.Timeout };

export class UpdateStreams {
  readonly limit: number;
  readonly timeoutMs: number;
  readonly #random: () => number;
  readonly #open = new Set<Open>();
  readonly #unsubscribe: () => void;

  constructor(updates: WorkUpdates, options: UpdateStreamsOptions = {}) {
    this.limit = positiveInteger(options.limit ?? DEFAULT_UPDATE_STREAM_LIMIT, "updateStreamLimit");
    this.timeoutMs = positiveInteger(
      options.timeoutMs ?? DEFAULT_UPDATE_STREAM_TIMEOUT_MS,
      "updateStreamTimeoutMs",
    );
    this.#random = options.random ?? Math.random;
    this.#unsubscribe = updates.subscribe((changed, kind) => {
      for (const s of [...this.#open]) {
        if (s.chainId === undefined || changed.includes(s.chainId)) s.sink.onUpdate(kind);
      }
    });
  }

  get size(): number {
    return this.#open.size;
  }

  /** This stream's lifetime, ms: the timeout with ±10 % jitter. */
  lifetimeMs(): number {
    return Math.round(this.timeoutMs * (0.9 + 0.2 * this.#random()));
  }

  /**
   * Opens a stream for `chainId` (undefined: every chain).
   * @throws {MiningError} MINING_TOO_MANY_STREAMS when `limit` streams are open.
   */
  open(chainId: number | undefined, sink: UpdateStreamSink): UpdateStreamHandle {
    if (this.#open.size >= this.limit) {
      throw new MiningError(
        { code: MiningErrorCode.TooManyStreams, limit: this.limit },
        "No more update streams available currently. Retry later.",
      );
    }
    const timer = setTimeout(() => this.#end(entry), this.lifetimeMs());
    timer.unref();
    const entry: Open = { chainId, sink, timer };
    this.#open.add(entry);
    return {
      close: () => {
        clearTimeout(entry.timer);
        this.#open.delete(entry);
      },
    };
  }

  /** Ends every stream (server shutdown) and stops listening. */
  close(): void {
    for (const s of [...this.#open]) this.#end(s);
    this.#unsubscribe();
  }

  #end(entry: Open): void {
    if (!this.#open.delete(entry)) return;
    clearTimeout(entry.timer);
    entry.sink.onEnd();
  }
}
