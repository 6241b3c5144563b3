/**
 * The envelope a private command travels in to one addressed entity
 * (docs/private.md "Envelope"): sealed to the recipient's pinned identity
 * (its X25519 form) and signed by the sender's entity key.
 *
 * - Sealing: a fresh ephemeral X25519 key per envelope and the recipient's
 *   X25519 key (OpenSSL through node:crypto), HKDF-SHA256 of the shared
 *   secret (salt: both X25519 public keys) as the key, XChaCha20-Poly1305
 *   (@noble/ciphers) with a fresh random 24-byte nonce; the header is the
 *   associated data. Only the holder of the recipient's secret key opens it.
 * - Signing: the sender's ed25519 signature over the header and the
 *   ciphertext. The header names the network, chain, sender and recipient
 *   entities, the recipient's public identity, a random id and the sending
 *   time, so an envelope cannot be moved to another network, chain, entity
 *   or key, nor claim another sender, and a replay is recognised by its id.
 *
 * Wire form (JSON, every member required, binary members unpadded base64url):
 * `{"version": 2, "network", "chainId", "from", "to", "id", "sentAt",
 * "ephemeralKey", "nonce", "ciphertext", "signature"}`.
 * @module
 */
import { createPublicKey, diffieHellman, generateKeyPairSync, randomBytes } from "node:crypto";
import { xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base64UrlDecode, base64UrlEncode } from "../../encoding/base64url.ts";
import { isNodeError } from "../../errors/nodeError.ts";
import { entityKeyText, sealKeyOf, verifyEntitySignature } from "./entityIdentity.ts";
import { type EntityKeys, signAsEntity } from "./entityKeys.ts";
import { isEntityName } from "./entityName.ts";
import { badEnvelope, PrivateError, PrivateErrorCode } from "./errors.ts";

export const ENVELOPE_VERSION = 2;
/** Largest ciphertext accepted (a command is bounded by the API's body limit anyway). */
const MAX_CIPHERTEXT_BYTES = 4 * 1024 * 1024;
const INFO = new TextEncoder().encode("weft private envelope v2");
const X25519_SPKI = Buffer.from("302a300506032b656e032100", "hex");

export type Envelope = {
  readonly version: typeof ENVELOPE_VERSION;
  readonly network: string;
  readonly chainId: number;
  /** The sending entity (the signature is checked against its pinned key). */
  readonly from: string;
  /** The addressed entity this copy is for. */
  readonly to: string;
  /** 16 random bytes: what the recipient remembers to refuse a replay. */
  readonly id: string;
  /** The sender's clock when it sealed the envelope, µs since the UNIX epoch. */
  readonly sentAt: number;
  readonly ephemeralKey: string;
  readonly nonce: string;
  readonly ciphertext: string;
  readonly signature: string;
};

/** What the sender states in the clear, authenticated by the AEAD and the signature. */
export type EnvelopeHeader = Pick<
  Envelope,
  "network" | "chainId" | "from" | "to" | "id" | "sentAt"
>;

/** A fresh envelope id. */
export function newEnvelopeId(): string {
  return base64UrlEncode(randomBytes(16));
}

function headerArray(
  h: EnvelopeHeader,
  recipientKey: Uint8Array,
  ephemeralKey: string,
  nonce: string,
): unknown[] {
  return [
    "weft-private",
    ENVELOPE_VERSION,
    h.network,
    h.chainId,
    h.from,
    h.to,
    entityKeyText(recipientKey),
    h.id,
    h.sentAt,
    ephemeralKey,
    nonce,
  ];
}

const utf8 = (text: string) => new TextEncoder().encode(text);

function signedBytes(e: Envelope, recipientKey: Uint8Array): Uint8Array {
  return utf8(
    JSON.stringify([...headerArray(e, recipientKey, e.ephemeralKey, e.nonce), e.ciphertext]),
  );
}

function keyOf(shared: Uint8Array, ephemeralPub: Uint8Array, recipientPub: Uint8Array): Uint8Array {
  const salt = new Uint8Array(64);
  salt.set(ephemeralPub, 0);
  salt.set(recipientPub, 32);
  return hkdf(sha256, shared, salt, INFO, 32);
}

/**
 * Seals `plaintext` for the holder of `recipientKey` (the `to` entity's
 * pinned identity) and signs it as `sender` (the `from` entity).
 */
export function sealEnvelope(
  plaintext: Uint8Array,
  recipientKey: Uint8Array,
  header: EnvelopeHeader,
  sender: EntityKeys,
): Envelope {
  const recipient = sealKeyOf(recipientKey);
  const ephemeral = generateKeyPairSync("x25519");
  const ephemeralPub = new Uint8Array(
    ephemeral.publicKey.export({ format: "der", type: "spki" }).subarray(X25519_SPKI.length),
  );
  const shared = new Uint8Array(
    diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient.key }),
  );
  const key = keyOf(shared, ephemeralPub, recipient.raw);
  const nonce = new Uint8Array(randomBytes(24));
  const ephemeralKey = base64UrlEncode(ephemeralPub);
  const nonceText = base64UrlEncode(nonce);
  const ad = utf8(JSON.stringify(headerArray(header, recipientKey, ephemeralKey, nonceText)));
  const ciphertext = xchacha20poly1305(key, nonce, ad).encrypt(plaintext);
  shared.fill(0);
  key.fill(0);
  const unsigned: Envelope = {
    version: ENVELOPE_VERSION,
    network: header.network,
    chainId: header.chainId,
    from: header.from,
    to: header.to,
    id: header.id,
    sentAt: header.sentAt,
    ephemeralKey,
    nonce: nonceText,
    ciphertext: base64UrlEncode(ciphertext),
    signature: "",
  };
  const signature = signAsEntity(sender, signedBytes(unsigned, recipientKey));
  return { ...unsigned, signature: base64UrlEncode(signature) };
}

/**
 * Whether the envelope is signed by `senderKey` (the pinned key of its
 * `from`) for the recipient identity `recipientKey` (this node's).
 */
export function isSignedBy(
  envelope: Envelope,
  senderKey: Uint8Array,
  recipientKey: Uint8Array,
): boolean {
  return verifyEntitySignature(
    senderKey,
    signedBytes(envelope, recipientKey),
    base64UrlDecode(envelope.signature, "signature"),
  );
}

/**
 * Decrypts an envelope with this node's identity.
 * @throws {PrivateError} PRIVATE_UNDECRYPTABLE when it was not sealed for
 *   this key, or was altered (ciphertext, nonce or header).
 */
export function openEnvelope(envelope: Envelope, keys: EntityKeys): Uint8Array {
  const undecryptable = () =>
    new PrivateError(
      { code: PrivateErrorCode.Undecryptable },
      "the envelope does not decrypt with this node's key: it was sealed for another key, or altered",
    );
  const ephemeralPub = base64UrlDecode(envelope.ephemeralKey, "ephemeralKey");
  let shared: Uint8Array;
  try {
    // OpenSSL refuses a low-order ephemeral key (an all-zero shared secret).
    shared = new Uint8Array(
      diffieHellman({
        privateKey: keys.openingKey,
        publicKey: createPublicKey({
          key: Buffer.concat([X25519_SPKI, ephemeralPub]),
          format: "der",
          type: "spki",
        }),
      }),
    );
  } catch {
    throw undecryptable();
  }
  const key = keyOf(shared, ephemeralPub, sealKeyOf(keys.publicKey).raw);
  const ad = utf8(
    JSON.stringify(headerArray(envelope, keys.publicKey, envelope.ephemeralKey, envelope.nonce)),
  );
  try {
    return xchacha20poly1305(key, base64UrlDecode(envelope.nonce, "nonce"), ad).decrypt(
      base64UrlDecode(envelope.ciphertext, "ciphertext"),
    );
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

function nameField(o: Record<string, unknown>, field: string): string {
  const v = o[field];
  if (!isEntityName(v)) {
    throw badEnvelope(field, "expected an entity name");
  }
  return v;
}

/**
 * Reads an envelope as a peer sent it.
 * @throws {PrivateError} PRIVATE_BAD_ENVELOPE naming the member.
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
  if (typeof o.sentAt !== "number" || !Number.isSafeInteger(o.sentAt) || o.sentAt < 0) {
    throw badEnvelope("sentAt", "expected µs since the UNIX epoch (an integer)");
  }
  return {
    version: ENVELOPE_VERSION,
    network: o.network,
    chainId: o.chainId,
    from: nameField(o, "from"),
    to: nameField(o, "to"),
    id: bytesField(o, "id", 16),
    sentAt: o.sentAt,
    ephemeralKey: bytesField(o, "ephemeralKey", 32),
    nonce: bytesField(o, "nonce", 24),
    ciphertext: bytesField(o, "ciphertext"),
    signature: bytesField(o, "signature", 64),
  };
}
