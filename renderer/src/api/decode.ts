/**
 * The renderer's decoders for JSON from the node. The general ones (`decode`, `reject`,
 * `record`, `array`, `string`, `boolean`, `natural`) are the node's browser-safe
 * `src-node/walletFiles/decode.ts`, which the wallet's file formats are written with, passed
 * on from here because most of the renderer's parsers use them; the ones only the renderer
 * needs (numbers, block hashes, chain ids) are here.
 * @module
 */
import { reject, string } from "../../../src-node/walletFiles/decode.ts";

export {
  array,
  boolean,
  type Decoded,
  decode,
  natural,
  record,
  reject,
  string,
} from "../../../src-node/walletFiles/decode.ts";

/** A finite number >= 0. */
export function nonNegative(x: unknown, path: string): number {
  return typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : reject(path, "a number >= 0");
}

const HASH = /^[A-Za-z0-9_-]{43}$/;

/** A block hash: 43 characters of unpadded base64url. */
export function blockHash(x: unknown, path: string): string {
  const s = string(x, path);
  return HASH.test(s) ? s : reject(path, "a 43-character base64url hash");
}

/** A chain id: a decimal integer 0–999 given as a number or a string key. */
export function chainId(x: unknown, path: string): number {
  if (typeof x === "string" && /^(0|[1-9][0-9]{0,2})$/.test(x)) return Number(x);
  if (typeof x === "number" && Number.isInteger(x) && x >= 0 && x < 1000) return x;
  return reject(path, "a chain id");
}
