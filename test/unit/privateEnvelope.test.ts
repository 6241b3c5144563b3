/**
 * The envelope of a private command (src-node/p2p/private/sealedEnvelope.ts)
 * and the identity keys it is sealed to and signed with (entityIdentity.ts):
 * only the recipient's key opens it; the signature verifies under the
 * sender's key for the recipient's key only; any change to the header or
 * ciphertext is refused; each envelope has its own ephemeral key, nonce and
 * id; malformed envelopes are refused naming the member; public keys that
 * are not points, or of small order, are refused.
 */
import { ed25519, x25519 } from "@noble/curves/ed25519.js";
import { describe, expect, it } from "vitest";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import {
  isReceiptOf,
  readReceipt,
  signReceipt,
} from "../../src-node/p2p/private/deliveryReceipt.ts";
import {
  entityFingerprint,
  readEntityPublicKey,
  sealKeyOf,
} from "../../src-node/p2p/private/entityIdentity.ts";
import { newEntityKeys } from "../../src-node/p2p/private/entityKeys.ts";
import { EMPTY_DIGEST } from "../../src-node/p2p/private/partyChain.ts";
import {
  type Envelope,
  isSignedBy,
  newEnvelopeId,
  openEnvelope,
  parseEnvelope,
  sealEnvelope,
} from "../../src-node/p2p/private/sealedEnvelope.ts";

const alice = newEntityKeys();
const bob = newEntityKeys();
const carol = newEntityKeys();
const header = () => ({
  network: "test-singleton",
  chainId: 3,
  from: "alice",
  to: "bob",
  id: newEnvelopeId(),
  sentAt: 1_700_000_000_000_000,
});
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (s: string) => new TextEncoder().encode(s);

function flipFirst(b64: string): string {
  const c = b64[0] === "A" ? "B" : "A";
  return `${c}${b64.slice(1)}`;
}

describe("[private] identity keys", () => {
  it("seal to the X25519 form of the ed25519 key the entity signs with", () => {
    const x = x25519.getPublicKey(ed25519.utils.toMontgomerySecret(bob.secretKey));
    expect(base64UrlEncode(sealKeyOf(bob.publicKey).raw)).toBe(base64UrlEncode(x));
  });

  it("reads a public key as its node shows it, and refuses what is not one", () => {
    const shown = base64UrlEncode(bob.publicKey);
    const read = readEntityPublicKey(shown);
    expect(read.ok && base64UrlEncode(read.value)).toBe(shown);
    const smallOrder = base64UrlEncode(ed25519.Point.ZERO.toBytes());
    for (const bad of [
      undefined,
      42,
      "",
      `${shown}=`,
      shown.slice(1),
      "+".repeat(43),
      smallOrder,
    ]) {
      expect(readEntityPublicKey(bad).ok, String(bad)).toBe(false);
    }
    expect(entityFingerprint(bob.publicKey)).toMatch(/^([0-9a-f]{4} ){7}[0-9a-f]{4}$/);
    expect(entityFingerprint(bob.publicKey)).not.toBe(entityFingerprint(carol.publicKey));
  });
});

describe("[private] envelope", () => {
  it("opens with the recipient's key only, signed by the sender for that recipient", () => {
    const env = sealEnvelope(bytes("the plain command"), bob.publicKey, header(), alice);
    expect(text(openEnvelope(env, bob))).toBe("the plain command");
    expect(env.ciphertext).not.toContain("plain");
    expect(() => openEnvelope(env, carol)).toThrow(
      expect.objectContaining({ code: "PRIVATE_UNDECRYPTABLE" }),
    );
    expect(isSignedBy(env, alice.publicKey, bob.publicKey)).toBe(true);
    // Another signer, or the same envelope presented to another key, does not verify.
    expect(isSignedBy(env, carol.publicKey, bob.publicKey)).toBe(false);
    expect(isSignedBy(env, alice.publicKey, carol.publicKey)).toBe(false);
  });

  it("refuses an envelope whose header, nonce or ciphertext was changed", () => {
    const env = sealEnvelope(bytes("x".repeat(40)), bob.publicKey, header(), alice);
    const altered: Envelope[] = [
      { ...env, to: "carol" },
      { ...env, from: "carol" },
      { ...env, chainId: 4 },
      { ...env, network: "development" },
      { ...env, id: newEnvelopeId() },
      { ...env, sentAt: env.sentAt + 1 },
      { ...env, nonce: flipFirst(env.nonce) },
      { ...env, ciphertext: flipFirst(env.ciphertext) },
      { ...env, ephemeralKey: flipFirst(env.ephemeralKey) },
    ];
    for (const a of altered) {
      expect(isSignedBy(a, alice.publicKey, bob.publicKey)).toBe(false);
      expect(() => openEnvelope(a, bob)).toThrow(
        expect.objectContaining({ code: "PRIVATE_UNDECRYPTABLE" }),
      );
    }
    const resigned = {
      ...env,
      signature: sealEnvelope(bytes("y"), bob.publicKey, header(), alice).signature,
    };
    expect(isSignedBy(resigned, alice.publicKey, bob.publicKey)).toBe(false);
  });

  it("refuses a low-order ephemeral key as undecryptable", () => {
    const env = sealEnvelope(bytes("x".repeat(40)), bob.publicKey, header(), alice);
    const zero = { ...env, ephemeralKey: base64UrlEncode(new Uint8Array(32)) };
    expect(() => openEnvelope(zero, bob)).toThrow(
      expect.objectContaining({ code: "PRIVATE_UNDECRYPTABLE" }),
    );
  });

  it("uses a fresh ephemeral key, nonce and id for every envelope", () => {
    const a = sealEnvelope(bytes("same"), bob.publicKey, header(), alice);
    const b = sealEnvelope(bytes("same"), bob.publicKey, header(), alice);
    expect(a.ephemeralKey).not.toBe(b.ephemeralKey);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.id).not.toBe(b.id);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it("parses a sent envelope and names what is wrong in a malformed one", () => {
    const env = sealEnvelope(bytes("payload bytes"), bob.publicKey, header(), alice);
    expect(parseEnvelope(JSON.parse(JSON.stringify(env)))).toEqual(env);
    const cases: [unknown, string][] = [
      [null, "envelope"],
      [[], "envelope"],
      [{ ...env, version: 1 }, "version"],
      [{ ...env, network: 1 }, "network"],
      [{ ...env, chainId: -1 }, "chainId"],
      [{ ...env, chainId: "0" }, "chainId"],
      [{ ...env, sentAt: 1.5 }, "sentAt"],
      [{ ...env, from: "" }, "from"],
      [{ ...env, from: "a b" }, "from"],
      [{ ...env, to: "" }, "to"],
      [{ ...env, id: "short" }, "id"],
      [{ ...env, ephemeralKey: "short" }, "ephemeralKey"],
      [{ ...env, nonce: "+++" }, "nonce"],
      [{ ...env, ciphertext: undefined }, "ciphertext"],
      [{ ...env, ciphertext: "AAAA" }, "ciphertext"],
      [{ ...env, signature: undefined }, "signature"],
      [{ ...env, signature: env.ephemeralKey }, "signature"],
    ];
    for (const [value, field] of cases) {
      expect(() => parseEnvelope(value), field).toThrow(
        expect.objectContaining({
          code: "PRIVATE_BAD_ENVELOPE",
          type: expect.objectContaining({ field }),
        }),
      );
    }
  });
});

describe("[private] receipt", () => {
  it("verifies under the recipient's key only, for that envelope and request key", () => {
    const env = sealEnvelope(bytes("payload bytes"), bob.publicKey, header(), alice);
    const key = "A".repeat(43);
    const parties = { steps: 1, digest: EMPTY_DIGEST };
    const receipt = signReceipt(bob, env, key, parties);
    const wire = readReceipt(JSON.parse(JSON.stringify(receipt)));
    expect(wire).toEqual(receipt);
    expect(isReceiptOf(receipt, env, bob.publicKey)).toBe(true);
    expect(isReceiptOf(receipt, env, carol.publicKey)).toBe(false);
    expect(isReceiptOf(signReceipt(carol, env, key, parties), env, bob.publicKey)).toBe(false);
    expect(isReceiptOf({ ...receipt, parties: { ...parties, steps: 2 } }, env, bob.publicKey)).toBe(
      false,
    );
    expect(isReceiptOf(receipt, { ...env, id: newEnvelopeId() }, bob.publicKey)).toBe(false);
    expect(readReceipt({ requestKey: key })).toMatch(/parties/);
    expect(readReceipt("ok")).toMatch(/not a receipt/);
  });
});
