/**
 * The request key of a command: unpadded base64url of Blake2s-256 over the
 * UTF-8 bytes of the `cmd` string, exactly as received (Weft decision, see
 * ../shared/docs/architecture.md §2.1; the reference ledger uses Blake2b).
 * Signatures sign the 32 raw bytes, never the base64url text.
 * @module
 */
import { hash } from "node:crypto";

// OpenSSL's Blake2s-256 through node:crypto's one-shot `hash`, which takes
// the text as UTF-8 and gives base64url directly: every command's key is
// computed at least once (crypto/blake2.ts's blake2s256 is the same function
// with an encode, a hash object and a copy: about 5 times slower here).

/** The 32 raw bytes of the request key of `cmd`. */
export function requestKeyBytesOf(cmd: string): Uint8Array {
  return new Uint8Array(hash("blake2s256", cmd, "buffer"));
}

/**
 * The request key (43 characters) of a `cmd` string.
 * @example requestKeyOf("{}") // "wDe3j-TVuDBtaXUShW28q0xjazV2enUCv3q_0s1bQ80"
 */
export function requestKeyOf(cmd: string): string {
  return hash("blake2s256", cmd, "base64url");
}
