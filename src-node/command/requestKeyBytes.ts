/**
 * Request keys as text and as the 32 raw bytes signatures sign: strict,
 * canonical unpadded base64url (every hash has exactly one text).
 * @module
 */
import { base64urlnopad } from "@scure/base";
import { badField, isRequestKeyText } from "./fieldReaders.ts";

/**
 * The 32 raw bytes of a request key (what signatures sign).
 * @param field names it in the error.
 * @throws {CommandError} CMD_BAD_FIELD `field` when it is not 43 characters of canonical base64url.
 */
export function requestKeyBytes(hash: string, field = "hash"): Uint8Array {
  if (!isRequestKeyText(hash)) {
    throw badField(field, "a request key: 43 characters of unpadded base64url");
  }
  try {
    return base64urlnopad.decode(hash);
  } catch {
    // Set unused trailing bits: no hash encodes to this text.
    throw badField(field, "a request key: 43 characters of canonical unpadded base64url");
  }
}

/** The request key (43 characters) of 32 raw bytes. */
export function requestKeyText(bytes: Uint8Array): string {
  return base64urlnopad.encode(bytes);
}
