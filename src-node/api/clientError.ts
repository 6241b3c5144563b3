/**
 * The answer to a request the HTTP parser cannot read (not HTTP, headers over
 * Node's size limit, a request that did not arrive in time): written straight
 * to the socket, because there is no request for Fastify to route, but with
 * the common headers like every other answer (spec "Endpoints") and a
 * text/plain body saying what is wrong. Statuses as Fastify's own handler:
 * 408, 431, else 400.
 * @module
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { commonHeaders, type HeaderSource } from "./commonHeaders.ts";

function replyOf(code: string | undefined): { status: number; reason: string; body: string } {
  if (code === "ERR_HTTP_REQUEST_TIMEOUT")
    return { status: 408, reason: "Request Timeout", body: "the request did not arrive in time" };
  if (code === "HPE_HEADER_OVERFLOW")
    return {
      status: 431,
      reason: "Request Header Fields Too Large",
      body: "request headers: larger than the server accepts",
    };
  return { status: 400, reason: "Bad Request", body: "request: not a readable HTTP request" };
}

/** A `clientErrorHandler` for Fastify. */
export function clientErrorHandler(node: HeaderSource) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    // A reset connection has nobody to answer (Node's own handling).
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    // Answer only a connection that has had no answer yet. A keep-alive
    // connection that already served requests (Node times idle ones out
    // with ERR_HTTP_REQUEST_TIMEOUT) is closed without a word: a client that
    // is just sending its next request on it would read an unsolicited 408
    // as the answer to that request.
    const written = (socket as Duplex & { bytesWritten?: number }).bytesWritten ?? 0;
    if (!socket.writable || written > 0) {
      socket.destroy(error);
      return;
    }
    const r = replyOf(error.code);
    const body = `${r.body}\n`;
    const headers = {
      ...commonHeaders({ socket } as IncomingMessage, node),
      "content-type": "text/plain; charset=utf-8",
      "content-length": String(Buffer.byteLength(body)),
      connection: "close",
    };
    const head = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    socket.end(`HTTP/1.1 ${r.status} ${r.reason}\r\n${head}\r\n${body}`);
  };
}
