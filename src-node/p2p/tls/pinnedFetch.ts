/**
 * `fetch` towards a TLS peer named by its certificate's fingerprint
 * (docs/p2p.md "TLS"): the connection is opened first, the peer's
 * certificate (self-signed: no authority vouches for it) must have the
 * SHA-256 fingerprint the peer is named by, and only then is the request
 * written on it, over node's own `tls` and `http`. One connection per
 * request; the answer is a standard `Response` whose body streams (the
 * caller bounds what it reads; aborting the signal drops the connection).
 * @module
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { Readable } from "node:stream";
import { connect, type TLSSocket } from "node:tls";
import { certificateFingerprint } from "./peerCertificate.ts";

/** The certificate did not have the expected fingerprint (never a request written). */
export class FingerprintMismatch extends Error {}

function secureSocket(url: URL, fingerprint: string, signal?: AbortSignal): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const socket = connect({
      host,
      port: Number(url.port || 443),
      // A certificate nobody signed: what is checked is its fingerprint, below.
      rejectUnauthorized: false,
      ...(isIP(host) === 0 ? { servername: host } : {}),
      ALPNProtocols: ["http/1.1"],
    });
    const onAbort = () => socket.destroy(signal?.reason as Error);
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.once("error", (e) => {
      signal?.removeEventListener("abort", onAbort);
      reject(e);
    });
    socket.once("secureConnect", () => {
      signal?.removeEventListener("abort", onAbort);
      const raw = socket.getPeerCertificate(false)?.raw;
      const actual = raw === undefined ? "none" : certificateFingerprint(raw);
      if (actual !== fingerprint) {
        const e = new FingerprintMismatch(
          `the peer's TLS certificate has fingerprint ${actual}, not ${fingerprint}`,
        );
        socket.destroy();
        reject(e);
        return;
      }
      resolve(socket);
    });
  });
}

function headersOf(init: RequestInit): Record<string, string> {
  const h = new Headers(init.headers);
  return Object.fromEntries(h.entries());
}

function bodyOf(init: RequestInit): string | Uint8Array | undefined {
  const b = init.body;
  if (b === undefined || b === null) return undefined;
  if (typeof b === "string" || b instanceof Uint8Array) return b;
  throw new TypeError("pinnedFetch: only string or byte bodies");
}

/** A `fetch` that only talks to the TLS peer whose certificate has `fingerprint`. */
export function pinnedFetch(
  fingerprint: string,
): (url: string, init?: RequestInit) => Promise<Response> {
  return async (urlText, init = {}) => {
    const url = new URL(urlText);
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const socket = await secureSocket(url, fingerprint, signal);
    const body = bodyOf(init);
    return new Promise<Response>((resolve, reject) => {
      const req = httpRequest({
        method: init.method ?? "GET",
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        headers: {
          ...headersOf(init),
          ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }),
        },
        createConnection: () => socket,
      });
      const onAbort = () => req.destroy(signal?.reason as Error);
      signal?.addEventListener("abort", onAbort, { once: true });
      req.once("error", (e) => {
        signal?.removeEventListener("abort", onAbort);
        socket.destroy();
        reject(e);
      });
      req.once("response", (res: IncomingMessage) => {
        // The body streams to the caller, which reads it within its limit (p2p/boundedBody.ts).
        res.once("close", () => {
          signal?.removeEventListener("abort", onAbort);
          socket.end();
        });
        const status = res.statusCode ?? 502;
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (v === undefined) continue;
          for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
        }
        const noBody = status === 204 || status === 304 || init.method === "HEAD";
        if (noBody) res.resume();
        const stream = noBody
          ? null
          : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, headers }));
      });
      req.end(body);
    });
  };
}
