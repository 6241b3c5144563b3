/**
 * What the node is catching up on (start-up and later: the explorer's index
 * rebuilding, state replaying, syncing from peers), for the app's
 * catching-up banner (`GET /app/api/node/status`, docs/desktop.md §3.3).
 *
 * An area reports a task through the {@link CatchUpReporter} node.ts hands
 * it (`index/` and `p2p/` take the type from here; `api/` shows the items):
 * `begin(what, total)` → `progress(done)` … → `end()`. The time left is the
 * rate so far applied to what remains.
 * @module
 */

export type CatchUpTask = {
  progress(done: number, total?: number): void;
  end(): void;
};

/** Where areas report what they catch up on. */
export type CatchUpReporter = { begin(what: string, total: number): CatchUpTask };

export type CatchUpItem = {
  readonly what: string;
  readonly done: number;
  readonly total: number;
  /** Seconds left at the rate so far; null until something is done. */
  readonly etaS: number | null;
};

type Running = { what: string; done: number; total: number; startedAt: number };

export class CatchUpStatus implements CatchUpReporter {
  readonly #running = new Set<Running>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  begin(what: string, total: number): CatchUpTask {
    const task: Running = { what, done: 0, total: Math.max(0, total), startedAt: this.#now() };
    this.#running.add(task);
    return {
      progress: (done, newTotal) => {
        if (newTotal !== undefined) task.total = Math.max(0, newTotal);
        task.done = Math.min(Math.max(0, done), task.total);
      },
      end: () => {
        this.#running.delete(task);
      },
    };
  }

  items(): CatchUpItem[] {
    const now = this.#now();
    return [...this.#running].map((t) => {
      const elapsedS = (now - t.startedAt) / 1000;
      const etaS =
        t.done > 0 && elapsedS > 0
          ? Math.max(0, Math.round(((t.total - t.done) * elapsedS) / t.done))
          : null;
      return { what: t.what, done: t.done, total: t.total, etaS };
    });
  }
}
