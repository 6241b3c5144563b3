/**
 * The envelope of a private command (src-node/p2p/private/sealedEnvelope.ts):
 * only the recipient's key opens it; another key, or any change to the
 * header or ciphertext, is refused; each envelope has its own ephemeral key
 * and nonce; malformed envelopes are refused naming the member.
 */
import { describe, expect, it } from "vitest";
import { newEntityKeys } from "../../src-node/p2p/private/entityKeys.ts";
import {
  type Envelope,
  openEnvelope,
  parseEnvelope,
  sealEnvelope,
} from "../../src-node/p2p/private/sealedEnvelope.ts";

const header = { network: "test-singleton", chainId: 3, to: "bob" };
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (s: string) => new TextEncoder().encode(s);

function flipFirst(b64: string): string {
  const c = b64[0] === "A" ? "B" : "A";
  return `${c}${b64.slice(1)}`;
}

describe("[private] envelope", () => {
  it("opens with the recipient's key only", () => {
    const bob = newEntityKeys();
    const carol = newEntityKeys();
    const env = sealEnvelope(bytes("the plain command"), bob.publicKey, header);
    expect(text(openEnvelope(env, bob.secretKey, bob.publicKey))).toBe("the plain command");
    expect(env.ciphertext).not.toContain("plain");
    expect(() => openEnvelope(env, carol.secretKey, carol.publicKey)).toThrow(
      expect.objectContaining({ code: "PRIVATE_UNDECRYPTABLE" }),
    );
  });

  it("refuses an envelope whose header, nonce or ciphertext was changed", () => {
    const bob = newEntityKeys();
    const env = sealEnvelope(bytes("x".repeat(40)), bob.publicKey, header);
    const altered: Envelope[] = [
      { ...env, to: "carol" },
      { ...env, chainId: 4 },
      { ...env, network: "development" },
      { ...env, nonce: flipFirst(env.nonce) },
      { ...env, ciphertext: flipFirst(env.ciphertext) },
      { ...env, ephemeralKey: flipFirst(env.ephemeralKey) },
    ];
    for (const a of altered) {
      expect(() => openEnvelope(a, bob.secretKey, bob.publicKey)).toThrow(
        expect.objectContaining({ code: "PRIVATE_UNDECRYPTABLE" }),
      );
    }
  });

  it("uses a fresh ephemeral key and nonce for every envelope", () => {
    const bob = newEntityKeys();
    const a = sealEnvelope(bytes("same"), bob.publicKey, header);
    const b = sealEnvelope(bytes("same"), bob.publicKey, header);
    expect(a.ephemeralKey).not.toBe(b.ephemeralKey);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it("parses a sent envelope and names what is wrong in a malformed one", () => {
    const bob = newEntityKeys();
    const env = sealEnvelope(bytes("payload bytes"), bob.publicKey, header);
    expect(parseEnvelope(JSON.parse(JSON.stringify(env)))).toEqual(env);
    const cases: [unknown, string][] = [
      [null, "envelope"],
      [[], "envelope"],
      [{ ...env, version: 2 }, "version"],
      [{ ...env, network: 1 }, "network"],
      [{ ...env, chainId: -1 }, "chainId"],
      [{ ...env, chainId: "0" }, "chainId"],
      [{ ...env, to: "" }, "to"],
      [{ ...env, ephemeralKey: "short" }, "ephemeralKey"],
      [{ ...env, nonce: "+++" }, "nonce"],
      [{ ...env, ciphertext: undefined }, "ciphertext"],
      [{ ...env, ciphertext: "AAAA" }, "ciphertext"],
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
