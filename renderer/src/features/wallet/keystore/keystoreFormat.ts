/**
 * The keystore file `wallet/keystore.json` (docs/wallet.md "Keystore format"): a format name
 * and version, a NON-secret part in the clear (key ids, labels, public keys, derivation
 * indices, the wallet's settings such as watch-only accounts and the idle lock time), the
 * key-derivation function with its parameters, the cipher with its nonce, and the encrypted
 * secret part. The node stores it as an opaque file (its route checks the same shape); this
 * module parses it wherever it enters the renderer, bounding what could make unlocking hang.
 * @module
 */
import {
  array,
  type Decoded,
  decode,
  natural,
  record,
  reject,
  string,
} from "../../../api/decode.ts";

export const KEYSTORE_FORMAT = "weft-keystore";
export const KEYSTORE_VERSION = 1;

export type KeySource = "phrase" | "imported" | "test-account";

/** A key as the non-secret part records it. */
export type StoredKey = {
  readonly id: string;
  readonly publicKey: string;
  readonly label: string;
  readonly source: KeySource;
  /** For `phrase` keys: i in `m/44'/626'/i'`. */
  readonly index?: number | undefined;
};

/** The wallet's settings (plain JSON, stored in the clear beside the keys). */
export type WalletSettings = {
  /** Accounts watched without keys (wallet-send lists them). */
  readonly watchOnly: readonly string[];
  /** Lock after this many idle minutes (1 … 1440). */
  readonly idleLockMinutes: number;
};

export const DEFAULT_SETTINGS: WalletSettings = { watchOnly: [], idleLockMinutes: 10 };

/** scrypt's parameters; N a power of two. */
export type KdfParams = {
  readonly name: "scrypt";
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly dkLen: 32;
  /** 16 random bytes, hex. */
  readonly salt: string;
};

export type CipherParams = {
  readonly name: "xchacha20-poly1305";
  /** 24 random bytes, hex. */
  readonly nonce: string;
};

export type KeystoreFile = {
  readonly format: typeof KEYSTORE_FORMAT;
  readonly version: typeof KEYSTORE_VERSION;
  readonly public: { readonly keys: readonly StoredKey[]; readonly settings: WalletSettings };
  readonly kdf: KdfParams;
  readonly cipher: CipherParams;
  /** The encrypted secret part with its 16-byte tag, base64. */
  readonly ciphertext: string;
};

/** Limits shared with the node's route schema (src-node/api/routes/appWalletRoutes.ts). */
export const KEYSTORE_LIMITS = {
  keys: 1000,
  watchOnly: 1000,
  label: 100,
  id: 64,
  accountName: 256,
  /** 2^14 … 2^20: below is too weak, above could hang the page (1 GiB of memory). */
  logNMin: 14,
  logNMax: 20,
  ciphertext: 600_000,
} as const;

const HEX64 = /^[0-9a-f]{64}$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const SOURCES: readonly KeySource[] = ["phrase", "imported", "test-account"];

function hex(x: unknown, path: string, bytes: number): string {
  const s = string(x, path);
  return s.length === bytes * 2 && /^[0-9a-f]*$/.test(s)
    ? s
    : reject(path, `${bytes} bytes of lower-case hex`);
}

function oneOf<T extends string | number>(x: unknown, path: string, values: readonly T[]): T {
  return values.includes(x as T)
    ? (x as T)
    : reject(path, values.map((v) => JSON.stringify(v)).join(" or "));
}

function storedKey(x: unknown, path: string): StoredKey {
  const k = record(x, path);
  const id = string(k.id, `${path}.id`);
  if (!ID.test(id)) reject(`${path}.id`, "1 to 64 letters, digits, - or _");
  const publicKey = string(k.publicKey, `${path}.publicKey`);
  if (!HEX64.test(publicKey)) reject(`${path}.publicKey`, "64 lower-case hex digits");
  const label = string(k.label, `${path}.label`);
  if (label.length > KEYSTORE_LIMITS.label)
    reject(`${path}.label`, `at most ${KEYSTORE_LIMITS.label} characters`);
  const source = oneOf(k.source, `${path}.source`, SOURCES);
  const index = k.index === undefined ? undefined : natural(k.index, `${path}.index`);
  if (index !== undefined && index >= 0x8000_0000) reject(`${path}.index`, "below 2^31");
  if (source === "phrase" && index === undefined)
    reject(`${path}.index`, "an index for a phrase key");
  return { id, publicKey, label, source, ...(index === undefined ? {} : { index }) };
}

export function parseSettings(x: unknown, path: string): WalletSettings {
  const s = record(x, path);
  const watchOnly = array(s.watchOnly, `${path}.watchOnly`).map((a, i) => {
    const name = string(a, `${path}.watchOnly[${i}]`);
    if (name.length < 3 || name.length > KEYSTORE_LIMITS.accountName) {
      reject(`${path}.watchOnly[${i}]`, "an account name of 3 to 256 characters");
    }
    return name;
  });
  if (watchOnly.length > KEYSTORE_LIMITS.watchOnly)
    reject(`${path}.watchOnly`, "at most 1000 accounts");
  const minutes = natural(s.idleLockMinutes, `${path}.idleLockMinutes`);
  if (minutes < 1 || minutes > 1440) reject(`${path}.idleLockMinutes`, "1 to 1440 minutes");
  return { watchOnly, idleLockMinutes: minutes };
}

function kdf(x: unknown, path: string): KdfParams {
  const k = record(x, path);
  oneOf(k.name, `${path}.name`, ["scrypt"] as const);
  const N = natural(k.N, `${path}.N`);
  const logN = Math.log2(N);
  if (!Number.isInteger(logN) || logN < KEYSTORE_LIMITS.logNMin || logN > KEYSTORE_LIMITS.logNMax) {
    reject(`${path}.N`, "a power of two from 2^14 to 2^20");
  }
  const r = oneOf(k.r, `${path}.r`, [8] as const);
  const p = oneOf(k.p, `${path}.p`, [1, 2, 3, 4] as const);
  oneOf(k.dkLen, `${path}.dkLen`, [32] as const);
  return { name: "scrypt", N, r, p, dkLen: 32, salt: hex(k.salt, `${path}.salt`, 16) };
}

function keystore(x: unknown): KeystoreFile {
  const f = record(x, "keystore");
  if (f.format !== KEYSTORE_FORMAT) reject("keystore.format", JSON.stringify(KEYSTORE_FORMAT));
  if (f.version !== KEYSTORE_VERSION) {
    reject(
      "keystore.version",
      `${KEYSTORE_VERSION} (this release reads version ${KEYSTORE_VERSION} only)`,
    );
  }
  const pub = record(f.public, "keystore.public");
  const keys = array(pub.keys, "keystore.public.keys").map((k, i) =>
    storedKey(k, `keystore.public.keys[${i}]`),
  );
  if (keys.length > KEYSTORE_LIMITS.keys) reject("keystore.public.keys", "at most 1000 keys");
  if (new Set(keys.map((k) => k.id)).size !== keys.length)
    reject("keystore.public.keys", "distinct ids");
  const c = record(f.cipher, "keystore.cipher");
  oneOf(c.name, "keystore.cipher.name", ["xchacha20-poly1305"] as const);
  const ciphertext = string(f.ciphertext, "keystore.ciphertext");
  if (
    ciphertext.length > KEYSTORE_LIMITS.ciphertext ||
    !/^[A-Za-z0-9+/]+={0,2}$/.test(ciphertext)
  ) {
    reject("keystore.ciphertext", "base64 text");
  }
  return {
    format: KEYSTORE_FORMAT,
    version: KEYSTORE_VERSION,
    public: { keys, settings: parseSettings(pub.settings, "keystore.public.settings") },
    kdf: kdf(f.kdf, "keystore.kdf"),
    cipher: { name: "xchacha20-poly1305", nonce: hex(c.nonce, "keystore.cipher.nonce", 24) },
    ciphertext,
  };
}

/** Parses a keystore file (JSON already parsed); the reason names the first bad field. */
export function parseKeystoreFile(raw: unknown): Decoded<KeystoreFile> {
  return decode(raw, keystore);
}
