/**
 * The JSON of a cut as `GET /cut` serves it (reference chainweb-api.md §5.2),
 * keys in the reference's order: `hashes` ({"chainId": {height, hash}}),
 * `origin` (null for cuts this node serves), `weight` (base64url of the
 * 32-byte little-endian sum of weights), `height` (sum of heights),
 * `instance` (the network name), `id` (opaque, see cut.ts).
 * @module
 */
import { base64UrlEncode } from "../encoding/base64url.ts";
import { u256ToBytes } from "../encoding/littleEndian.ts";
import { type Cut, cutHeight, cutId, cutWeight } from "./cut.ts";
import type { NetworkVersion } from "./networkVersion.ts";

export type CutJson = {
  readonly hashes: Readonly<Record<string, { readonly height: number; readonly hash: string }>>;
  readonly origin: null;
  readonly weight: string;
  readonly height: number;
  readonly instance: string;
  readonly id: string;
};

export function cutToJson(cut: Cut, version: NetworkVersion): CutJson {
  const hashes: Record<string, { height: number; hash: string }> = {};
  for (const h of [...cut.values()].sort((a, b) => a.chainId - b.chainId)) {
    hashes[String(h.chainId)] = { height: h.height, hash: h.hash };
  }
  return {
    hashes,
    origin: null,
    weight: base64UrlEncode(u256ToBytes(cutWeight(cut), "weight")),
    height: cutHeight(cut),
    instance: version.name,
    id: cutId(cut),
  };
}
