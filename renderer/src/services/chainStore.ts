/**
 * The one owner of the node's header-update stream and of the live cut: a store the whole
 * UI shares (Node page, wallet and explorer read it through `useSyncExternalStore`). It
 * opens the stream on its first subscriber, takes a `/cut` snapshot at start, after every
 * (re)connection and every 30 s, applies header events in between, and tells `onBlock`
 * listeners (the query cache's invalidation) about every block added to the best cut.
 * @module
 */
import type { ClientError } from "../api/clientError.ts";
import { type EventSourceLike, followHeaderStream, type StreamState } from "../api/headerStream.ts";
import type { HeaderUpdate } from "../api/headerUpdate.ts";
import type { NodeClient } from "../api/nodeClient.ts";
import { type ChainHeights, chainHeightsReducer, emptyChainHeights } from "./chainHeights.ts";

export type LiveChain = {
  readonly heights: ChainHeights;
  readonly stream: StreamState;
  /** The last snapshot failure; null once a snapshot succeeds. */
  readonly error: ClientError | null;
};

export type ChainStoreOptions = {
  readonly client: Pick<NodeClient, "cut" | "url">;
  readonly createSource: (url: string) => EventSourceLike;
  /** A monotonic ms clock; default `performance.now`. */
  readonly now?: () => number;
  /** Default 30 s. */
  readonly snapshotEveryMs?: number;
};

const SNAPSHOT_EVERY_MS = 30_000;

export class ChainStore {
  readonly #options: ChainStoreOptions;
  readonly #now: () => number;
  #snapshot: LiveChain = { heights: emptyChainHeights, stream: "connecting", error: null };
  readonly #listeners = new Set<() => void>();
  readonly #blockListeners = new Set<(update: HeaderUpdate) => void>();
  #stopStream: (() => void) | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;
  #closed = false;

  constructor(options: ChainStoreOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  /** For `useSyncExternalStore`; the first subscriber starts the stream. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    this.#start();
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /** For `useSyncExternalStore`: the same object until something changes. */
  readonly getSnapshot = (): LiveChain => this.#snapshot;

  /** Called with every block added to the best cut; returns the unsubscribe function. */
  onBlock(listener: (update: HeaderUpdate) => void): () => void {
    this.#blockListeners.add(listener);
    return () => {
      this.#blockListeners.delete(listener);
    };
  }

  /** Takes a `/cut` snapshot now (also the "Try again" of a failed one). */
  readonly reload = (): void => {
    if (this.#closed) return;
    const requestedAt = this.#now();
    void this.#options.client.cut().then((r) => {
      if (this.#closed) return;
      if (r.ok) {
        this.#set({
          heights: chainHeightsReducer(this.#snapshot.heights, {
            type: "snapshot",
            cut: r.value,
            requestedAt,
          }),
          error: null,
        });
      } else {
        this.#set({ error: r.error });
      }
    });
  };

  /** Stops the stream and the snapshots for good. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#stopStream?.();
    this.#stopStream = null;
  }

  #set(patch: Partial<LiveChain>): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
    for (const listener of [...this.#listeners]) listener();
  }

  #start(): void {
    if (this.#stopStream !== null || this.#closed) return;
    this.reload();
    this.#timer = setInterval(this.reload, this.#options.snapshotEveryMs ?? SNAPSHOT_EVERY_MS);
    this.#stopStream = followHeaderStream(
      { url: this.#options.client.url("/header/updates"), create: this.#options.createSource },
      {
        onHeader: (update) => {
          this.#set({
            heights: chainHeightsReducer(this.#snapshot.heights, {
              type: "header",
              update,
              at: this.#now(),
            }),
          });
          for (const listener of [...this.#blockListeners]) listener(update);
        },
        onState: (stream) => {
          if (this.#closed && stream !== "closed") return;
          this.#set({ stream });
          if (stream === "open") this.reload();
        },
      },
    );
  }
}
