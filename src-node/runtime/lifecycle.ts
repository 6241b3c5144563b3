/**
 * The node's lifecycle: every service the node opens is registered here, in the order it
 * starts, on one stack that both `WeftNode.close()` and a failed start unwind, so the two
 * can never close different things or in different orders (node.ts).
 *
 * Unwinding makes two passes over the one stack, each from the newest step to the oldest:
 * first every step that holds work or requests **stops** (the peer network, the miners,
 * the waits of `/listen` and the dapp signing API's held requests end, so that the HTTP
 * server does not wait on them), then every step **closes** what it holds (servers,
 * worker threads, databases, the data folder's lock). A step that throws does not keep
 * the others from running; the first error is thrown once all have run. Unwinding runs
 * once: a second call returns the first one's promise.
 * @module
 */

/** One registered service: what ends its work, and what releases what it holds. */
export type LifecycleStep = {
  /** Stops taking work and ends the requests it holds (first pass). */
  readonly stop?: (() => void | Promise<void>) | undefined;
  /** Releases its servers, threads, files (second pass). */
  readonly close?: (() => void | Promise<void>) | undefined;
};

export type LifecyclePhase = "stop" | "close";

/**
 * Watches the lifecycle (tests): `opened` runs once a step is registered, and a test that
 * throws there fails the node's start right after that step; `ran` after each step's stop
 * or close.
 */
export type LifecycleProbe = {
  readonly opened?: ((name: string) => void) | undefined;
  readonly ran?: ((name: string, phase: LifecyclePhase) => void) | undefined;
};

export class Lifecycle {
  readonly #steps: { readonly name: string; readonly step: LifecycleStep }[] = [];
  readonly #probe: LifecycleProbe | undefined;
  #unwinding: Promise<void> | undefined;

  constructor(probe?: LifecycleProbe) {
    this.#probe = probe;
  }

  /**
   * Registers a step right after its service opened.
   * @throws whatever the probe's `opened` throws (tests), after the step is registered.
   */
  add(name: string, step: LifecycleStep): void {
    if (this.#steps.some((s) => s.name === name)) {
      throw new Error(`lifecycle step ${name} registered twice`);
    }
    this.#steps.push({ name, step });
    this.#probe?.opened?.(name);
  }

  /** The names of the registered steps, in start order. */
  get names(): string[] {
    return this.#steps.map((s) => s.name);
  }

  /** What unwinding runs, in order: `stop NAME` for each step that stops, then `close NAME`. */
  shutdownOrder(): string[] {
    const reversed = [...this.#steps].reverse();
    return [
      ...reversed.filter((s) => s.step.stop !== undefined).map((s) => `stop ${s.name}`),
      ...reversed.filter((s) => s.step.close !== undefined).map((s) => `close ${s.name}`),
    ];
  }

  /** Stops, then closes, every registered step in reverse start order (once). */
  unwind(): Promise<void> {
    this.#unwinding ??= this.#run();
    return this.#unwinding;
  }

  async #run(): Promise<void> {
    const errors: unknown[] = [];
    const reversed = [...this.#steps].reverse();
    for (const phase of ["stop", "close"] as const) {
      for (const { name, step } of reversed) {
        const run = step[phase];
        if (run === undefined) continue;
        try {
          await run();
        } catch (e) {
          errors.push(e);
        }
        this.#probe?.ran?.(name, phase);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}
