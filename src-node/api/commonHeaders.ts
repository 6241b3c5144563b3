/**
 * The headers every response carries (spec "Endpoints"; architecture §2.2):
 * `x-peer-addr` (the client's host and port as this node sees them),
 * `x-server-timestamp` (the node's clock, whole seconds since the UNIX
 * epoch) and `x-ledger-node-version` (the node's package version).
 * @module
 */
import type { IncomingMessage } from "node:http";

/** `host:port` of the client; IPv6 addresses in brackets. */
export function peerAddress(request: IncomingMessage): string {
  const address = request.socket?.remoteAddress ?? "unknown";
  const port = request.socket?.remotePort ?? 0;
  return address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
}

export function commonHeaders(
  request: IncomingMessage,
  packageVersion: string,
  nowMs: number = Date.now(),
): Record<string, string> {
  return {
    "x-peer-addr": peerAddress(request),
    "x-server-timestamp": String(Math.floor(nowMs / 1000)),
    "x-ledger-node-version": packageVersion,
  };
}
