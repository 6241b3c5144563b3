/**
 * Strict unpadded base64url (RFC 4648 §5 without `=`), used for every binary
 * value in JSON and URLs: hashes, request keys, targets, weights, payloads.
 *
 * Strict means: only the alphabet `A-Za-z0-9-_`, no padding, no whitespace, a
 * length that is not 1 mod 4, and zero unused trailing bits, so that every
 * byte string has exactly one accepted text.
 * @module
 */
import { EncodingError, EncodingErrorCode } from "./errors.ts";

const ALPHABET = /^[A-Za-z0-9_-]*$/;
const HASH_TEXT = /^[a-zA-Z0-9_-]{43}$/;

/** Encodes bytes as unpadded base64url. */
export function base64UrlEncode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
}

/** Encodes a UTF-8 string as unpadded base64url. */
export function base64UrlEncodeText(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/**
 * Decodes strict unpadded base64url.
 * @param field names the value in the error, e.g. `"parent"` or `"requestKey"`.
 * @throws {EncodingError} ENC_BAD_BASE64URL for characters outside the alphabet,
 *   padding, an impossible length or non-canonical trailing bits.
 */
export function base64UrlDecode(text: string, field: string): Uint8Array {
  if (typeof text !== "string") {
    throw new EncodingError(
      { code: EncodingErrorCode.BadType, field, expected: "string" },
      `${field}: expected a base64url string`,
    );
  }
  if (!ALPHABET.test(text) || text.length % 4 === 1) {
    throw new EncodingError(
      { code: EncodingErrorCode.BadBase64Url, field },
      `${field}: not unpadded base64url`,
    );
  }
  const bytes = Buffer.from(text, "base64url");
  // Node ignores non-zero unused bits; re-encoding detects them.
  if (bytes.toString("base64url") !== text) {
    throw new EncodingError(
      { code: EncodingErrorCode.BadBase64Url, field },
      `${field}: non-canonical base64url (unused trailing bits are set)`,
    );
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Decodes base64url into a UTF-8 string (see {@link base64UrlDecode}). */
export function base64UrlDecodeText(text: string, field: string): string {
  return Buffer.from(base64UrlDecode(text, field)).toString("utf8");
}

/** True for a 43-character hash or request key text (`^[a-zA-Z0-9_-]{43}$`). */
export function isHashText(text: unknown): text is string {
  return typeof text === "string" && HASH_TEXT.test(text);
}

/**
 * Decodes a 32-byte hash given as 43 characters of base64url.
 * @throws {EncodingError} ENC_BAD_LENGTH when the text is not 43 characters,
 *   ENC_BAD_BASE64URL when it is not canonical base64url.
 */
export function decodeHash(text: string, field: string): Uint8Array {
  if (typeof text !== "string" || text.length !== 43) {
    throw new EncodingError(
      {
        code: EncodingErrorCode.BadLength,
        field,
        expected: 43,
        actual: typeof text === "string" ? text.length : -1,
      },
      `${field}: a hash is 43 characters of base64url, got ${typeof text === "string" ? `${text.length} characters` : typeof text}`,
    );
  }
  return base64UrlDecode(text, field);
}
