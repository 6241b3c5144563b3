/**
 * A token bucket per requesting origin for the dapp signing API (docs/dapp-signing.md, "What a
 * web page can make Weft do"): each origin may bring `burst` requests to the user at once, then
 * one more every `everyMs`. Every request a page puts in front of the user costs it a token, so a
 * page that asks and withdraws in a loop is slowed to the refill rate whatever it does. Buckets
 * that have filled up again are forgotten, so the map holds only origins heard from lately.
 * @module
 */

export type OriginRate = {
  /** Requests an origin may make at once (the bucket's size). */
  readonly burst: number;
  /** One more request after this long, ms. */
  readonly everyMs: number;
};

/** Three at once, then one every 5 s: five in the first 10 s, two in each 10 s after. */
export const DEFAULT_ORIGIN_RATE: OriginRate = { burst: 3, everyMs: 5000 };

/** Forget full buckets once this many origins are known. */
const PRUNE_ABOVE = 64;

type Bucket = { tokens: number; at: number };

export class OriginRateLimit {
  readonly #rate: OriginRate;
  readonly #buckets = new Map<string, Bucket>();

  constructor(rate: OriginRate) {
    if (!(rate.burst >= 1 && rate.everyMs > 0)) {
      throw new RangeError("rate: burst must be at least 1 and everyMs positive");
    }
    this.#rate = rate;
  }

  /**
   * Takes one token of `key`'s bucket at `now` (ms).
   * @returns 0 when taken, else how long until the next token, ms (nothing taken).
   */
  take(key: string, now: number): number {
    const b = this.#refilled(key, now);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      this.#buckets.set(key, b);
      return 0;
    }
    this.#buckets.set(key, b);
    return Math.max(1, Math.ceil((1 - b.tokens) * this.#rate.everyMs));
  }

  /** Origins with a bucket that is not full (tests; bounded by pruning). */
  get size(): number {
    return this.#buckets.size;
  }

  #refilled(key: string, now: number): Bucket {
    if (this.#buckets.size > PRUNE_ABOVE) this.#prune(now);
    const b = this.#buckets.get(key);
    if (b === undefined) return { tokens: this.#rate.burst, at: now };
    const gained = Math.max(0, now - b.at) / this.#rate.everyMs;
    return { tokens: Math.min(this.#rate.burst, b.tokens + gained), at: now };
  }

  #prune(now: number): void {
    for (const [key, b] of this.#buckets) {
      if (b.tokens + Math.max(0, now - b.at) / this.#rate.everyMs >= this.#rate.burst) {
        this.#buckets.delete(key);
      }
    }
  }
}
