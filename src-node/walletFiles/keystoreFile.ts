/**
 * The keystore file `wallet/keystore.json` (docs/wallet.md "Keystore format"), its one
 * definition: a format name and version, a NON-secret part in the clear (key ids, labels,
 * public keys, derivation indices, the wallet's settings such as watch-only accounts and the
 * idle lock time), the key-derivation function with its parameters, the cipher with its nonce,
 * and the encrypted secret part. The node checks every body it is asked to store with
 * {@link parseKeystoreFile} (api/routes/appWalletRoutes.ts) and stores what it read; the
 * renderer reads the stored file with it wherever it enters the page. The limits bound what
 * could make unlocking hang or the page slow.
 * @module
 */
import { type Decoded, decode, natural, reject } from "./decode.ts";
import { fields, hexBytes, listOf, matching, oneOf, text } from "./fileFields.ts";

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

/** The file's limits. Lengths count characters (code points). */
export const KEYSTORE_LIMITS = {
  keys: 1000,
  watchOnly: 1000,
  label: 100,
  id: 64,
  accountNameMin: 3,
  accountName: 256,
  /** 2^14 … 2^20: below is too weak, above could hang the page (1 GiB of memory). */
  logNMin: 14,
  logNMax: 20,
  ciphertext: 600_000,
  idleLockMinutesMin: 1,
  idleLockMinutesMax: 1440,
} as const;

const SOURCES: readonly KeySource[] = ["phrase", "imported", "test-account"];
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** scrypt's N: the powers of two the limits allow. */
const KDF_N: readonly number[] = Array.from(
  { length: KEYSTORE_LIMITS.logNMax - KEYSTORE_LIMITS.logNMin + 1 },
  (_, i) => 2 ** (KEYSTORE_LIMITS.logNMin + i),
);

function storedKey(x: unknown, path: string): StoredKey {
  const k = fields(x, path, ["id", "publicKey", "label", "source"], ["index"]);
  const id = matching(k.id, `${path}.id`, ID, "1 to 64 letters, digits, - or _");
  const publicKey = hexBytes(k.publicKey, `${path}.publicKey`, 32);
  const label = text(k.label, `${path}.label`, KEYSTORE_LIMITS.label);
  const source = oneOf(k.source, `${path}.source`, SOURCES);
  const index = k.index === undefined ? undefined : natural(k.index, `${path}.index`);
  if (index !== undefined && index >= 0x8000_0000) reject(`${path}.index`, "below 2^31");
  if (source === "phrase" && index === undefined) {
    reject(`${path}.index`, "an index for a phrase key");
  }
  return { id, publicKey, label, source, ...(index === undefined ? {} : { index }) };
}

/** The wallet's settings at `path` (the keystore's `public.settings`). */
export function parseSettings(x: unknown, path: string): WalletSettings {
  const s = fields(x, path, ["watchOnly", "idleLockMinutes"]);
  const watchOnly = listOf(s.watchOnly, `${path}.watchOnly`, KEYSTORE_LIMITS.watchOnly, (a, p) =>
    text(a, p, KEYSTORE_LIMITS.accountName, KEYSTORE_LIMITS.accountNameMin),
  );
  const minutes = natural(s.idleLockMinutes, `${path}.idleLockMinutes`);
  if (
    minutes < KEYSTORE_LIMITS.idleLockMinutesMin ||
    minutes > KEYSTORE_LIMITS.idleLockMinutesMax
  ) {
    reject(`${path}.idleLockMinutes`, "1 to 1440 minutes");
  }
  return { watchOnly, idleLockMinutes: minutes };
}

function kdf(x: unknown, path: string): KdfParams {
  const k = fields(x, path, ["name", "N", "r", "p", "dkLen", "salt"]);
  oneOf(k.name, `${path}.name`, ["scrypt"]);
  if (!KDF_N.includes(k.N as number)) reject(`${path}.N`, "a power of two from 2^14 to 2^20");
  return {
    name: "scrypt",
    N: k.N as number,
    r: oneOf(k.r, `${path}.r`, [8]),
    p: oneOf(k.p, `${path}.p`, [1, 2, 3, 4]),
    dkLen: oneOf(k.dkLen, `${path}.dkLen`, [32]),
    salt: hexBytes(k.salt, `${path}.salt`, 16),
  };
}

function cipher(x: unknown, path: string): CipherParams {
  const c = fields(x, path, ["name", "nonce"]);
  return {
    name: oneOf(c.name, `${path}.name`, ["xchacha20-poly1305"]),
    nonce: hexBytes(c.nonce, `${path}.nonce`, 24),
  };
}

function keystore(x: unknown): KeystoreFile {
  const f = fields(x, "keystore", ["format", "version", "public", "kdf", "cipher", "ciphertext"]);
  if (f.format !== KEYSTORE_FORMAT) reject("keystore.format", JSON.stringify(KEYSTORE_FORMAT));
  if (f.version !== KEYSTORE_VERSION) {
    reject(
      "keystore.version",
      `${KEYSTORE_VERSION} (this release reads version ${KEYSTORE_VERSION} only)`,
    );
  }
  const pub = fields(f.public, "keystore.public", ["keys", "settings"]);
  const keys = listOf(pub.keys, "keystore.public.keys", KEYSTORE_LIMITS.keys, storedKey);
  if (new Set(keys.map((k) => k.id)).size !== keys.length) {
    reject("keystore.public.keys", "distinct ids");
  }
  const settings = parseSettings(pub.settings, "keystore.public.settings");
  const kdfParams = kdf(f.kdf, "keystore.kdf");
  const cipherParams = cipher(f.cipher, "keystore.cipher");
  const ciphertext = text(f.ciphertext, "keystore.ciphertext", KEYSTORE_LIMITS.ciphertext);
  if (!BASE64.test(ciphertext)) reject("keystore.ciphertext", "base64 text");
  return {
    format: KEYSTORE_FORMAT,
    version: KEYSTORE_VERSION,
    public: { keys, settings },
    kdf: kdfParams,
    cipher: cipherParams,
    ciphertext,
  };
}

/**
 * Reads a keystore file (JSON already parsed) into exactly its known members; the reason
 * names the first bad field (`keystore.kdf.N: expected …`).
 */
export function parseKeystoreFile(raw: unknown): Decoded<KeystoreFile> {
  return decode(raw, keystore);
}
