/**
 * ed25519 keys and signatures (RFC 8032) over @noble/ed25519, with keys and
 * signatures as hex at the edges. Verification is strict RFC 8032 (noble's
 * default, `zip215: false`), so a signature has one valid encoding; like
 * libsodium, small-order public keys are refused, since "signatures" by them
 * need no secret.
 * @module
 */
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
  try {
    if (ed.Point.fromHex(publicKeyHex).isSmallOrder()) return false;
    return ed.verify(
      hexDecode(signatureHex, "sig", 64),
      message,
      hexDecode(publicKeyHex, "pubKey", 32),
    );
  } catch {
    return false;
  }
}
