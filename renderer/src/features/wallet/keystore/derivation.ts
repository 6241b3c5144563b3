/**
 * Key derivation of the wallet's recovery phrase, browser-safe: a BIP39 seed (@scure/bip39,
 * empty BIP39 passphrase) and SLIP-10 ed25519 on `m/44'/626'/i'` (HMAC-SHA512 from
 * @noble/hashes). The node's `src-node/crypto/slip10.ts` does the same with Node-only
 * imports around it; the renderer may not import `crypto/`, so the few lines live here too,
 * held to the same vectors (`../shared/docs/reference/wallet-anchors.md` §7.3).
 * @module
 */
import * as ed from "@noble/ed25519";
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { mnemonicToSeedSync } from "@scure/bip39";

ed.hashes.sha512 = sha512;

const HARDENED = 0x8000_0000;
const CURVE_KEY = new TextEncoder().encode("ed25519 seed");
/** The wallet's coin type (SLIP-44 626) under purpose 44. */
const BASE_PATH = [44, 626] as const;

type Extended = { readonly key: Uint8Array; readonly chainCode: Uint8Array };

function split(i: Uint8Array): Extended {
  return { key: i.slice(0, 32), chainCode: i.slice(32, 64) };
}

function child(parent: Extended, index: number): Extended {
  if (!Number.isInteger(index) || index < 0 || index >= HARDENED) {
    throw new RangeError(`derivation index ${index}: expected 0 to 2^31 - 1`);
  }
  const data = new Uint8Array(37);
  data.set(parent.key, 1);
  new DataView(data.buffer).setUint32(33, index + HARDENED, false);
  return split(hmac(sha512, parent.chainCode, data));
}

/** The BIP39 seed (64 bytes) of a phrase, no BIP39 passphrase (as Chainweaver and Kadena's wallets). */
export function seedOfPhrase(phrase: string): Uint8Array {
  return mnemonicToSeedSync(phrase, "");
}

/** A derived key pair as hex: 32-byte ed25519 secret seed and public key. */
export type DerivedKey = {
  readonly index: number;
  readonly publicKey: string;
  readonly secretKey: string;
};

/**
 * The key at `m/44'/626'/index'`, then any further hardened `extra` levels (tests only).
 * @throws {RangeError} for an index outside 0 … 2^31 − 1.
 */
export function deriveKey(
  seed: Uint8Array,
  index: number,
  extra: readonly number[] = [],
): DerivedKey {
  let k = split(hmac(sha512, CURVE_KEY, seed));
  for (const i of [...BASE_PATH, index, ...extra]) k = child(k, i);
  return { index, publicKey: bytesToHex(ed.getPublicKey(k.key)), secretKey: bytesToHex(k.key) };
}

/** Keys `from` … `from + count − 1` of a seed. */
export function deriveKeys(seed: Uint8Array, from: number, count: number): DerivedKey[] {
  return Array.from({ length: count }, (_, i) => deriveKey(seed, from + i));
}
