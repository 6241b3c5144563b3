/**
 * Follows a restart of the node (the Node page's "Restart node", the backup page's restore):
 * from the 202 on, the app shows "node restarting…" and asks `GET /app/api/node/restart`
 * every half second until another launch of the node answers, then takes a fresh cut and
 * tells its listeners (the query cache refetches everything). The header stream reconnects
 * by itself meanwhile. A node not back within the limit is reported as failed, with the
 * reason to look at the host.
 * @module
 */
import { sharedEndpoints } from "../api/appEndpoints.ts";
import type { ClientResult } from "../api/clientError.ts";
import { callEndpoint } from "../api/endpoint.ts";
import type { NodeClient } from "../api/nodeClient.ts";

export type RestartPhase =
  | { readonly kind: "idle" }
  | { readonly kind: "restarting"; readonly reason: RestartReason; readonly since: number }
  | { readonly kind: "back"; readonly reason: RestartReason }
  | { readonly kind: "failed"; readonly reason: RestartReason; readonly message: string };

export type RestartReason = "restart" | "restore";

export type RestartWatchOptions = {
  readonly client: Pick<NodeClient, "request" | "url">;
  /** Called once the node is back (the chain store's reload, the query cache's invalidation). */
  readonly onBack?: () => void;
  /** ms between checks; default 500. */
  readonly everyMs?: number;
  /** Give up after this long, ms; default 180 s (a restore copies the databases first). */
  readonly limitMs?: number;
  /** ms clock; default Date.now. */
  readonly now?: () => number;
  readonly timers?: {
    setTimeout(f: () => void, ms: number): unknown;
    clearTimeout(handle: unknown): void;
  };
};

export class RestartWatch {
  readonly #options: RestartWatchOptions;
  readonly #now: () => number;
  #phase: RestartPhase = { kind: "idle" };
  readonly #listeners = new Set<() => void>();
  #timer: unknown = null;

  constructor(options: RestartWatchOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): RestartPhase => this.#phase;

  #set(phase: RestartPhase): void {
    this.#phase = phase;
    for (const l of [...this.#listeners]) l();
  }

  /** Asks the node to restart and follows it; resolves to the request's result. */
  async restart(): Promise<ClientResult<{ launchId: string }>> {
    const r = await callEndpoint(this.#options.client, sharedEndpoints.restart, {}, {});
    if (r.ok) this.follow(r.value.launchId, "restart");
    return r;
  }

  /** Follows a restart the node accepted (`oldLaunchId`: the launch that answered 202). */
  follow(oldLaunchId: string, reason: RestartReason): void {
    this.#cancel();
    const since = this.#now();
    this.#set({ kind: "restarting", reason, since });
    const timers = this.#options.timers ?? {
      setTimeout: (f: () => void, ms: number) => globalThis.setTimeout(f, ms),
      clearTimeout: (h: unknown) =>
        globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>),
    };
    const every = this.#options.everyMs ?? 500;
    const limit = this.#options.limitMs ?? 180_000;
    const check = async () => {
      this.#timer = null;
      const r = await callEndpoint(this.#options.client, sharedEndpoints.restartStatus, {});
      if (this.#phase.kind !== "restarting" || this.#phase.since !== since) return;
      if (r.ok && r.value.launchId !== oldLaunchId) {
        this.#set({ kind: "back", reason });
        this.#options.onBack?.();
        return;
      }
      if (this.#now() - since > limit) {
        this.#set({
          kind: "failed",
          reason,
          message:
            "The node has not come back. It may have failed to start: see the node's log " +
            "(or the terminal that runs it), then reload this page.",
        });
        return;
      }
      this.#timer = timers.setTimeout(() => void check(), every);
    };
    this.#timer = timers.setTimeout(() => void check(), every);
    this.#cancel = () => {
      if (this.#timer !== null) timers.clearTimeout(this.#timer);
      this.#timer = null;
    };
  }

  #cancel: () => void = () => {
    // No wait is running: nothing to cancel.
  };

  /** Hides the "back" or "failed" notice. */
  dismiss(): void {
    if (this.#phase.kind === "back" || this.#phase.kind === "failed") this.#set({ kind: "idle" });
  }

  close(): void {
    this.#cancel();
  }
}
