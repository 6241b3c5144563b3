/**
 * Lower-case hex, used for public keys, secret keys and signatures.
 * @module
 */
import { EncodingError, EncodingErrorCode } from "./errors.ts";

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** Encodes bytes as lower-case hex. */
export function hexEncode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/**
 * Decodes hex (either case).
 * @param length the required byte length, when there is one.
 * @throws {EncodingError} ENC_BAD_HEX or ENC_BAD_LENGTH naming `field`.
 */
export function hexDecode(text: string, field: string, length?: number): Uint8Array {
  if (typeof text !== "string" || !HEX.test(text)) {
    throw new EncodingError(
      { code: EncodingErrorCode.BadHex, field },
      `${field}: not a hex string`,
    );
  }
  if (length !== undefined && text.length !== length * 2) {
    throw new EncodingError(
      { code: EncodingErrorCode.BadLength, field, expected: length, actual: text.length / 2 },
      `${field}: expected ${length} bytes (${length * 2} hex characters), got ${text.length / 2}`,
    );
  }
  const b = Buffer.from(text, "hex");
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** True for a hex string of exactly `length` bytes. */
export function isHex(text: unknown, length?: number): text is string {
  return (
    typeof text === "string" &&
    HEX.test(text) &&
    (length === undefined || text.length === length * 2)
  );
}
