/**
 * The sync status's shape: blocks left to the best peer's cut, the rate
 * validated blocks arrive at (catchUpGate.ts) and the time left at that
 * rate, and whether the node counts as catching up.
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
