/**
 * A peer's address, `HOST:PORT` (host name, IPv4, or IPv6 in brackets), or
 * `FINGERPRINT@HOST:PORT` for a peer reached over TLS whose certificate's
 * SHA-256 fingerprint (43 characters of base64url) is its identity (the
 * reference's peer info; docs/p2p.md "TLS"); its key in the peer book (the
 * text itself, host lower-cased) and its URLs (`https://` with a fingerprint).
 * @module
 */
import { P2pError, P2pErrorCode } from "./errors.ts";

export type PeerAddress = {
  readonly hostname: string;
  readonly port: number;
  /** A TLS peer's certificate fingerprint (p2p/tls/peerCertificate.ts); absent: plain HTTP. */
  readonly id?: string | undefined;
};

const ADDRESS =
  /^(?:([A-Za-z0-9_-]{43})@)?(\[[0-9a-fA-F:.]+\]|[a-zA-Z0-9](?:[a-zA-Z0-9.-]*[a-zA-Z0-9])?):([0-9]{1,5})$/;

/**
 * @param field where the text came from, for the error.
 * @throws {P2pError} P2P_BAD_PEER_ADDRESS
 */
export function parsePeerAddress(text: unknown, field: string): PeerAddress {
  const m = typeof text === "string" ? ADDRESS.exec(text.trim()) : null;
  const port = m === null ? 0 : Number(m[3]);
  if (m === null || port < 1 || port > 65535) {
    throw new P2pError(
      { code: P2pErrorCode.BadPeerAddress, field, reason: "expected HOST:PORT" },
      `${field}: expected HOST:PORT or FINGERPRINT@HOST:PORT (a host name or IP address, a port from 1 to 65535), got ${JSON.stringify(text)}`,
    );
  }
  const host = (m[2] as string).toLowerCase();
  const hostname = host.startsWith("[") ? host.slice(1, -1) : host;
  return m[1] === undefined ? { hostname, port } : { hostname, port, id: m[1] };
}

/**
 * `{hostname, port}` as a peer sends it in a cut's `origin.address` (or a
 * `/cut/peer` item's `address`); `id` is the item's `id` (a fingerprint, or null).
 */
export function peerAddressOf(value: unknown, field: string, id?: unknown): PeerAddress {
  const o = value as { hostname?: unknown; port?: unknown } | null;
  if (
    typeof o !== "object" ||
    o === null ||
    typeof o.hostname !== "string" ||
    typeof o.port !== "number"
  ) {
    throw new P2pError(
      { code: P2pErrorCode.BadPeerAddress, field, reason: "expected {hostname, port}" },
      `${field}: expected {"hostname": string, "port": number}`,
    );
  }
  const host = o.hostname.includes(":") ? `[${o.hostname}]` : o.hostname;
  const prefix = typeof id === "string" ? `${id}@` : "";
  return parsePeerAddress(`${prefix}${host}:${o.port}`, field);
}

/** `host:port` (`[v6]:port`), without the fingerprint. */
export function peerHostPort(a: PeerAddress): string {
  return `${a.hostname.includes(":") ? `[${a.hostname}]` : a.hostname}:${a.port}`;
}

/** The book's key: `host:port` (`[v6]:port`), `fingerprint@host:port` for a TLS peer. */
export function peerKey(a: PeerAddress): string {
  return a.id === undefined ? peerHostPort(a) : `${a.id}@${peerHostPort(a)}`;
}

/** `http://HOST:PORT`, or `https://HOST:PORT` for a TLS peer. */
export function peerOrigin(a: PeerAddress): string {
  return `${a.id === undefined ? "http" : "https"}://${peerHostPort(a)}`;
}
