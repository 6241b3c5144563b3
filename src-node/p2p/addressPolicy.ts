/**
 * Which addresses learnt from peers this node may connect to (docs/p2p.md
 * "What a peer can and cannot make this node do"). A peer's word (a
 * published cut's `origin`, an item of its `GET /cut/peer`) must not point
 * this node at its own machine or its local network: loopback, link-local
 * and private addresses (RFC 1918, carrier-grade NAT, IPv6 unique local) are
 * refused unless this node itself runs on such a network (a node
 * publishing a loopback address takes loopback peers: tests and a machine's
 * own test networks) or `p2p.allow-private-addresses` allows them; the
 * unspecified, multicast and reserved ranges never. A host name is judged by
 * what it resolves to, when the address is verified. Configured peers and
 * peers added in the app are the user's choice and are never judged here.
 * @module
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

export type AddressScope = "public" | "private" | "loopback" | "link-local" | "unusable";

function v4Scope(ip: string): AddressScope {
  const [a = 0, b = 0, c = 0, d = 0] = ip.split(".").map(Number);
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 100 && b >= 64 && b <= 127) return "private";
  if (a === 169 && b === 254) return "link-local";
  if (a === 0 || a >= 224 || (a === 255 && b === 255 && c === 255 && d === 255)) return "unusable";
  return "public";
}

function v6Scope(ip: string): AddressScope {
  const lower = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped !== null) return v4Scope(mapped[1] as string);
  if (lower === "::1") return "loopback";
  if (lower === "::") return "unusable";
  const first = Number.parseInt(lower.split(":")[0] || "0", 16);
  if ((first & 0xffc0) === 0xfe80) return "link-local";
  if ((first & 0xfe00) === 0xfc00) return "private";
  if ((first & 0xff00) === 0xff00) return "unusable";
  return "public";
}

/** The scope of an IP literal; undefined for a host name. */
export function scopeOfHost(hostname: string): AddressScope | undefined {
  const family = isIP(hostname);
  if (family === 4) return v4Scope(hostname);
  if (family === 6) return v6Scope(hostname);
  if (hostname.toLowerCase() === "localhost") return "loopback";
  return undefined;
}

/** The scopes a host resolves to (an IP literal: its own; a name that does not resolve: unusable). */
export async function resolveScopes(hostname: string): Promise<AddressScope[]> {
  const literal = scopeOfHost(hostname);
  if (literal !== undefined) return [literal];
  try {
    const found = await lookup(hostname, { all: true });
    return found.length === 0
      ? ["unusable"]
      : found.map((a) => scopeOfHost(a.address) ?? "unusable");
  } catch {
    return ["unusable"];
  }
}

export type AddressPolicy = {
  /** `p2p.allow-private-addresses`: loopback, link-local and private addresses allowed. */
  readonly allowPrivate: boolean;
  /** The scope of the address this node publishes (undefined: a host name, or not started). */
  readonly selfScope: AddressScope | undefined;
};

/** Whether an address of this scope, learnt from a peer, may be connected to. */
export function scopeAllowed(scope: AddressScope, policy: AddressPolicy): boolean {
  if (scope === "public") return true;
  if (scope === "unusable") return false;
  return policy.allowPrivate || scope === policy.selfScope;
}
