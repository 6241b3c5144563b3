/**
 * Whether a request's `Host` names this node, and whether its `Origin` is the
 * node's own (docs/api.md "Browsers").
 *
 * DNS rebinding: a page on a name its author controls (`evil.example`) points
 * that name at 127.0.0.1 after loading, and its scripts then reach the node
 * as "same origin"; the browser still sends `Host: evil.example:PORT`. So the
 * node answers only Hosts that name it:
 * - the loopback names `127.0.0.1`, `localhost`, `[::1]`, any IPv4 literal or
 *   bracketed IPv6 literal, and the configured `host`, each with the port
 *   the request came in on (no port means 80): a rebinding page cannot make
 *   a browser send an address literal, since the literal is the page's own
 *   origin then;
 * - the names in `allowed-hosts` (names peers reach the node by), on any
 *   port (proxies and port forwards change it).
 * `inject()` requests have no socket port: the port is not compared then.
 * @module
 */
import { isIPv4, isIPv6 } from "node:net";
import type { FastifyRequest } from "fastify";

export type HostPolicy = {
  /** The `host` the node listens on (a name here is accepted like the loopback names). */
  readonly configuredHost: string;
  /** Lower-case names accepted on any port (`allowed-hosts`). */
  readonly allowedHosts: readonly string[];
};

export type ParsedHost = {
  /** Lower case; IPv6 literals in brackets. */
  readonly name: string;
  readonly port: number;
};

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::(\d{1,5}))?$/;

/** A `Host` header's name and port (80 when absent), or undefined when it is not one. */
export function parseHostHeader(header: string): ParsedHost | undefined {
  const m = HOST.exec(header.toLowerCase());
  if (m === null) return undefined;
  const port = m[2] === undefined ? 80 : Number(m[2]);
  if (port > 65535) return undefined;
  return { name: m[1] as string, port };
}

function isAddressLiteral(name: string): boolean {
  return name.startsWith("[") ? isIPv6(name.slice(1, -1)) : isIPv4(name);
}

function withoutTrailingDot(name: string): string {
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

function sameHost(a: string, b: string): boolean {
  return withoutTrailingDot(a) === withoutTrailingDot(b);
}

function portMatches(request: FastifyRequest, port: number): boolean {
  const local = request.raw.socket?.localPort;
  return local === undefined || local === port;
}

/**
 * The Host each connection was last accepted with, per policy: a keep-alive
 * connection sends the same Host with every request, and the answer depends
 * only on the Host, the policy and the connection's local port, so it is
 * worked out once per connection (this check runs before every request).
 */
const acceptedHosts = new WeakMap<HostPolicy, WeakMap<object, string>>();

/** Why the request's Host does not name this node, or undefined when it does. */
export function hostRefusal(request: FastifyRequest, policy: HostPolicy): string | undefined {
  const header = request.headers.host;
  const socket: object | undefined = request.raw.socket ?? undefined;
  const accepted = acceptedHosts.get(policy);
  if (socket !== undefined && header !== undefined && accepted?.get(socket) === header) {
    return undefined;
  }
  const refusal = hostRefusalOf(request, header, policy);
  if (refusal === undefined && socket !== undefined && header !== undefined) {
    if (accepted === undefined) acceptedHosts.set(policy, new WeakMap([[socket, header]]));
    else accepted.set(socket, header);
  }
  return refusal;
}

function hostRefusalOf(
  request: FastifyRequest,
  header: string | undefined,
  policy: HostPolicy,
): string | undefined {
  if (header === undefined || header === "") return "no Host header";
  const host = parseHostHeader(header);
  const shown = JSON.stringify(header.length > 100 ? `${header.slice(0, 100)}…` : header);
  if (host === undefined) return `Host ${shown} is not a host name and port`;
  if (policy.allowedHosts.some((n) => sameHost(n, host.name))) return undefined;
  const configured = policy.configuredHost.toLowerCase();
  const local =
    LOOPBACK_NAMES.has(host.name) ||
    isAddressLiteral(host.name) ||
    sameHost(host.name, configured.includes(":") ? `[${configured}]` : configured);
  if (!local) {
    return `Host ${shown} does not name this node (a name peers use must be added to allowed-hosts)`;
  }
  if (!portMatches(request, host.port)) {
    return `Host ${shown} names another port than this node's`;
  }
  return undefined;
}

/** Whether Host is a loopback name (`127.0.0.1`, `localhost`, `[::1]`) with the request's port. */
export function isLoopbackHost(request: FastifyRequest): boolean {
  const host = parseHostHeader(request.headers.host ?? "");
  return host !== undefined && LOOPBACK_NAMES.has(host.name) && portMatches(request, host.port);
}

/** Whether an `Origin` header, if present, is the node's own: `http://` and the request's Host. */
export function isOwnOriginOrAbsent(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin.toLowerCase() === `http://${(request.headers.host ?? "").toLowerCase()}`;
}

const LOOPBACK_PEERS = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** Whether the peer address is this computer's loopback address. */
export function isLoopbackPeer(request: FastifyRequest): boolean {
  const address = request.raw.socket?.remoteAddress;
  return address !== undefined && LOOPBACK_PEERS.has(address);
}

/** The media type of the request body, lower case, without parameters ("" when none). */
export function mediaTypeOf(request: FastifyRequest): string {
  const type = request.headers["content-type"];
  // What almost every request sends, without splitting it.
  if (type === "application/json") return type;
  return (type ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}
