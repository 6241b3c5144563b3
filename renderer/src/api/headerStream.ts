/**
 * Follows the node's header update stream (server-sent events) and reports each block added
 * to the best cut. The browser's EventSource reconnects by itself after a dropped
 * connection; when it gives up (the node answered with an error), this module opens a new
 * one after a delay. Every (re)connection is reported as "open", so the caller can reload
 * the cut and catch up on events it missed.
 * @module
 */
import { type HeaderUpdate, parseHeaderUpdate } from "./headerUpdate.ts";

/** The part of the DOM's EventSource this module uses. */
export type EventSourceLike = {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: { readonly data?: unknown }) => void): void;
  close(): void;
};

export type StreamState = "connecting" | "open" | "reconnecting" | "closed";

export type HeaderStreamHandlers = {
  onHeader(update: HeaderUpdate): void;
  onState(state: StreamState): void;
  /** An event whose data did not parse (ignored otherwise). */
  onBadEvent?(reason: string): void;
};

export type HeaderStreamOptions = {
  readonly url: string;
  readonly create: (url: string) => EventSourceLike;
  /** Delay before a new connection when the browser has given up; default 3 s. */
  readonly retryMs?: number | undefined;
  readonly timers?: {
    setTimeout(f: () => void, ms: number): unknown;
    clearTimeout(handle: unknown): void;
  };
};

/** EventSource.CLOSED */
const CLOSED = 2;

/** Opens the stream; call the returned function to stop following it. */
export function followHeaderStream(
  options: HeaderStreamOptions,
  handlers: HeaderStreamHandlers,
): () => void {
  const retryMs = options.retryMs ?? 3000;
  const timers = options.timers ?? {
    setTimeout: (f: () => void, ms: number) => globalThis.setTimeout(f, ms),
    clearTimeout: (h: unknown) =>
      globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>),
  };
  let source: EventSourceLike | null = null;
  let retry: unknown = null;
  let stopped = false;

  const connect = () => {
    retry = null;
    const s = options.create(options.url);
    source = s;
    s.addEventListener("open", () => {
      if (source === s) handlers.onState("open");
    });
    s.addEventListener("BlockHeader", (event) => {
      if (source !== s) return;
      const parsed = typeof event.data === "string" ? parseHeaderUpdate(event.data) : null;
      if (parsed?.ok) handlers.onHeader(parsed.value);
      else handlers.onBadEvent?.(parsed === null ? "event without data" : parsed.error);
    });
    s.addEventListener("error", () => {
      if (source !== s || stopped) return;
      handlers.onState("reconnecting");
      if (s.readyState === CLOSED) {
        s.close();
        source = null;
        retry = timers.setTimeout(connect, retryMs);
      }
    });
  };

  handlers.onState("connecting");
  connect();
  return () => {
    stopped = true;
    if (retry !== null) timers.clearTimeout(retry);
    source?.close();
    source = null;
    handlers.onState("closed");
  };
}
