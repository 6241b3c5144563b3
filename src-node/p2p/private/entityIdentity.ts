/**
 * An entity's public identity (docs/private.md "Entities are keys"): its
 * ed25519 public key, written as 43 characters of unpadded base64url —
 * exactly what its node prints at start, answers as `publicKey` on
 * `GET {base_url}/private/entity` and shows on the Node page, and what other
 * nodes pin with `--trust-entity NAME=KEY`. One key does both jobs: the
 * entity signs envelopes and receipts with it (ed25519), and envelopes for
 * it are sealed to its X25519 form (the birational map of RFC 7748 §4.1,
 * as libsodium's `crypto_sign_ed25519_pk_to_curve25519`), so there is one
 * key to pin, compare and rotate.
 *
 * The fingerprint people compare out of band: the first 16 bytes of
 * SHA-256 of the key, as 8 groups of 4 hex digits.
 * @module
 */
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base64UrlDecode, base64UrlEncode } from "../../encoding/base64url.ts";
import { hexEncode } from "../../encoding/hex.ts";
import type { Result } from "../../errors/result.ts";

/** ed25519 SubjectPublicKeyInfo DER prefix; the 32 key bytes follow. */
const ED25519_SPKI = Buffer.from("302a300506032b6570032100", "hex");

const KEY_TEXT = /^[A-Za-z0-9_-]{43}$/;

/** A public identity read from text, or why the text is not one. */
export type ReadEntityKey = Result<Uint8Array>;

/**
 * Reads a public identity written as base64url; refuses (naming why) a text
 * of another length or alphabet, a non-canonical encoding, a value that is
 * not a point of the curve, and a point of small order (a key anyone can
 * sign for).
 */
export function readEntityPublicKey(text: unknown): ReadEntityKey {
  if (typeof text !== "string" || !KEY_TEXT.test(text)) {
    return {
      ok: false,
      error:
        "expected an entity's public key: 43 characters of unpadded base64url (what its node prints at start and shows on its Node page)",
    };
  }
  const bytes = base64UrlDecode(text, "publicKey");
  if (base64UrlEncode(bytes) !== text) return { ok: false, error: "not canonical base64url" };
  let point: ReturnType<typeof ed25519.Point.fromBytes>;
  try {
    point = ed25519.Point.fromBytes(bytes);
  } catch {
    return { ok: false, error: "not an ed25519 public key (not a point of the curve)" };
  }
  if (point.isSmallOrder()) {
    return { ok: false, error: "a key of small order (anyone could sign for it)" };
  }
  return { ok: true, value: bytes };
}

/** The text form of a public identity. */
export function entityKeyText(publicKey: Uint8Array): string {
  return base64UrlEncode(publicKey);
}

/** `3f2a 9c01 …`: the first 16 bytes of SHA-256 of the key, 8 groups of 4 hex digits. */
export function entityFingerprint(publicKey: Uint8Array): string {
  const hex = hexEncode(sha256(publicKey).subarray(0, 16));
  return hex.match(/.{4}/g)?.join(" ") ?? hex;
}

/** X25519 SubjectPublicKeyInfo DER prefix; the 32 key bytes follow. */
const X25519_SPKI = Buffer.from("302a300506032b656e032100", "hex");
const sealKeys = new Map<string, { raw: Uint8Array; key: KeyObject }>();

/** The X25519 key envelopes for this identity are sealed to (raw, and as an OpenSSL key). */
export function sealKeyOf(publicKey: Uint8Array): { raw: Uint8Array; key: KeyObject } {
  const id = base64UrlEncode(publicKey);
  let k = sealKeys.get(id);
  if (k === undefined) {
    const raw = ed25519.utils.toMontgomery(publicKey);
    k = {
      raw,
      key: createPublicKey({
        key: Buffer.concat([X25519_SPKI, raw]),
        format: "der",
        type: "spki",
      }),
    };
    if (sealKeys.size >= 1024) sealKeys.delete(sealKeys.keys().next().value as string);
    sealKeys.set(id, k);
  }
  return k;
}

const verifyKeys = new Map<string, KeyObject>();

/**
 * Whether `signature` (64 bytes) is the identity's ed25519 signature of `message` (OpenSSL:
 * RFC 8032, S below the group order). The keys verified against are pinned ones, read by
 * {@link readEntityPublicKey}: points of the curve, not of small order.
 */
export function verifyEntitySignature(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  const id = base64UrlEncode(publicKey);
  let key = verifyKeys.get(id);
  if (key === undefined) {
    try {
      key = createPublicKey({
        key: Buffer.concat([ED25519_SPKI, publicKey]),
        format: "der",
        type: "spki",
      });
    } catch {
      return false;
    }
    if (verifyKeys.size >= 1024) verifyKeys.delete(verifyKeys.keys().next().value as string);
    verifyKeys.set(id, key);
  }
  try {
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}
