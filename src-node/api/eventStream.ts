/**
 * Server-sent event streams on a hijacked Fastify reply. A stream writes
 * `event:<name>\ndata:<one line>\n\n` per event (the reference's wire form,
 * chainweb-api.md §8.7), a comment line every 25 s so that idle proxies and
 * dead clients are noticed, and ends when the client goes away or the server
 * closes (every open stream is registered with its server's
 * {@link EventStreams}, which ends them before the server stops), or when
 * the client stops reading ({@link MAX_PENDING_BYTES}).
 * @module
 */
import type { ServerResponse } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";

const HEARTBEAT_MS = 25_000;

/**
 * Bytes a stream may have waiting for its client (in Node's buffers, past
 * what the kernel's socket buffer took) before the server drops it: a client
 * that stops reading would otherwise hold every later event in the node's
 * memory for as long as it stays connected (20 chains' headers, about
 * 57 MB a day each). Well above a burst a reading client falls behind by
 * (a fork switch of many blocks); a dropped client reconnects and reads the
 * cut it missed.
 */
export const MAX_PENDING_BYTES = 4 * 1024 * 1024;

/**
 * One event as the bytes a stream writes, prepared once for any number of
 * streams: the event's SSE text, and the same bytes as one chunk of a
 * chunked HTTP/1.1 body (size line, bytes, CRLF), which a stream writes to
 * its socket in one call.
 */
export type EventFrame = { readonly bytes: Buffer; readonly chunk: Buffer };

/** The event bytes of {@link eventFrame} framed as one HTTP/1.1 chunk. */
function chunkOf(bytes: Buffer): Buffer {
  const size = `${bytes.length.toString(16)}\r\n`;
  const chunk = Buffer.allocUnsafe(size.length + bytes.length + 2);
  let at = chunk.write(size, 0, "latin1");
  at += bytes.copy(chunk, at);
  chunk.write("\r\n", at, "latin1");
  return chunk;
}

/**
 * One event encoded once: a stream fanned out to many clients writes the
 * same buffer to each.
 */
export function eventFrame(event: string, data: string): EventFrame {
  return frameOf(eventText(event, data));
}

/** Several events as one frame: one write per stream for a cut change of many blocks. */
export function eventsFrame(events: readonly { event: string; data: string }[]): EventFrame {
  return frameOf(events.map((e) => eventText(e.event, e.data)).join(""));
}

function eventText(event: string, data: string): string {
  // SSE data lines cannot hold newlines; JSON text never does unless pretty-printed.
  return `event:${event}\ndata:${data.replace(/\n/g, "\ndata:")}\n\n`;
}

function frameOf(text: string): EventFrame {
  const bytes = Buffer.from(text);
  return { bytes, chunk: chunkOf(bytes) };
}

/**
 * What a stream needs of Node's response beyond its public API: whether
 * the body is sent chunked (HTTP/1.1; an HTTP/1.0 client gets the bytes as
 * they are, the body ending with the connection). Read once the head is sent.
 */
function isChunked(res: ServerResponse): boolean {
  return (res as { chunkedEncoding?: unknown }).chunkedEncoding === true;
}

export type EventStream = {
  send(event: string, data: string): void;
  /** An event encoded by {@link eventFrame} (the same frame for every stream). */
  sendFrame(frame: EventFrame): void;
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
    const chunked = isChunked(res);
    const callbacks: (() => void)[] = [];
    let ended = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      this.#open.delete(stream);
      for (const c of callbacks) c();
      if (!res.writableEnded) res.end();
    };
    /** False (and the stream dropped) once its client has fallen too far behind. */
    const keepsUp = (): boolean => {
      if (ended) return false;
      const pending = res.writableLength + (res.socket?.writableLength ?? 0);
      if (pending <= MAX_PENDING_BYTES) return true;
      finish();
      // Not end(): its last chunk would queue behind what the client never read.
      res.destroy();
      return false;
    };
    const heartbeat = setInterval(() => {
      if (keepsUp()) res.write(":\n\n");
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const stream: EventStream = {
      send(event, data) {
        if (keepsUp()) res.write(eventFrame(event, data).bytes);
      },
      sendFrame(frame) {
        if (!keepsUp()) return;
        // Straight to the socket in one write, framed here: res.write costs
        // four socket writes (size, CRLF, bytes, CRLF), a cork and a tick
        // per call, which for 1,000 subscribers was most of a block's
        // delivery. A response has its socket once it is the connection's
        // current one (its earlier bytes flushed); until then res.write queues.
        const socket = res.socket;
        if (socket === null) res.write(frame.bytes);
        else socket.write(chunked ? frame.chunk : frame.bytes);
      },
      sendEvent(event) {
        if (keepsUp()) res.write(`event:${event}\n\n`);
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
