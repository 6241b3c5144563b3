/**
 * One event of the header update stream (`GET {base}/header/updates`, server-sent events
 * `event:BlockHeader`; reference chainweb-api.md §8.7): a block added to the node's best
 * cut. The UI needs the chain, height, hash and time; other header fields are ignored.
 * @module
 */
import { blockHash, chainId, type Decoded, decode, natural, record } from "./decode.ts";

export type HeaderUpdate = {
  readonly chainId: number;
  readonly height: number;
  readonly hash: string;
  /** Microseconds since the UNIX epoch. */
  readonly creationTime: number;
  readonly txCount: number;
};

/** Parses the `data:` text of one `BlockHeader` event. */
export function parseHeaderUpdate(data: string): Decoded<HeaderUpdate> {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { ok: false, error: "event data: expected JSON" };
  }
  return decode(json, (x) => {
    const o = record(x, "event");
    const h = record(o.header, "header");
    return {
      chainId: chainId(h.chainId, "header.chainId"),
      height: natural(h.height, "header.height"),
      hash: blockHash(h.hash, "header.hash"),
      creationTime: natural(h.creationTime, "header.creationTime"),
      txCount: natural(o.txCount, "txCount"),
    };
  });
}
