/**
 * The HTTP client side of the mining API, on node:http because the API's
 * GET requests carry bodies, which `fetch` refuses: one request/response
 * exchange, and a server-sent event stream that reports event names (the
 * mining updates carry no data). Plain http only: the node's API is served on
 * loopback or a trusted network.
 * @module
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { MiningError, MiningErrorCode } from "./errors.ts";

export type HttpReply = {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
};

export type HttpExchange = {
  readonly method: "GET" | "POST";
  readonly body?: Uint8Array | string | undefined;
  readonly contentType?: string | undefined;
  /** Give up after this long, ms (default 30 s). */
  readonly timeoutMs?: number | undefined;
};

/** Largest response body read (work is 322 bytes; error texts are short). */
const MAX_REPLY = 1024 * 1024;

function failed(url: string, status: number, reason: string, cause?: unknown): MiningError {
  return new MiningError(
    { code: MiningErrorCode.NodeRequestFailed, url, status, reason },
    status === 0 ? `${url}: ${reason}` : `${url}: HTTP ${status}: ${reason}`,
    { cause },
  );
}

function requestOptions(
  url: string,
  x: { method: string; body?: Uint8Array | string | undefined; contentType?: string | undefined },
) {
  const u = new URL(url);
  if (u.protocol !== "http:") throw failed(url, 0, "only http:// URLs are supported");
  const headers: Record<string, string | number> = {};
  if (x.body !== undefined) {
    headers["content-length"] = Buffer.byteLength(x.body);
    if (x.contentType !== undefined) headers["content-type"] = x.contentType;
  }
  return { u, options: { method: x.method, headers } };
}

/**
 * One request and its whole response (any status).
 * @throws {MiningError} MINING_NODE_REQUEST_FAILED (status 0) when the node cannot be reached or times out.
 */
export function exchange(url: string, x: HttpExchange): Promise<HttpReply> {
  const { u, options } = requestOptions(url, x);
  return new Promise((resolve, reject) => {
    const req = httpRequest(u, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_REPLY) {
          req.destroy();
          reject(failed(url, res.statusCode ?? 0, "response too large"));
          return;
        }
        chunks.push(c);
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers["content-type"] ?? ""),
          body: Buffer.concat(chunks),
        }),
      );
      res.on("error", (e) => reject(failed(url, 0, e.message, e)));
    });
    req.setTimeout(x.timeoutMs ?? 30_000, () => {
      req.destroy(new Error("timed out"));
    });
    req.on("error", (e) => reject(failed(url, 0, e.message, e)));
    req.end(x.body === undefined ? undefined : x.body);
  });
}

export type EventStreamHandlers = {
  /** The stream is open (status 200). */
  onOpen?: (() => void) | undefined;
  /** One event, by name. */
  onEvent: (name: string) => void;
  /** The stream ended: by the server (`error` undefined), a failure, or a refusal (its status and text). */
  onClose: (error?: MiningError) => void;
};

export type EventStreamHandle = {
  /** Ends the stream from this side; `onClose` is not called. */
  close(): void;
};

/**
 * Opens a server-sent event stream with a GET request carrying `body`.
 * Events are dispatched by name at each empty line; comment lines (`:`) and
 * data lines are read and ignored.
 */
export function openEventStream(
  url: string,
  body: Uint8Array | undefined,
  handlers: EventStreamHandlers,
): EventStreamHandle {
  const { u, options } = requestOptions(url, {
    method: "GET",
    body,
    contentType: "application/octet-stream",
  });
  let closed = false;
  const close = (error?: MiningError) => {
    if (closed) return;
    closed = true;
    handlers.onClose(error);
  };
  const req = httpRequest(u, options, (res: IncomingMessage) => {
    if (res.statusCode !== 200) {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        close(failed(url, res.statusCode ?? 0, Buffer.concat(chunks).toString("utf8").trim())),
      );
      return;
    }
    handlers.onOpen?.();
    res.setEncoding("utf8");
    let pending = "";
    let name: string | undefined;
    res.on("data", (text: string) => {
      pending += text;
      for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
        const line = pending.slice(0, nl).replace(/\r$/, "");
        pending = pending.slice(nl + 1);
        if (line === "") {
          if (name !== undefined && !closed) handlers.onEvent(name);
          name = undefined;
        } else if (line.startsWith("event:")) {
          name = line.slice(6).trim();
        }
      }
    });
    res.on("end", () => close());
    res.on("error", (e) => close(failed(url, 0, e.message, e)));
  });
  req.on("error", (e) => close(failed(url, 0, e.message, e)));
  req.end(body);
  return {
    close() {
      closed = true;
      req.destroy();
    },
  };
}
