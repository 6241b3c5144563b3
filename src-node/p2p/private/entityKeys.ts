/**
 * This node's entity identity key pair (docs/private.md "Entities are
 * keys"): one ed25519 key pair in `dataDir/<network>/entity-key.json` (0600,
 * written atomically), created on the first start and kept across restarts,
 * since other nodes pin its public key. The entity signs envelopes and
 * receipts with it; envelopes for it are sealed to its X25519 form
 * (entityIdentity.ts). The secret key never leaves the file and this
 * process: no route answers it and backups do not copy the file.
 *
 * File: `{"version": 2, "scheme": "ed25519", "publicKey": <base64url>,
 * "secretKey": <base64url, the 32-byte seed>}`. A version 1 file (an X25519
 * pair from before keys were pinned, which no node can have pinned) is
 * moved aside to `entity-key.v1.json` and a new pair made.
 * @module
 */
import { createPrivateKey, type KeyObject, sign } from "node:crypto";
import { renameSync } from "node:fs";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base64UrlDecode, base64UrlEncode } from "../../encoding/base64url.ts";
import { isNodeError } from "../../errors/nodeError.ts";
import { readFileIfExists, writeFileAtomic } from "../../store/atomicFile.ts";
import { makePrivateFile } from "../../store/privateFiles.ts";
import { PrivateError, PrivateErrorCode } from "./errors.ts";

export type EntityKeys = {
  /** The ed25519 public key: the entity's public identity. */
  readonly publicKey: Uint8Array;
  /** The ed25519 secret seed (32 bytes). */
  readonly secretKey: Uint8Array;
  /** The seed as an OpenSSL key, for signing. */
  readonly signingKey: KeyObject;
  /** The X25519 secret envelopes for this identity open with, as an OpenSSL key. */
  readonly openingKey: KeyObject;
};

/** PKCS#8 DER prefixes of an ed25519 and an X25519 secret key; the 32 key bytes follow. */
const ED25519_PKCS8 = Buffer.from("302e020100300506032b657004220420", "hex");
const X25519_PKCS8 = Buffer.from("302e020100300506032b656e04220420", "hex");

/** The key pair of a 32-byte ed25519 seed. */
export function entityKeysOf(secretKey: Uint8Array): EntityKeys {
  const publicKey = ed25519.getPublicKey(secretKey);
  const xSecret = ed25519.utils.toMontgomerySecret(secretKey);
  const keys: EntityKeys = {
    publicKey,
    secretKey,
    signingKey: createPrivateKey({
      key: Buffer.concat([ED25519_PKCS8, secretKey]),
      format: "der",
      type: "pkcs8",
    }),
    openingKey: createPrivateKey({
      key: Buffer.concat([X25519_PKCS8, xSecret]),
      format: "der",
      type: "pkcs8",
    }),
  };
  xSecret.fill(0);
  return keys;
}

/** A fresh key pair. */
export function newEntityKeys(): EntityKeys {
  return entityKeysOf(ed25519.utils.randomSecretKey());
}

/** The entity's ed25519 signature of `message` (64 bytes). */
export function signAsEntity(keys: EntityKeys, message: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, message, keys.signingKey));
}

function unreadable(path: string, reason: string): PrivateError {
  return new PrivateError(
    { code: PrivateErrorCode.KeyFileUnreadable, path, reason },
    `${path}: ${reason} (move the file away to create a new key pair; nodes that pinned this entity's key must then pin the new one)`,
  );
}

function keyFileText(keys: EntityKeys): string {
  return `${JSON.stringify({
    version: 2,
    scheme: "ed25519",
    publicKey: base64UrlEncode(keys.publicKey),
    secretKey: base64UrlEncode(keys.secretKey),
  })}\n`;
}

export type LoadedEntityKeys = {
  readonly keys: EntityKeys;
  /** Where an older (version 1) key file was moved, when this start replaced it. */
  readonly movedAside?: string | undefined;
};

function created(path: string, movedAside?: string): LoadedEntityKeys {
  const keys = newEntityKeys();
  writeFileAtomic(path, keyFileText(keys));
  return { keys, movedAside };
}

/**
 * Reads the key pair at `path`, creating it when the file does not exist.
 * @throws {PrivateError} PRIVATE_KEY_FILE_UNREADABLE for a file that is not
 *   a key pair (never replaced silently: other nodes pinned its public key).
 */
export function loadOrCreateEntityKeys(path: string): LoadedEntityKeys {
  const text = readFileIfExists(path);
  if (text === undefined) return created(path);
  makePrivateFile(path);
  let o: { version?: unknown; scheme?: unknown; publicKey?: unknown; secretKey?: unknown };
  try {
    o = JSON.parse(text) as typeof o;
  } catch {
    throw unreadable(path, "not JSON");
  }
  if (o === null || typeof o !== "object") throw unreadable(path, "not a key file");
  if (o.version === 1 && typeof o.secretKey === "string" && typeof o.publicKey === "string") {
    // An X25519 pair cannot sign; nobody pinned it (pins came with version 2).
    const aside = path.replace(/\.json$/, ".v1.json");
    renameSync(path, aside);
    return created(path, aside);
  }
  if (o.version !== 2 || o.scheme !== "ed25519") {
    throw unreadable(path, "not a version 2 ed25519 key file");
  }
  if (typeof o.secretKey !== "string" || typeof o.publicKey !== "string") {
    throw unreadable(path, "publicKey and secretKey must be base64url strings");
  }
  let secretKey: Uint8Array;
  try {
    secretKey = base64UrlDecode(o.secretKey, "secretKey");
    base64UrlDecode(o.publicKey, "publicKey");
  } catch (e) {
    if (!isNodeError(e)) throw e;
    throw unreadable(path, e.message);
  }
  if (secretKey.length !== 32) throw unreadable(path, "secretKey must be 32 bytes");
  const keys = entityKeysOf(secretKey);
  if (base64UrlEncode(keys.publicKey) !== o.publicKey) {
    throw unreadable(path, "publicKey is not the public key of secretKey");
  }
  return { keys };
}
