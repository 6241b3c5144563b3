/**
 * ed25519 keys and signatures (RFC 8032) over @noble/ed25519, with keys and
 * signatures as hex at the edges. Verification is strict RFC 8032 (noble's
 * `zip215: false`, asked for explicitly: @noble/ed25519 3's default is
 * ZIP-215), so a signature has one valid encoding; like
 * libsodium, small-order public keys are refused, since "signatures" by them
 * need no secret.
 *
 * Verification is fast through node:crypto (OpenSSL) where that gives the
 * same answer: OpenSSL accepts exactly when R is the encoding of [S]B − [k]A,
 * which implies noble's (cofactored) equation; so a signature OpenSSL
 * accepts, by a public key noble decodes strictly and that is not of small
 * order (checked once per key), is valid by noble too. A signature OpenSSL
 * refuses is checked again by noble, so the rule stays noble's exactly.
 * @module
 */
import { createPublicKey, type KeyObject, verify as nodeVerify } from "node:crypto";
import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import { hexDecode, hexEncode } from "../encoding/hex.ts";

ed.hashes.sha512 = sha512;

/** A key pair as hex: 32-byte public key and 32-byte secret seed. */
export type KeyPairHex = { readonly publicKey: string; readonly secretKey: string };

/** Generates a key pair from the system's secure random source. */
export function generateKeyPair(): KeyPairHex {
  const { secretKey, publicKey } = ed.keygen();
  return { publicKey: hexEncode(publicKey), secretKey: hexEncode(secretKey) };
}

/**
 * The public key (hex) of a 32-byte secret seed given as hex.
 * @throws {EncodingError} when the secret is not 32 bytes of hex.
 */
export function publicKeyOf(secretKeyHex: string): string {
  return hexEncode(ed.getPublicKey(hexDecode(secretKeyHex, "secret", 32)));
}

/** Signs `message` with the secret seed (hex); returns the 64-byte signature as hex. */
export function signBytes(message: Uint8Array, secretKeyHex: string): string {
  return hexEncode(ed.sign(message, hexDecode(secretKeyHex, "secret", 32)));
}

/** DER prefix of an ed25519 SubjectPublicKeyInfo; the 32 key bytes follow. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const KEY_CACHE_SIZE = 4096;
/** Public keys (lower-case hex) → the OpenSSL key, or null when noble refuses the key. */
const keyCache = new Map<string, KeyObject | null>();

/** The OpenSSL key of a public key noble decodes strictly and that is not of small order. */
function checkedKey(publicKeyHex: string): KeyObject | null {
  const id = publicKeyHex.toLowerCase();
  const hit = keyCache.get(id);
  if (hit !== undefined) return hit;
  let key: KeyObject | null = null;
  try {
    if (!ed.Point.fromHex(id).isSmallOrder()) {
      key = createPublicKey({
        key: Buffer.concat([SPKI_PREFIX, Buffer.from(id, "hex")]),
        format: "der",
        type: "spki",
      });
    }
  } catch {
    key = null;
  }
  if (keyCache.size >= KEY_CACHE_SIZE) keyCache.delete(keyCache.keys().next().value as string);
  keyCache.set(id, key);
  return key;
}

/**
 * Verifies a hex signature of `message` by a hex public key. Malformed keys or
 * signatures verify as false; they never throw.
 */
export function verifyBytes(
  message: Uint8Array,
  signatureHex: string,
  publicKeyHex: string,
): boolean {
  if (!/^[0-9a-fA-F]{128}$/.test(signatureHex) || !/^[0-9a-fA-F]{64}$/.test(publicKeyHex)) {
    return false;
  }
  const key = checkedKey(publicKeyHex);
  if (key === null) return false;
  const sig = hexDecode(signatureHex, "sig", 64);
  try {
    if (nodeVerify(null, message, key, sig)) return true;
  } catch {
    // Any failure of OpenSSL's check (it may refuse an input noble takes) only means asking
    // noble, whose answer is the rule; a bug in the call would show there too.
  }
  try {
    return ed.verify(sig, message, hexDecode(publicKeyHex, "pubKey", 32), { zip215: false });
  } catch {
    return false;
  }
}
