/**
 * The envelope a private command travels in to one addressed node
 * (docs/private.md "Envelope"): X25519 between a fresh ephemeral key and the
 * recipient's announced public key, HKDF-SHA256 of the shared secret (salt:
 * both public keys) as the key, XChaCha20-Poly1305 with a fresh random
 * 24-byte nonce; the network, chain and recipient entity are authenticated
 * as associated data, so an envelope cannot be replayed to another network,
 * chain or entity. Only the holder of the recipient's secret key can open
 * it. All @noble; binary fields are unpadded base64url.
 *
 * Wire form (JSON, every member required):
 * `{"version": 1, "network", "chainId", "to", "ephemeralKey", "nonce", "ciphertext"}`.
 * @module
 */
import { randomBytes } from "node:crypto";
import { xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { x25519 } from "@noble/curves/ed25519.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base64UrlDecode, base64UrlEncode } from "../../encoding/base64url.ts";
import { isNodeError } from "../../errors/nodeError.ts";
import { badEnvelope, PrivateError, PrivateErrorCode } from "./errors.ts";

export const ENVELOPE_VERSION = 1;
/** Largest ciphertext accepted (a command is bounded by the API's body limit anyway). */
const MAX_CIPHERTEXT_BYTES = 4 * 1024 * 1024;
const INFO = new TextEncoder().encode("weft private envelope v1");

export type Envelope = {
  readonly version: typeof ENVELOPE_VERSION;
  readonly network: string;
  readonly chainId: number;
  /** The addressed entity this copy is for. */
  readonly to: string;
  readonly ephemeralKey: string;
  readonly nonce: string;
  readonly ciphertext: string;
};

/** Who an envelope is for, and where it applies (authenticated, not secret). */
export type EnvelopeHeader = Pick<Envelope, "network" | "chainId" | "to">;

function associatedData(h: EnvelopeHeader): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify(["weft-private", ENVELOPE_VERSION, h.network, h.chainId, h.to]),
  );
}

function keyOf(shared: Uint8Array, ephemeralPub: Uint8Array, recipientPub: Uint8Array): Uint8Array {
  const salt = new Uint8Array(64);
  salt.set(ephemeralPub, 0);
  salt.set(recipientPub, 32);
  return hkdf(sha256, shared, salt, INFO, 32);
}

/** Encrypts `plaintext` for the holder of `recipientPublicKey` (32 bytes). */
export function sealEnvelope(
  plaintext: Uint8Array,
  recipientPublicKey: Uint8Array,
  header: EnvelopeHeader,
): Envelope {
  const ephemeralSecret = x25519.utils.randomSecretKey();
  const ephemeralPub = x25519.getPublicKey(ephemeralSecret);
  const shared = x25519.getSharedSecret(ephemeralSecret, recipientPublicKey);
  const key = keyOf(shared, ephemeralPub, recipientPublicKey);
  const nonce = new Uint8Array(randomBytes(24));
  const ciphertext = xchacha20poly1305(key, nonce, associatedData(header)).encrypt(plaintext);
  ephemeralSecret.fill(0);
  shared.fill(0);
  key.fill(0);
  return {
    version: ENVELOPE_VERSION,
    network: header.network,
    chainId: header.chainId,
    to: header.to,
    ephemeralKey: base64UrlEncode(ephemeralPub),
    nonce: base64UrlEncode(nonce),
    ciphertext: base64UrlEncode(ciphertext),
  };
}

/**
 * Decrypts an envelope with this node's key pair.
 * @throws {PrivateError} PRIVATE_UNDECRYPTABLE when it was not sealed for
 *   this key, or was altered (ciphertext, nonce or header).
 */
export function openEnvelope(
  envelope: Envelope,
  secretKey: Uint8Array,
  publicKey: Uint8Array,
): Uint8Array {
  const undecryptable = () =>
    new PrivateError(
      { code: PrivateErrorCode.Undecryptable },
      "the envelope does not decrypt with this node's key: it was sealed for another key, or altered",
    );
  let shared: Uint8Array;
  const ephemeralPub = base64UrlDecode(envelope.ephemeralKey, "ephemeralKey");
  try {
    // A low-order ephemeral key gives an all-zero secret, which @noble refuses.
    shared = x25519.getSharedSecret(secretKey, ephemeralPub);
  } catch {
    throw undecryptable();
  }
  const key = keyOf(shared, ephemeralPub, publicKey);
  try {
    return xchacha20poly1305(
      key,
      base64UrlDecode(envelope.nonce, "nonce"),
      associatedData(envelope),
    ).decrypt(base64UrlDecode(envelope.ciphertext, "ciphertext"));
  } catch {
    throw undecryptable();
  } finally {
    shared.fill(0);
    key.fill(0);
  }
}

function bytesField(o: Record<string, unknown>, field: string, length?: number): string {
  const v = o[field];
  if (typeof v !== "string") throw badEnvelope(field, "missing or not a string");
  let bytes: Uint8Array;
  try {
    bytes = base64UrlDecode(v, field);
  } catch (e) {
    if (!isNodeError(e)) throw e;
    throw badEnvelope(field, "not unpadded base64url");
  }
  if (length !== undefined && bytes.length !== length) {
    throw badEnvelope(field, `${length} bytes expected, got ${bytes.length}`);
  }
  if (length === undefined && (bytes.length < 16 || bytes.length > MAX_CIPHERTEXT_BYTES)) {
    throw badEnvelope(field, `from 16 to ${MAX_CIPHERTEXT_BYTES} bytes expected`);
  }
  return v;
}

/**
 * Reads an envelope as a peer sent it.
 * @throws {PrivateError} PRIVATE_BAD_ENVELOPE naming the field.
 */
export function parseEnvelope(value: unknown): Envelope {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badEnvelope("envelope", "expected a JSON object");
  }
  const o = value as Record<string, unknown>;
  if (o.version !== ENVELOPE_VERSION) {
    throw badEnvelope("version", `expected ${ENVELOPE_VERSION}, got ${JSON.stringify(o.version)}`);
  }
  if (typeof o.network !== "string") throw badEnvelope("network", "missing or not a string");
  if (typeof o.chainId !== "number" || !Number.isSafeInteger(o.chainId) || o.chainId < 0) {
    throw badEnvelope("chainId", "expected a chain id (an integer)");
  }
  if (typeof o.to !== "string" || o.to === "") throw badEnvelope("to", "expected an entity name");
  return {
    version: ENVELOPE_VERSION,
    network: o.network,
    chainId: o.chainId,
    to: o.to,
    ephemeralKey: bytesField(o, "ephemeralKey", 32),
    nonce: bytesField(o, "nonce", 24),
    ciphertext: bytesField(o, "ciphertext"),
  };
}
