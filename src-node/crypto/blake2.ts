/**
 * Blake2s-256 (request keys, proof of work) and Blake2b-256 (contract-language
 * `hash`, module hashes, principals) over bytes or UTF-8 text.
 * @module
 */
import { blake2b, blake2s } from "@noble/hashes/blake2.js";

const encoder = new TextEncoder();

function bytesOf(input: Uint8Array | string): Uint8Array {
  return typeof input === "string" ? encoder.encode(input) : input;
}

/** Unkeyed Blake2s with a 32-byte digest. */
export function blake2s256(input: Uint8Array | string): Uint8Array {
  return blake2s(bytesOf(input), { dkLen: 32 });
}

/** Unkeyed Blake2b with a 32-byte digest. */
export function blake2b256(input: Uint8Array | string): Uint8Array {
  return blake2b(bytesOf(input), { dkLen: 32 });
}
