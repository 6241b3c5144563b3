/**
 * The request key of a command: unpadded base64url of Blake2s-256 over the
 * UTF-8 bytes of the `cmd` string, exactly as received (Weft decision, see
 * ../shared/docs/architecture.md §2.1; the reference ledger uses Blake2b).
 * Signatures sign the 32 raw bytes, never the base64url text.
 * @module
 */
import { blake2s256 } from "../crypto/blake2.ts";
import { base64UrlEncode } from "../encoding/base64url.ts";

/** The 32 raw bytes of the request key of `cmd`. */
export function requestKeyBytesOf(cmd: string): Uint8Array {
  return blake2s256(cmd);
}

/**
 * The request key (43 characters) of a `cmd` string.
 * @example requestKeyOf("{}") // "wDe3j-TVuDBtaXUShW28q0xjazV2enUCv3q_0s1bQ80"
 */
export function requestKeyOf(cmd: string): string {
  return base64UrlEncode(requestKeyBytesOf(cmd));
}
