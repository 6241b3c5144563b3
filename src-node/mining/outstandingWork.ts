/**
 * The work the node has handed out and not yet seen solved: for each work
 * header (ignoring its creation time and nonce, the two fields a miner may
 * change) the payload behind it, so that `POST /mining/solved` can find the
 * payload of a solution by its payload hash (reference chainweb-api.md §6.1).
 *
 * Bounded and expiring: at most `limit` items, each kept `ttlMs` after it was
 * last handed out; when full, the item handed out longest ago is dropped
 * (its miner then gets "unknown payload", as after expiry). Handing out the
 * same work again refreshes it instead of adding a copy.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { HeaderOffset } from "../chain/blockHeader.ts";
import type { MinerInfo } from "../chain/minerData.ts";
import type { PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import type { Hash32 } from "../encoding/hash32.ts";
import { hexEncode } from "../encoding/hex.ts";
import { positiveInteger } from "./positiveInteger.ts";

export type WorkItem = {
  /** The unsolved header as handed out (its creation time is that of the first hand-out). */
  readonly header: BlockHeader;
  /** Its 286 work-header bytes. */
  readonly workHeader: Uint8Array;
  readonly payload: PayloadWithOutputs;
  readonly minerInfo: MinerInfo;
  /** The latest creation time of the parent and the adjacent parents, µs. */
  readonly latestParentTime: number;
};

type Entry = { readonly key: string; readonly item: WorkItem; expiresAt: number };

/** Default bound (the reference's `limit`). */
export const DEFAULT_WORK_LIMIT = 1200;
/** Default lifetime: 5 minutes (the reference keeps work 5 min). */
export const DEFAULT_WORK_TTL_MS = 5 * 60_000;

/**
 * The identity of a work header: its bytes with the creation time and the
 * nonce left out, as hex.
 */
export function workKey(workHeader: Uint8Array): string {
  const time = HeaderOffset.creationTime;
  return (
    hexEncode(workHeader.subarray(0, time)) +
    hexEncode(workHeader.subarray(time + 8, HeaderOffset.nonce))
  );
}

export class OutstandingWork {
  readonly limit: number;
  readonly ttlMs: number;
  readonly #now: () => number;
  /** Insertion order = order of the last hand-out, oldest first. */
  readonly #byKey = new Map<string, Entry>();
  readonly #byPayload = new Map<Hash32, Set<string>>();

  /** @param now milliseconds, monotonic enough for expiry (default `Date.now`). */
  constructor(
    options: {
      limit?: number | undefined;
      ttlMs?: number | undefined;
      now?: (() => number) | undefined;
    } = {},
  ) {
    this.limit = positiveInteger(options.limit ?? DEFAULT_WORK_LIMIT, "workLimit");
    this.ttlMs = positiveInteger(options.ttlMs ?? DEFAULT_WORK_TTL_MS, "workTtlMs");
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    this.#prune();
    return this.#byKey.size;
  }

  /** Remembers handed-out work (or refreshes the same work handed out before). */
  add(item: WorkItem): void {
    this.#prune();
    const key = workKey(item.workHeader);
    const old = this.#byKey.get(key);
    if (old !== undefined) this.#byKey.delete(key);
    this.#byKey.set(key, { key, item: old?.item ?? item, expiresAt: this.#now() + this.ttlMs });
    let keys = this.#byPayload.get(item.payload.payloadHash);
    if (keys === undefined) {
      keys = new Set();
      this.#byPayload.set(item.payload.payloadHash, keys);
    }
    keys.add(key);
    while (this.#byKey.size > this.limit) {
      const oldest = this.#byKey.values().next();
      if (oldest.done === true) break;
      this.#drop(oldest.value);
    }
  }

  /** The work items handed out with this payload hash, most recent first. */
  withPayload(payloadHash: Hash32): WorkItem[] {
    this.#prune();
    const keys = this.#byPayload.get(payloadHash);
    if (keys === undefined) return [];
    return [...keys]
      .map((k) => this.#byKey.get(k))
      .filter((e): e is Entry => e !== undefined)
      .reverse()
      .map((e) => e.item);
  }

  /** The item handed out for this work header (creation time and nonce ignored). */
  find(workHeader: Uint8Array): WorkItem | undefined {
    this.#prune();
    return this.#byKey.get(workKey(workHeader))?.item;
  }

  /** Forgets the item of this work header (after it was solved). */
  remove(workHeader: Uint8Array): void {
    const e = this.#byKey.get(workKey(workHeader));
    if (e !== undefined) this.#drop(e);
  }

  clear(): void {
    this.#byKey.clear();
    this.#byPayload.clear();
  }

  #drop(e: Entry): void {
    this.#byKey.delete(e.key);
    const keys = this.#byPayload.get(e.item.payload.payloadHash);
    keys?.delete(e.key);
    if (keys?.size === 0) this.#byPayload.delete(e.item.payload.payloadHash);
  }

  #prune(): void {
    const now = this.#now();
    for (const e of this.#byKey.values()) {
      // Entries are ordered by last hand-out and share one lifetime: the first live one ends the scan.
      if (e.expiresAt > now) break;
      this.#drop(e);
    }
  }
}
