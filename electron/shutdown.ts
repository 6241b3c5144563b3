/**
 * Clean shutdown: when the app is asked to quit, the first request is held back
 * (`preventDefault`) until the node has closed its server, miner and databases, then quit
 * is requested again and let through. A node that does not close in time is logged and
 * abandoned rather than keeping the app alive forever.
 * @module
 */
import { DesktopError, DesktopErrorCode } from "./errors.ts";

export type ShutdownDeps = {
  /** Closes the node (null when it never started). */
  readonly closeNode: (() => Promise<void>) | null;
  /** Asks the app to quit again (`app.quit`). */
  readonly quit: () => void;
  readonly log: {
    info(message: string, fields?: Record<string, unknown>): void;
    error(message: string, fields?: Record<string, unknown>): void;
  };
  readonly timeoutMs: number;
};

export type QuitEvent = { preventDefault(): void };

/** State of the shutdown sequence. */
export type ShutdownPhase = "running" | "closing" | "closed";

export type Shutdown = {
  /** The `before-quit` listener. */
  onBeforeQuit(event: QuitEvent): void;
  /** Resolves once the node has closed (or was abandoned). */
  readonly done: Promise<void>;
  phase(): ShutdownPhase;
};

export function createShutdown(deps: ShutdownDeps): Shutdown {
  let phase: ShutdownPhase = deps.closeNode === null ? "closed" : "running";
  let resolveDone: () => void = () => {
    // Replaced by the promise's resolve before anything can call it.
  };
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });
  if (phase === "closed") resolveDone();

  const closeWithTimeout = async (close: () => Promise<void>): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new DesktopError(
              { code: DesktopErrorCode.ShutdownTimeout, ms: deps.timeoutMs },
              `The node did not close within ${deps.timeoutMs} ms.`,
            ),
          ),
        deps.timeoutMs,
      );
    });
    try {
      await Promise.race([close(), timeout]);
      deps.log.info("Node closed");
    } catch (e) {
      deps.log.error("Node did not close cleanly", {
        error: e instanceof Error ? e.message : String(e),
      });
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    onBeforeQuit(event) {
      if (phase === "closed") return;
      event.preventDefault();
      if (phase === "closing") return;
      phase = "closing";
      const close = deps.closeNode;
      deps.log.info("Closing the node before quitting");
      void (close === null ? Promise.resolve() : closeWithTimeout(close)).then(() => {
        phase = "closed";
        resolveDone();
        deps.quit();
      });
    },
    done,
    phase: () => phase,
  };
}
