/**
 * Blake2s-256 (request keys, proof of work) and Blake2b-256 (contract-language
 * `hash`, module hashes, principals) over bytes or UTF-8 text. Blake2s-256 is
 * OpenSSL's (node:crypto `blake2s256`, hashed one-shot, the same function, several times
 * faster: every request key of every command is one); Blake2b with a 32-byte
 * digest is not OpenSSL's `blake2b512` cut short (the digest length is a
 * parameter of the hash), so it stays @noble/hashes.
 * @module
 */
import { hash } from "node:crypto";
import { blake2b } from "@noble/hashes/blake2.js";

const encoder = new TextEncoder();

function bytesOf(input: Uint8Array | string): Uint8Array {
  return typeof input === "string" ? encoder.encode(input) : input;
}

/** Unkeyed Blake2s with a 32-byte digest. */
export function blake2s256(input: Uint8Array | string): Uint8Array {
  // One-shot (no hash object per call: every header's proof of work is one); a copy,
  // as a Buffer's backing store may be shared with others.
  return new Uint8Array(hash("blake2s256", bytesOf(input), "buffer"));
}

/** Unkeyed Blake2b with a 32-byte digest. */
export function blake2b256(input: Uint8Array | string): Uint8Array {
  return blake2b(bytesOf(input), { dkLen: 32 });
}
