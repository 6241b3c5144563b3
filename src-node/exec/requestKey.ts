/**
 * The request key of a command: unpadded base64url of Blake2s-256 over the
 * UTF-8 bytes of the `cmd` string, exactly as received (Weft decision, see
 * ../shared/docs/architecture.md §2.1). Signatures sign the 32 raw bytes,
 * never the base64url text.
 *
 * The reference ledger, and so every client library, wallet and tool of its
 * ecosystem, hashes `cmd` with Blake2b-256 instead; a command whose `hash` is
 * that digest is taken too, with that digest as its request key
 * (`isRequestKeyOf`; docs/commands.md), so those tools work unchanged.
 * @module
 */
import { hash } from "node:crypto";
import { blake2b256 } from "../crypto/blake2.ts";
import { base64UrlEncode } from "../encoding/base64url.ts";

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

/** The reference ledger's request key of `cmd`: Blake2b-256, as the ecosystem's clients compute it. */
export function referenceRequestKeyOf(cmd: string): string {
  return base64UrlEncode(blake2b256(cmd));
}

/**
 * Whether `key` is a request key of `cmd`: Weft's (Blake2s-256) or the
 * reference's (Blake2b-256, computed only when the first does not match).
 */
export function isRequestKeyOf(key: string, cmd: string): boolean {
  return key === requestKeyOf(cmd) || key === referenceRequestKeyOf(cmd);
}
