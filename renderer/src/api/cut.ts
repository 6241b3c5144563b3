/**
 * The node's current cut (`GET {base}/cut`; reference chainweb-api.md §5.2): one head per
 * chain with its height and hash, the cut's height (sum of the chains' heights), weight,
 * network and id.
 * @module
 */
import { blockHash, chainId, type Decoded, decode, natural, record, string } from "./decode.ts";

export type CutHead = { readonly chainId: number; readonly height: number; readonly hash: string };

export type Cut = {
  /** Sorted by chain id. */
  readonly heads: readonly CutHead[];
  readonly height: number;
  readonly weight: string;
  readonly instance: string;
  readonly id: string;
};

export function parseCut(raw: unknown): Decoded<Cut> {
  return decode(raw, (x) => {
    const o = record(x, "cut");
    const hashes = record(o.hashes, "hashes");
    const heads = Object.entries(hashes)
      .map(([key, v]) => {
        const h = record(v, `hashes.${key}`);
        return {
          chainId: chainId(key, `hashes key ${key}`),
          height: natural(h.height, `hashes.${key}.height`),
          hash: blockHash(h.hash, `hashes.${key}.hash`),
        };
      })
      .sort((a, b) => a.chainId - b.chainId);
    return {
      heads,
      height: natural(o.height, "height"),
      weight: string(o.weight, "weight"),
      instance: string(o.instance, "instance"),
      id: string(o.id, "id"),
    };
  });
}
