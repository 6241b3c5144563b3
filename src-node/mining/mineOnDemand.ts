/**
 * Mine on demand (docs/mining.md "Mine on demand"): which chain the built-in
 * miner mines next when it only mines for pending commands, as Kadena's
 * devnet does. A chain with commands in its mempool is owed blocks until its
 * commands are in a block and `confirmations` more blocks are on top of it;
 * nothing owed, the miner idles.
 *
 * The braid: a chain can only be extended when its adjacent chains are not a
 * block behind (chain/cutExtension.ts), so when an owed chain is blocked the
 * chain that blocks it is mined first (following `blockedBy` until a chain
 * that can be extended), and during a graph transition the lowest chain that
 * can be extended.
 *
 * A chain is also owed a height someone waits for ({@link MineOnDemand.owe}):
 * a cross-chain proof (`/spv`) needs its target chain at the height where
 * the source block is in the target's history, and the continuation that
 * carries the proof is then a pending command of the target chain. So a
 * cross-chain transfer finishes on mine on demand alone.
 *
 * A command that never gets into a block (its payload building drops it)
 * would keep its chain owed forever: a chain is given up after
 * {@link MAX_BLOCKS_WITHOUT_PROGRESS} of its own blocks while the number of
 * its pending commands did not change, until that number changes again.
 * @module
 */
import type { Cut } from "../chain/cut.ts";
import { cutExtension, type ParentLookup } from "../chain/cutExtension.ts";
import type { MiningChain } from "./miningChain.ts";

/** Blocks on an owed chain whose pending commands stayed the same before the chain is given up. */
export const MAX_BLOCKS_WITHOUT_PROGRESS = 8;
/** Default confirmation blocks after the block that holds the commands. */
export const DEFAULT_ON_DEMAND_CONFIRMATIONS = 1;

export type MineOnDemandOptions = {
  readonly chain: MiningChain;
  /** Pending commands of a chain's mempool. */
  readonly pending: (chainId: number) => number;
  /** Blocks on top of the block holding the commands (default 1). */
  readonly confirmations?: number | undefined;
};

/** Pending commands seen on a chain and the height they were first seen at. */
type Watch = { readonly pending: number; readonly since: number };

export class MineOnDemand {
  readonly #chain: MiningChain;
  readonly #pending: (chainId: number) => number;
  readonly #confirmations: number;
  readonly #parentOf: ParentLookup;
  /** Height each chain with pending commands must reach. */
  readonly #owed = new Map<number, number>();
  /** Heights waited for ({@link owe}): kept apart, so giving up a chain's stuck commands does not drop them. */
  readonly #waits = new Map<number, number>();
  readonly #watch = new Map<number, Watch>();

  constructor(options: MineOnDemandOptions) {
    this.#chain = options.chain;
    this.#pending = options.pending;
    this.#confirmations = options.confirmations ?? DEFAULT_ON_DEMAND_CONFIRMATIONS;
    this.#parentOf = (h) => this.#chain.header(h.parent);
  }

  get confirmations(): number {
    return this.#confirmations;
  }

  /**
   * Owes `chainId` blocks until it reaches `height` (e.g. the height a
   * cross-chain proof waits for). Only what the cut does not have yet
   * counts; a lower height than already owed changes nothing.
   */
  owe(chainId: number, height: number): void {
    const head = this.#chain.cut().get(chainId);
    if (head === undefined || head.height >= height) return;
    this.#waits.set(chainId, Math.max(this.#waits.get(chainId) ?? 0, height));
  }

  /** The chains still owed blocks, ascending, with the height each must reach. */
  owed(): ReadonlyMap<number, number> {
    this.#update(this.#chain.cut());
    return this.#all();
  }

  /** Both kinds of demand, the higher height where a chain has both, ascending by chain. */
  #all(): Map<number, number> {
    const all = new Map(this.#owed);
    for (const [c, h] of this.#waits) all.set(c, Math.max(all.get(c) ?? 0, h));
    return new Map([...all].sort((a, b) => a[0] - b[0]));
  }

  /** The chain to mine next, or undefined when nothing is owed (or nothing can be mined). */
  next(): number | undefined {
    const cut = this.#chain.cut();
    this.#update(cut);
    const owed = [...this.#all().keys()];
    for (const chainId of owed) {
      const place = this.#unblocking(cut, chainId);
      if (place !== undefined) return place;
    }
    return undefined;
  }

  /** Brings the owed heights up to date with the mempool and the cut. */
  #update(cut: Cut): void {
    for (const [chainId, head] of cut) {
      const height = head.height;
      const waited = this.#waits.get(chainId);
      if (waited !== undefined && height >= waited) this.#waits.delete(chainId);
      const pending = this.#pending(chainId);
      if (pending > 0) {
        const seen = this.#watch.get(chainId);
        if (seen === undefined || seen.pending !== pending) {
          this.#watch.set(chainId, { pending, since: height });
        }
        const since = this.#watch.get(chainId)?.since ?? height;
        if (height - since < MAX_BLOCKS_WITHOUT_PROGRESS) {
          // The commands go into the next block; the confirmations come on top of it.
          const target = height + 1 + this.#confirmations;
          this.#owed.set(chainId, Math.max(this.#owed.get(chainId) ?? 0, target));
          continue;
        }
        // Given up: what is pending does not get into blocks.
        this.#owed.delete(chainId);
        continue;
      }
      this.#watch.delete(chainId);
      const target = this.#owed.get(chainId);
      if (target !== undefined && height >= target) this.#owed.delete(chainId);
    }
  }

  /** `chainId` when it can be extended, else the chain that must move first, if any. */
  #unblocking(cut: Cut, chainId: number): number | undefined {
    const seen = new Set<number>();
    let c = chainId;
    while (!seen.has(c)) {
      seen.add(c);
      const ext = cutExtension(cut, this.#chain.version, c, this.#parentOf);
      if (ext.status === "ready") return c;
      if (ext.blockedBy === null) break;
      c = ext.blockedBy;
    }
    return this.#lowestReady(cut);
  }

  #lowestReady(cut: Cut): number | undefined {
    const byHeight = [...cut.values()].sort((a, b) => a.height - b.height || a.chainId - b.chainId);
    for (const h of byHeight) {
      if (cutExtension(cut, this.#chain.version, h.chainId, this.#parentOf).status === "ready") {
        return h.chainId;
      }
    }
    return undefined;
  }
}
