/**
 * `Hash32`: a 32-byte hash carried as its 43-character unpadded base64url
 * text (block hashes, payload hashes, Merkle roots, request keys).
 *
 * Text rather than bytes because hashes are compared, used as map keys and
 * written to JSON far more often than they are hashed again; the brand makes
 * {@link parseHash32} (or {@link hash32FromBytes}) the only way to make one, so
 * a `Hash32` is always canonical and comparing two with `===` is sound.
 * @module
 */
import { base64UrlEncode, decodeHash } from "./base64url.ts";
import { EncodingError, EncodingErrorCode } from "./errors.ts";

/** 43 characters of canonical unpadded base64url encoding 32 bytes. */
export type Hash32 = string & { readonly __brand: "Hash32" };

/**
 * Parses a hash text.
 * @param field names the value in errors (`"parent"`, `"adjacents.5"`, …).
 * @throws {EncodingError} ENC_BAD_TYPE (not a string), ENC_BAD_LENGTH (not 43
 *   characters), ENC_BAD_BASE64URL (not canonical base64url).
 */
export function parseHash32(text: unknown, field: string): Hash32 {
  if (typeof text !== "string") {
    throw new EncodingError(
      { code: EncodingErrorCode.BadType, field, expected: "string" },
      `${field}: expected a 43-character hash string`,
    );
  }
  decodeHash(text, field);
  return text as Hash32;
}

/**
 * The `Hash32` of 32 raw bytes.
 * @throws {EncodingError} ENC_BAD_LENGTH when `bytes` is not 32 bytes long.
 */
export function hash32FromBytes(bytes: Uint8Array, field = "hash"): Hash32 {
  if (bytes.length !== 32) {
    throw new EncodingError(
      { code: EncodingErrorCode.BadLength, field, expected: 32, actual: bytes.length },
      `${field}: a hash is 32 bytes, got ${bytes.length}`,
    );
  }
  return base64UrlEncode(bytes) as Hash32;
}

/** The 32 raw bytes of a `Hash32`. */
export function hash32Bytes(hash: Hash32): Uint8Array {
  const b = Buffer.from(hash, "base64url");
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Byte-wise comparison of two hashes (the order of the raw bytes, for paging). */
export function compareHash32(a: Hash32, b: Hash32): number {
  return Buffer.compare(hash32Bytes(a), hash32Bytes(b));
}
