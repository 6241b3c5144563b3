/**
 * Encrypting and decrypting the keystore's secret part (docs/wallet.md): the password gives a
 * 32-byte key through scrypt (parameters and salt stored in the file), the secret part's JSON
 * is sealed with XChaCha20-Poly1305 (a fresh 24-byte nonce per save), and the format, version
 * and KDF parameters are the cipher's associated data, so a file whose parameters were changed
 * is refused like a wrong password. Runs in the vault worker; the page never calls it.
 * @module
 */
import { xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { scrypt } from "@noble/hashes/scrypt.js";
import { bytesToHex, hexToBytes, randomBytes } from "@noble/hashes/utils.js";
import { base64 } from "@scure/base";
import {
  type KdfParams,
  KEYSTORE_FORMAT,
  KEYSTORE_VERSION,
  type KeystoreFile,
  type StoredKey,
  type WalletSettings,
} from "../../../../../src-node/walletFiles/keystoreFile.ts";

/** The secret part: the recovery phrase (if the wallet has one) and the imported keys' secrets. */
export type KeystoreSecrets = {
  readonly phrase: string | null;
  /** key id → 32-byte ed25519 secret seed (hex), for keys not derived from the phrase. */
  readonly secretKeys: Readonly<Record<string, string>>;
};

/** scrypt N = 2^16, r = 8, p = 1 (64 MiB): about 0.3–1 s here (`npm run bench -- wallet`). */
export const DEFAULT_KDF = { name: "scrypt", N: 2 ** 16, r: 8, p: 1, dkLen: 32 } as const;

/** Thrown when the password is wrong or the file was changed: the two cannot be told apart. */
export class KeystoreOpenError extends Error {
  constructor() {
    super("wrong password, or the keystore file was changed");
    this.name = "KeystoreOpenError";
  }
}

export function newKdfParams(base: Omit<KdfParams, "salt"> = DEFAULT_KDF): KdfParams {
  return { ...base, salt: bytesToHex(randomBytes(16)) };
}

/** The key a password gives under `kdf`. */
export function keyOfPassword(password: string, kdf: KdfParams): Uint8Array {
  return scrypt(password.normalize("NFKC"), hexToBytes(kdf.salt), {
    N: kdf.N,
    r: kdf.r,
    p: kdf.p,
    dkLen: kdf.dkLen,
  });
}

function associatedData(kdf: KdfParams): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify([
      KEYSTORE_FORMAT,
      KEYSTORE_VERSION,
      kdf.name,
      kdf.N,
      kdf.r,
      kdf.p,
      kdf.dkLen,
      kdf.salt,
    ]),
  );
}

/** A keystore file holding `secrets` under `key` (derived with `kdf`), with a fresh nonce. */
export function sealKeystore(
  key: Uint8Array,
  kdf: KdfParams,
  secrets: KeystoreSecrets,
  keys: readonly StoredKey[],
  settings: WalletSettings,
): KeystoreFile {
  const nonce = randomBytes(24);
  const plain = new TextEncoder().encode(JSON.stringify(secrets));
  const sealed = xchacha20poly1305(key, nonce, associatedData(kdf)).encrypt(plain);
  plain.fill(0);
  return {
    format: KEYSTORE_FORMAT,
    version: KEYSTORE_VERSION,
    public: { keys, settings },
    kdf,
    cipher: { name: "xchacha20-poly1305", nonce: bytesToHex(nonce) },
    ciphertext: base64.encode(sealed),
  };
}

function parseSecrets(text: string): KeystoreSecrets {
  const j: unknown = JSON.parse(text);
  if (typeof j !== "object" || j === null) throw new KeystoreOpenError();
  const s = j as { phrase?: unknown; secretKeys?: unknown };
  const phrase = typeof s.phrase === "string" ? s.phrase : null;
  const secretKeys: Record<string, string> = {};
  if (typeof s.secretKeys === "object" && s.secretKeys !== null) {
    for (const [id, v] of Object.entries(s.secretKeys)) {
      if (typeof v === "string" && /^[0-9a-f]{64}$/.test(v)) secretKeys[id] = v;
      else throw new KeystoreOpenError();
    }
  }
  return { phrase, secretKeys };
}

/**
 * The secret part of `file` under `key`.
 * @throws {KeystoreOpenError} wrong key (password) or a changed file.
 */
export function openKeystore(key: Uint8Array, file: KeystoreFile): KeystoreSecrets {
  let plain: Uint8Array;
  try {
    plain = xchacha20poly1305(key, hexToBytes(file.cipher.nonce), associatedData(file.kdf)).decrypt(
      base64.decode(file.ciphertext),
    );
  } catch {
    throw new KeystoreOpenError();
  }
  try {
    return parseSecrets(new TextDecoder().decode(plain));
  } catch {
    throw new KeystoreOpenError();
  } finally {
    plain.fill(0);
  }
}
