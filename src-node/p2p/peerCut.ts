/**
 * A cut as a peer announces it (`GET /cut`, `PUT /cut`; reference
 * chainweb-api.md §5.2), parsed at the boundary: per chain the head's height
 * and hash, the weight (base64url of 32 bytes little-endian), the height,
 * the network (`instance`) and, on a published cut, the sender (`origin`).
 * Nothing in it is trusted: it only says which blocks to fetch.
 * @module
 */
import type { CutJson } from "../chain/cutJson.ts";
import { base64UrlDecode } from "../encoding/base64url.ts";
import { type Hash32, parseHash32 } from "../encoding/hash32.ts";
import { u256FromBytes } from "../encoding/littleEndian.ts";
import { isNodeError } from "../errors/nodeError.ts";
import { badCut } from "./errors.ts";
import { type PeerAddress, peerAddressOf } from "./peerAddress.ts";

export type PeerCutHead = { readonly height: number; readonly hash: Hash32 };

export type PeerCut = {
  readonly heads: ReadonlyMap<number, PeerCutHead>;
  readonly weight: bigint;
  readonly height: number;
  readonly instance: string;
  readonly origin: PeerAddress | undefined;
};

function record(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badCut(field, "expected an object");
  }
  return value as Record<string, unknown>;
}

function natural(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw badCut(field, "expected a non-negative integer");
  }
  return value;
}

/**
 * @param chainIds the network's chains: a head on another chain is refused.
 * @throws {P2pError} P2P_BAD_CUT naming the member, P2P_BAD_PEER_ADDRESS for `origin.address`.
 */
export function parsePeerCut(value: unknown, chainIds: readonly number[]): PeerCut {
  const o = record(value, "cut");
  const hashes = record(o.hashes, "hashes");
  const heads = new Map<number, PeerCutHead>();
  for (const [key, entry] of Object.entries(hashes)) {
    const chainId = Number(key);
    if (!/^[0-9]+$/.test(key) || !chainIds.includes(chainId)) {
      throw badCut(`hashes.${key}`, "not a chain of this network");
    }
    const e = record(entry, `hashes.${key}`);
    let hash: Hash32;
    try {
      hash = parseHash32(e.hash, `hashes.${key}.hash`);
    } catch (err) {
      if (!isNodeError(err)) throw err;
      throw badCut(`hashes.${key}.hash`, err.message);
    }
    heads.set(chainId, { height: natural(e.height, `hashes.${key}.height`), hash });
  }
  if (heads.size === 0) throw badCut("hashes", "no chain");
  if (typeof o.weight !== "string") throw badCut("weight", "expected base64url text");
  let weight: bigint;
  try {
    const bytes = base64UrlDecode(o.weight, "weight");
    if (bytes.length !== 32) throw badCut("weight", "expected 32 bytes");
    weight = u256FromBytes(bytes, "weight");
  } catch (err) {
    if (!isNodeError(err)) throw err;
    throw badCut("weight", err.message);
  }
  if (typeof o.instance !== "string") throw badCut("instance", "expected the network name");
  const originValue = o.origin;
  const originRecord =
    originValue === null || originValue === undefined ? undefined : record(originValue, "origin");
  const origin =
    originRecord === undefined
      ? undefined
      : peerAddressOf(originRecord.address, "origin.address", originRecord.id);
  return { heads, weight, height: natural(o.height, "height"), instance: o.instance, origin };
}

/**
 * A cut of this node as it publishes it to peers (`PUT /cut`): origin set to
 * its own address, and its certificate fingerprint as `id` when it serves TLS.
 */
export function publishedCut(cut: CutJson, self: PeerAddress): unknown {
  const address = { hostname: self.hostname, port: self.port };
  return { ...cut, origin: { id: self.id ?? null, address } };
}
