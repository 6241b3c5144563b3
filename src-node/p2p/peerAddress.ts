/**
 * A peer's address, `HOST:PORT` (host name, IPv4, or IPv6 in brackets), its
 * key in the peer book (the text itself, host lower-cased) and its URLs.
 * @module
 */
import { P2pError, P2pErrorCode } from "./errors.ts";

export type PeerAddress = { readonly hostname: string; readonly port: number };

const ADDRESS = /^(\[[0-9a-fA-F:.]+\]|[a-zA-Z0-9](?:[a-zA-Z0-9.-]*[a-zA-Z0-9])?):([0-9]{1,5})$/;

/**
 * @param field where the text came from, for the error.
 * @throws {P2pError} P2P_BAD_PEER_ADDRESS
 */
export function parsePeerAddress(text: unknown, field: string): PeerAddress {
  const m = typeof text === "string" ? ADDRESS.exec(text.trim()) : null;
  const port = m === null ? 0 : Number(m[2]);
  if (m === null || port < 1 || port > 65535) {
    throw new P2pError(
      { code: P2pErrorCode.BadPeerAddress, field, reason: "expected HOST:PORT" },
      `${field}: expected HOST:PORT (a host name or IP address, a port from 1 to 65535), got ${JSON.stringify(text)}`,
    );
  }
  const host = (m[1] as string).toLowerCase();
  return { hostname: host.startsWith("[") ? host.slice(1, -1) : host, port };
}

/** `{hostname, port}` as a peer sends it in a cut's `origin.address`. */
export function peerAddressOf(value: unknown, field: string): PeerAddress {
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
  return parsePeerAddress(`${host}:${o.port}`, field);
}

/** The book's key: `host:port` (`[v6]:port`). */
export function peerKey(a: PeerAddress): string {
  return `${a.hostname.includes(":") ? `[${a.hostname}]` : a.hostname}:${a.port}`;
}

/** `http://HOST:PORT` */
export function peerOrigin(a: PeerAddress): string {
  return `http://${peerKey(a)}`;
}
