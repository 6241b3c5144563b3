/**
 * Tells when work goes out of date. A chain's work depends on what its next
 * block builds on: the chain's head and the adjacent parents the braiding
 * rule picks (or the fact that the chain is blocked). After every change of
 * the best cut this hub recomputes that for every chain and tells its
 * listeners which chains changed: a new block on the chain, a new block on
 * an adjacent chain it was waiting for, or a fork switch. A block on an
 * adjacent chain that was already level changes nothing (its parent stays
 * the adjacent parent), so no event is sent for it.
 *
 * It also tells when a chain's work is still valid but could hold more
 * (`refreshed`, the reference's `Refreshed Block`): new commands reached the
 * mempool of that chain. Those requests are merged per chain for
 * {@link REFRESH_DELAY_MS}, so a burst of /send calls costs one new payload.
 * @module
 */
import type { Cut } from "../chain/cut.ts";
import { cutExtension, type ParentLookup } from "../chain/cutExtension.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { MiningChain } from "./miningChain.ts";

/**
 * Why work changed: `new-cut`, it builds on other parents now (out of date);
 * `refreshed`, the same parents but more commands to include.
 */
export type WorkUpdateKind = "new-cut" | "refreshed";

/** Receives the chains whose work changed, ascending, and why. */
export type WorkUpdateListener = (changedChains: readonly number[], kind: WorkUpdateKind) => void;

/** How long refresh requests of a chain are merged, ms. */
export const REFRESH_DELAY_MS = 200;

/** What a new block on each chain of `cut` would build on, as one string per chain. */
export function workBases(chain: MiningChain, cut: Cut): Map<number, string> {
  const parentOf: ParentLookup = (h) => chain.header(h.parent);
  const out = new Map<number, string>();
  for (const c of cut.keys()) {
    let base: string;
    try {
      const ext = cutExtension(cut, chain.version, c, parentOf);
      base =
        ext.status === "ready"
          ? [ext.parent.hash, ...ext.adjacentParents.map((a) => a.hash)].join(",")
          : // Which neighbour blocks it does not matter: the work is the same until it is ready.
            `blocked:${cut.get(c)?.hash ?? ""}`;
    } catch (e) {
      if (!isNodeError(e)) throw e;
      base = `invalid:${e.code}`;
    }
    out.set(c, base);
  }
  return out;
}

export class WorkUpdates {
  readonly #chain: MiningChain;
  readonly #listeners = new Set<WorkUpdateListener>();
  readonly #unsubscribe: () => void;
  #bases: Map<number, string>;
  #onError: (e: unknown) => void;
  readonly #refreshDelayMs: number;
  /** Chains with a refresh waiting, and its timer. */
  readonly #pendingRefresh = new Map<number, NodeJS.Timeout>();
  #closed = false;

  constructor(
    chain: MiningChain,
    onError: (e: unknown) => void = () => undefined,
    refreshDelayMs: number = REFRESH_DELAY_MS,
  ) {
    this.#chain = chain;
    this.#onError = onError;
    this.#refreshDelayMs = refreshDelayMs;
    this.#bases = workBases(chain, chain.cut());
    this.#unsubscribe = chain.onCutChange(({ cut }) => this.#cutChanged(cut));
  }

  /** Subscribes; returns the unsubscribe function. */
  subscribe(listener: WorkUpdateListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  close(): void {
    this.#closed = true;
    this.#unsubscribe();
    this.#listeners.clear();
    for (const t of this.#pendingRefresh.values()) clearTimeout(t);
    this.#pendingRefresh.clear();
  }

  /**
   * New commands can go into `chainId`'s next block: its listeners get
   * `refreshed` for it after the merge delay (once for any number of calls).
   */
  requestRefresh(chainId: number): void {
    if (this.#closed || this.#pendingRefresh.has(chainId)) return;
    const timer = setTimeout(() => {
      this.#pendingRefresh.delete(chainId);
      if (!this.#closed) this.#notify([chainId], "refreshed");
    }, this.#refreshDelayMs);
    timer.unref();
    this.#pendingRefresh.set(chainId, timer);
  }

  #notify(changed: readonly number[], kind: WorkUpdateKind): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(changed, kind);
      } catch (e) {
        this.#onError(e);
      }
    }
  }

  #cutChanged(cut: Cut): void {
    const next = workBases(this.#chain, cut);
    const changed: number[] = [];
    for (const c of new Set([...next.keys(), ...this.#bases.keys()])) {
      if (next.get(c) !== this.#bases.get(c)) changed.push(c);
    }
    this.#bases = next;
    if (changed.length === 0) return;
    changed.sort((a, b) => a - b);
    this.#notify(changed, "new-cut");
  }
}
