/**
 * This node's X25519 key pair for `/private` (docs/private.md "Keys"):
 * `dataDir/<network>/entity-key.json` (0600, written atomically), created on
 * the first start and kept across restarts, so peers keep reaching the same
 * key. The public key is announced to peers with the entity name; the
 * secret key never leaves the file and this process.
 *
 * File: `{"version": 1, "publicKey": <base64url>, "secretKey": <base64url>}`.
 * @module
 */
import { x25519 } from "@noble/curves/ed25519.js";
import { base64UrlDecode, base64UrlEncode } from "../../encoding/base64url.ts";
import { isNodeError } from "../../errors/nodeError.ts";
import { readFileIfExists, writeFileAtomic } from "../../store/atomicFile.ts";
import { makePrivateFile } from "../../store/privateFiles.ts";
import { PrivateError, PrivateErrorCode } from "./errors.ts";

export type EntityKeys = { readonly publicKey: Uint8Array; readonly secretKey: Uint8Array };

function unreadable(path: string, reason: string): PrivateError {
  return new PrivateError(
    { code: PrivateErrorCode.KeyFileUnreadable, path, reason },
    `${path}: ${reason} (move the file away to create a new key pair; peers then learn the new key)`,
  );
}

/** A fresh key pair. */
export function newEntityKeys(): EntityKeys {
  const secretKey = x25519.utils.randomSecretKey();
  return { secretKey, publicKey: x25519.getPublicKey(secretKey) };
}

/**
 * Reads the key pair at `path`, creating it when the file does not exist.
 * @throws {PrivateError} PRIVATE_KEY_FILE_UNREADABLE for a file that is not
 *   a key pair (never replaced silently: peers know its public key).
 */
export function loadOrCreateEntityKeys(path: string): EntityKeys {
  const text = readFileIfExists(path);
  if (text === undefined) {
    const keys = newEntityKeys();
    writeFileAtomic(
      path,
      `${JSON.stringify({
        version: 1,
        publicKey: base64UrlEncode(keys.publicKey),
        secretKey: base64UrlEncode(keys.secretKey),
      })}\n`,
    );
    return keys;
  }
  makePrivateFile(path);
  let o: { version?: unknown; publicKey?: unknown; secretKey?: unknown };
  try {
    o = JSON.parse(text) as typeof o;
  } catch {
    throw unreadable(path, "not JSON");
  }
  if (o === null || typeof o !== "object" || o.version !== 1) {
    throw unreadable(path, "not a version 1 key file");
  }
  if (typeof o.secretKey !== "string" || typeof o.publicKey !== "string") {
    throw unreadable(path, "publicKey and secretKey must be base64url strings");
  }
  let secretKey: Uint8Array;
  let publicKey: Uint8Array;
  try {
    secretKey = base64UrlDecode(o.secretKey, "secretKey");
    publicKey = base64UrlDecode(o.publicKey, "publicKey");
  } catch (e) {
    if (!isNodeError(e)) throw e;
    throw unreadable(path, e.message);
  }
  if (secretKey.length !== 32 || publicKey.length !== 32) {
    throw unreadable(path, "keys must be 32 bytes");
  }
  const derived = x25519.getPublicKey(secretKey);
  if (base64UrlEncode(derived) !== o.publicKey) {
    throw unreadable(path, "publicKey is not the public key of secretKey");
  }
  return { secretKey, publicKey };
}
