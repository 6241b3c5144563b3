/**
 * The headers every response carries (spec "Endpoints"; architecture §2.2):
 * `x-peer-addr` (the client's host and port as this node sees them),
 * `x-server-timestamp` (the node's clock, the one blocks are validated and
 * mined with, whole seconds since the UNIX epoch) and `x-ledger-node-version` (the node's package version).
 * @module
 */
import type { IncomingMessage } from "node:http";

/** `host:port` of the client; IPv6 addresses in brackets. */
export function peerAddress(request: IncomingMessage): string {
  const address = request.socket?.remoteAddress ?? "unknown";
  const port = request.socket?.remotePort ?? 0;
  return address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
}

/** What the headers need of the node. */
export type HeaderSource = {
  /** The node's release. */
  readonly packageVersion: string;
  /** The node's clock, µs since the UNIX epoch (default: the system clock). */
  readonly clock?: (() => number) | undefined;
};

export function commonHeaders(
  request: IncomingMessage,
  node: HeaderSource,
): Record<string, string> {
  const nowUs = node.clock?.() ?? Date.now() * 1000;
  return {
    "x-peer-addr": peerAddress(request),
    "x-server-timestamp": String(Math.floor(nowUs / 1_000_000)),
    "x-ledger-node-version": node.packageVersion,
  };
}
