/**
 * Tells when work goes out of date. A chain's work depends on what its next
 * block builds on: the chain's head and the adjacent parents the braiding
 * rule picks (or the fact that the chain is blocked). After every change of
 * the best cut this hub recomputes that for every chain and tells its
 * listeners which chains changed: a new block on the chain, a new block on
 * an adjacent chain it was waiting for, or a fork switch. A block on an
 * adjacent chain that was already level changes nothing (its parent stays
 * the adjacent parent), so no event is sent for it.
 * @module
 */
import type { Cut } from "../chain/cut.ts";
import { cutExtension, type ParentLookup } from "../chain/cutExtension.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { MiningChain } from "./miningChain.ts";

/** Receives the chains whose work is out of date, ascending. */
export type WorkUpdateListener = (changedChains: readonly number[]) => void;

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

  constructor(chain: MiningChain, onError: (e: unknown) => void = () => undefined) {
    this.#chain = chain;
    this.#onError = onError;
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
    this.#unsubscribe();
    this.#listeners.clear();
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
    for (const listener of [...this.#listeners]) {
      try {
        listener(changed);
      } catch (e) {
        this.#onError(e);
      }
    }
  }
}
