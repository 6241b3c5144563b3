/**
 * Proof of work (reference chainweb-api.md §1.3): the PoW hash is the
 * unkeyed Blake2s-256 of the work header (the header without its block hash),
 * and it is valid when, read as an unsigned 256-bit little-endian number, it
 * is ≤ the target. It is not the block hash and is not stored.
 * @module
 */
import { blake2s256 } from "../crypto/blake2.ts";
import { readU256 } from "../encoding/littleEndian.ts";
import type { UnhashedBlockHeader } from "./blockHeader.ts";
import { encodeWorkHeader } from "./blockHeaderBinary.ts";

/** Blake2s-256 of work-header bytes. */
export function powHashOfWorkHeader(workHeader: Uint8Array): Uint8Array {
  return blake2s256(workHeader);
}

/** The PoW hash of a header. */
export function powHash(header: UnhashedBlockHeader): Uint8Array {
  return powHashOfWorkHeader(encodeWorkHeader(header));
}

/** LE(pow) ≤ target. */
export function meetsTarget(pow: Uint8Array, target: bigint): boolean {
  return readU256(pow, 0, "powHash") <= target;
}

/** True when the header's PoW hash meets its own target. */
export function hasValidPow(header: UnhashedBlockHeader): boolean {
  return meetsTarget(powHash(header), header.target);
}

/**
 * The PoW hash as the reference shows it in update streams: hex of the
 * reversed digest (the big-endian rendering of the little-endian number).
 */
export function powHashHex(pow: Uint8Array): string {
  return Buffer.from(pow).reverse().toString("hex");
}
