/**
 * SLIP-10 key derivation for ed25519 (SLIP-0010, "Universal private key
 * derivation from master private key"): the master key is HMAC-SHA512 keyed
 * with "ed25519 seed" over the seed; a child is HMAC-SHA512 keyed with the
 * parent chain code over `0x00 || parent key || ser32(index)`. ed25519 has
 * hardened children only, so every path element must be hardened (`44'`).
 *
 * Weft's wallet and its published development accounts derive keys from a
 * BIP39 seed on the path `m/44'/626'/i'` (../shared/docs/architecture.md
 * §2.7; docs/dev-accounts.md).
 *
 * @example
 * ```ts
 * const key = slip10DerivePath(seed, "m/44'/626'/0'");
 * const pub = slip10PublicKey(key.privateKey); // 32 bytes
 * ```
 * @module
 */
import * as ed from "@noble/ed25519";
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { CryptoError, CryptoErrorCode } from "./errors.ts";

ed.hashes.sha512 = sha512;

/** The hardened bit of a child index (2^31). */
export const HARDENED_OFFSET = 0x8000_0000;

/** A private key and its chain code (32 bytes each). */
export type ExtendedKey = { readonly privateKey: Uint8Array; readonly chainCode: Uint8Array };

const CURVE_KEY = new TextEncoder().encode("ed25519 seed");

function split(i: Uint8Array): ExtendedKey {
  return { privateKey: i.slice(0, 32), chainCode: i.slice(32, 64) };
}

/**
 * The master key of a seed (BIP32 allows 16 to 64 bytes; a BIP39 seed is 64).
 * @throws {CryptoError} CRYPTO_BAD_SEED for another length.
 */
export function slip10MasterKey(seed: Uint8Array): ExtendedKey {
  if (seed.length < 16 || seed.length > 64) {
    throw new CryptoError(
      { code: CryptoErrorCode.BadSeed, length: seed.length },
      `seed: expected 16 to 64 bytes, got ${seed.length}`,
    );
  }
  return split(hmac(sha512, CURVE_KEY, seed));
}

/**
 * The hardened child `index` of a key. `index` is the full index with the
 * hardened bit set (2^31 ≤ index < 2^32).
 * @throws {CryptoError} CRYPTO_BAD_DERIVATION_PATH for a non-hardened or out-of-range index.
 */
export function slip10Child(parent: ExtendedKey, index: number): ExtendedKey {
  if (!Number.isInteger(index) || index < HARDENED_OFFSET || index > 0xffff_ffff) {
    throw new CryptoError(
      {
        code: CryptoErrorCode.BadDerivationPath,
        path: String(index),
        reason: "ed25519 derives hardened children only (index ≥ 2^31)",
      },
      `derivation index ${index}: ed25519 derives hardened children only`,
    );
  }
  const data = new Uint8Array(37);
  data.set(parent.privateKey, 1);
  new DataView(data.buffer).setUint32(33, index, false);
  return split(hmac(sha512, parent.chainCode, data));
}

const ELEMENT = /^(0|[1-9][0-9]*)'$/;

/**
 * Parses `m/44'/626'/0'` into full child indices (hardened bit set). Every
 * element must be hardened (`'`); `m` alone is the master key.
 * @throws {CryptoError} CRYPTO_BAD_DERIVATION_PATH naming the path and why.
 */
export function parseDerivationPath(path: string): number[] {
  const bad = (reason: string): never => {
    throw new CryptoError(
      { code: CryptoErrorCode.BadDerivationPath, path, reason },
      `derivation path ${JSON.stringify(path)}: ${reason}`,
    );
  };
  const parts = path.split("/");
  if (parts[0] !== "m") bad("must start with m");
  return parts.slice(1).map((p) => {
    const m = ELEMENT.exec(p);
    if (m === null) return bad(`element ${JSON.stringify(p)} is not a hardened index such as 44'`);
    const n = Number(m[1]);
    if (n >= HARDENED_OFFSET) return bad(`element ${p} is 2^31 or more`);
    return n + HARDENED_OFFSET;
  });
}

/**
 * The key at `path` below the master key of `seed`.
 * @throws {CryptoError} CRYPTO_BAD_SEED, CRYPTO_BAD_DERIVATION_PATH.
 */
export function slip10DerivePath(seed: Uint8Array, path: string): ExtendedKey {
  const indices = parseDerivationPath(path);
  let key = slip10MasterKey(seed);
  for (const i of indices) key = slip10Child(key, i);
  return key;
}

/** The ed25519 public key (32 bytes) of a derived private key. */
export function slip10PublicKey(privateKey: Uint8Array): Uint8Array {
  return ed.getPublicKey(privateKey);
}
