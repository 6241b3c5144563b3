/**
 * Server-sent event streams on a hijacked Fastify reply. A stream writes
 * `event:<name>\ndata:<one line>\n\n` per event (the reference's wire form,
 * chainweb-api.md §8.7), a comment line every 25 s so that idle proxies and
 * dead clients are noticed, and ends when the client goes away or the server
 * closes (every open stream is registered with its server's
 * {@link EventStreams}, which ends them before the server stops).
 * @module
 */
import type { FastifyReply, FastifyRequest } from "fastify";

const HEARTBEAT_MS = 25_000;

/**
 * One event as the bytes a stream writes: a stream fanned out to many
 * clients is encoded once and the same buffer written to each.
 */
export function eventFrame(event: string, data: string): Buffer {
  // SSE data lines cannot hold newlines; JSON text never does unless pretty-printed.
  return Buffer.from(`event:${event}\ndata:${data.replace(/\n/g, "\ndata:")}\n\n`);
}

export type EventStream = {
  send(event: string, data: string): void;
  /** An event encoded by {@link eventFrame}. */
  sendFrame(frame: Buffer): void;
  /** An event with a name and no data: `event:<name>\n\n` (mining updates). */
  sendEvent(event: string): void;
  end(): void;
  /** Runs once when the stream ends (client gone, `end()`, server closing). */
  onEnd(callback: () => void): void;
};

/** The open streams of one server. */
export class EventStreams {
  readonly #open = new Set<EventStream>();

  get size(): number {
    return this.#open.size;
  }

  /**
   * Takes over the reply and opens a stream.
   * @param headers extra response headers (the common headers, CORS).
   */
  open(request: FastifyRequest, reply: FastifyReply, headers: Record<string, string>): EventStream {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.write(": connected\n\n");
    const callbacks: (() => void)[] = [];
    let ended = false;
    const heartbeat = setInterval(() => res.write(":\n\n"), HEARTBEAT_MS);
    heartbeat.unref();
    const finish = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      this.#open.delete(stream);
      for (const c of callbacks) c();
      if (!res.writableEnded) res.end();
    };
    const stream: EventStream = {
      send(event, data) {
        if (!ended) res.write(eventFrame(event, data));
      },
      sendFrame(frame) {
        if (!ended) res.write(frame);
      },
      sendEvent(event) {
        if (!ended) res.write(`event:${event}\n\n`);
      },
      end: finish,
      onEnd(callback) {
        if (ended) callback();
        else callbacks.push(callback);
      },
    };
    request.raw.on("close", finish);
    res.on("close", finish);
    res.on("error", finish);
    this.#open.add(stream);
    return stream;
  }

  /** Ends every open stream (before the server closes). */
  endAll(): void {
    for (const s of [...this.#open]) s.end();
  }
}
