/**
 * When the node counts as catching up (docs/p2p.md "Believe work, not
 * words"): the built-in miner held, the explorer index deferred, the app's
 * banner shown. A peer's cut height is only a claim; what holds the miner is
 * blocks fetched from peers and validated here (each header's proof of
 * work and braid checked and its payload executed by `insertBlock`) at a
 * rate above {@link MIN_BLOCKS_PER_S}. A catch-up begins with a grace of
 * {@link GRACE_MS} for the first blocks to arrive, once per episode (an
 * episode lasts while a peer claims to be ahead), and ends after
 * {@link STALL_MS} without a validated block: a peer announcing a cut of
 * height 10¹⁰ it cannot back holds the miner for at most the grace, however
 * often it repeats the claim. Pure arithmetic over an injected clock.
 * @module
 */

/** Validated blocks per second under which the node stops counting as catching up. */
export const MIN_BLOCKS_PER_S = 2;
/** How long a catch-up may take to validate its first blocks, ms. */
export const GRACE_MS = 15_000;
/** The longest a catch-up holds the miner without a validated block, ms. */
export const STALL_MS = 15_000;
/** The span the rate is measured over, ms. */
const RATE_SPAN_MS = 10_000;

export class CatchUpGate {
  /** Blocks validated, per insertion, over the last {@link RATE_SPAN_MS}. */
  readonly #samples: { at: number; count: number }[] = [];
  /** When the current episode began (a peer claims to be ahead), or undefined. */
  #episodeAt: number | undefined;
  #lastProgressAt = 0;

  /** Blocks fetched from peers and validated here, as they are inserted. */
  validated(at: number, count: number): void {
    if (count <= 0) return;
    this.#lastProgressAt = at;
    this.#samples.push({ at, count });
    while ((this.#samples[0]?.at ?? at) < at - RATE_SPAN_MS) this.#samples.shift();
  }

  /** Validated blocks per second over the last seconds (at most the episode's). */
  rate(at: number): number {
    let blocks = 0;
    for (const s of this.#samples) if (s.at >= at - RATE_SPAN_MS) blocks += s.count;
    const since = this.#episodeAt === undefined ? RATE_SPAN_MS : at - this.#episodeAt;
    return (blocks * 1000) / Math.max(1_000, Math.min(RATE_SPAN_MS, since));
  }

  /**
   * Whether the node counts as catching up now. `behind`: a usable peer
   * claims a cut more than a few blocks ahead.
   */
  catchingUp(at: number, behind: boolean): boolean {
    if (!behind) {
      this.#episodeAt = undefined;
      return false;
    }
    if (this.#episodeAt === undefined) {
      this.#episodeAt = at;
      this.#lastProgressAt = Math.max(this.#lastProgressAt, at);
    }
    if (at - this.#lastProgressAt > STALL_MS) return false;
    return at - this.#episodeAt < GRACE_MS || this.rate(at) >= MIN_BLOCKS_PER_S;
  }
}
