/**
 * `Mempool`: the commands submitted with /send and not yet on chain, per
 * chain, ready to run (parsed, checked, with their contract inputs).
 * Selection order for a block: higher gas price first, then earlier
 * arrival (then request key, so the order is total). Adding a command that
 * is pending already changes nothing (/send is idempotent). Commands leave
 * when a block of the best chain includes them, when building a block finds
 * they can never be included (expired, gas not buyable), or when they expire.
 * With a {@link MempoolStore} (the node's mempool.sqlite) every add is
 * written there, in one transaction, before it returns, and every removal
 * deleted there, so the pending commands survive the process being killed.
 * @module
 */

import { decimalCompare } from "../contract/values/decimal.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { ReadyCommand } from "../exec/chainExecutor.ts";
import { decimalOfText } from "../exec/gasMath.ts";
import type { MempoolStore } from "../store/mempoolStore.ts";
import { MempoolError, MempoolErrorCode } from "./errors.ts";

/** Most pending commands per chain (default). */
export const DEFAULT_MEMPOOL_LIMIT = 10_000;

type Entry = { readonly ready: ReadyCommand; readonly arrival: number };

export type MempoolOptions = {
  readonly limitPerChain?: number | undefined;
  /** Where pending commands are kept across restarts (none: memory only). */
  readonly store?: MempoolStore | undefined;
};

/** A command's wire JSON (`{hash, sigs, cmd}`), as /send takes it. */
export function commandWireJson(command: ReadyCommand["command"]): string {
  return JSON.stringify({
    hash: command.hash,
    sigs: command.sigs.map((sig) => ({ sig })),
    cmd: command.cmd,
  });
}

export class Mempool {
  readonly limitPerChain: number;
  readonly #chains = new Map<number, Map<string, Entry>>();
  readonly #listeners = new Set<(chainId: number) => void>();
  readonly #store: MempoolStore | undefined;
  #arrivals = 0;

  constructor(options: MempoolOptions = {}) {
    this.limitPerChain = options.limitPerChain ?? DEFAULT_MEMPOOL_LIMIT;
    this.#store = options.store;
  }

  #pool(chainId: number): Map<string, Entry> {
    let p = this.#chains.get(chainId);
    if (p === undefined) {
      p = new Map();
      this.#chains.set(chainId, p);
    }
    return p;
  }

  /**
   * Adds commands of one chain, all or none.
   * @returns how many were new.
   * @throws {MempoolError} MEMPOOL_FULL when they do not fit.
   * @throws {StoreError} STORE_WRITE_FAILED when the store refuses them (none is added).
   */
  add(chainId: number, commands: readonly ReadyCommand[]): number {
    const pool = this.#pool(chainId);
    const fresh = commands.filter((c) => !pool.has(c.command.hash));
    const distinct = new Map(fresh.map((c) => [c.command.hash, c] as const));
    if (pool.size + distinct.size > this.limitPerChain) {
      throw new MempoolError(
        { code: MempoolErrorCode.Full, chainId, limit: this.limitPerChain },
        `the mempool of chain ${chainId} is full (${this.limitPerChain} pending commands); retry after the next blocks`,
      );
    }
    // On disk first: a command is pending only once a crash cannot lose it.
    this.#store?.add(
      chainId,
      [...distinct.values()].map((r) => ({
        requestKey: r.command.hash,
        command: commandWireJson(r.command),
      })),
    );
    for (const [hash, ready] of distinct) pool.set(hash, { ready, arrival: this.#arrivals++ });
    if (distinct.size > 0) for (const l of this.#listeners) l(chainId);
    return distinct.size;
  }

  has(chainId: number, requestKey: string): boolean {
    return this.#chains.get(chainId)?.has(requestKey) ?? false;
  }

  /** Pending commands of a chain. */
  size(chainId: number): number {
    return this.#chains.get(chainId)?.size ?? 0;
  }

  /** Pending commands of `chainId` in selection order. */
  candidates(chainId: number): ReadyCommand[] {
    const entries = [...(this.#chains.get(chainId)?.values() ?? [])];
    const prices = new Map(
      entries.map((e) => [e, decimalOfText(e.ready.command.payload.meta.gasPrice)] as const),
    );
    entries.sort(
      (a, b) =>
        decimalCompare(
          prices.get(b) ?? { mantissa: 0n, scale: 0 },
          prices.get(a) ?? { mantissa: 0n, scale: 0 },
        ) || a.arrival - b.arrival,
    );
    return entries.map((e) => e.ready);
  }

  /** Removes commands by request key. */
  remove(chainId: number, requestKeys: Iterable<string>): void {
    const pool = this.#chains.get(chainId);
    if (pool === undefined) return;
    const removed: string[] = [];
    for (const k of requestKeys) if (pool.delete(k)) removed.push(k);
    try {
      this.#store?.remove(chainId, removed);
    } catch (e) {
      // A row left behind is harmless: at start every stored command is
      // checked again and one already on chain is dropped.
      if (!isNodeError(e)) throw e;
    }
  }

  /** Called after new commands arrive on a chain (mining refreshes its work). */
  onAdded(listener: (chainId: number) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Forgets every pending command and listener (in memory only: the store keeps its rows). */
  clear(): void {
    this.#chains.clear();
    this.#listeners.clear();
  }
}
