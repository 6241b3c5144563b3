import { describe, expect, it } from "vitest";
import { publicKeyOf, signBytes, verifyBytes } from "../../src-node/crypto/ed25519.ts";
import { hexDecode } from "../../src-node/encoding/hex.ts";
import { loadVectors } from "../support/vectors.ts";

type Ed25519Case = {
  name: string;
  secretKeyHex?: string;
  publicKeyHex: string;
  messageHex: string;
  signatureHex: string;
  valid: boolean;
};

const { cases } = loadVectors<Ed25519Case>("ed25519.json");

describe("[crypto] ed25519 vectors (RFC 8032, real ledger signatures)", () => {
  it("has cases", () => expect(cases.length).toBeGreaterThan(5));
  for (const c of cases) {
    it(`${c.valid ? "accepts" : "rejects"}: ${c.name}`, () => {
      const msg = hexDecode(c.messageHex, "message");
      expect(verifyBytes(msg, c.signatureHex, c.publicKeyHex), c.name).toBe(c.valid);
      if (c.secretKeyHex !== undefined && c.valid) {
        expect(publicKeyOf(c.secretKeyHex)).toBe(c.publicKeyHex);
        expect(signBytes(msg, c.secretKeyHex)).toBe(c.signatureHex);
      }
    });
  }
  it("treats malformed keys and signatures as invalid, without throwing", () => {
    expect(verifyBytes(new Uint8Array(1), "zz", "00")).toBe(false);
    expect(verifyBytes(new Uint8Array(1), "00".repeat(64), "00".repeat(32))).toBe(false);
  });
});
