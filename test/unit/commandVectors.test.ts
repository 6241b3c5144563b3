/**
 * The command model against the shared vectors: request keys are Blake2s-256
 * of cmd, signatures sign the 32 raw request-key bytes, and the vector
 * commands parse.
 */
import { describe, expect, it } from "vitest";
import { referenceRequestKeyOf } from "../../src-node/command/requestKeyCheck.ts";
import { hexEncode } from "../../src-node/encoding/hex.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { loadVectors } from "../support/vectors.ts";

const { parseCommand, requestKeyBytesOf, requestKeyOf, signRequestKey, verifySignatures } =
  nodeCommands;

type RequestKeyCase = { name: string; cmd: string; requestKey: string; requestKeyHex: string };
type Ed25519Case = {
  name: string;
  secretKeyHex?: string;
  publicKeyHex: string;
  messageHex: string;
  messageIs?: string;
  signatureHex: string;
  valid: boolean;
};

const keys = loadVectors<RequestKeyCase>("request-keys.json").cases;
const sigs = loadVectors<Ed25519Case>("ed25519.json").cases;

describe("[exec] request keys from the shared vectors", () => {
  it("has cases", () => expect(keys.length).toBeGreaterThan(5));
  for (const c of keys) {
    it(`requestKeyOf: ${c.name}`, () => {
      expect(requestKeyOf(c.cmd)).toBe(c.requestKey);
      expect(hexEncode(requestKeyBytesOf(c.cmd))).toBe(c.requestKeyHex);
    });
  }
});

describe("[exec] signatures over the raw request key (shared vectors)", () => {
  const blake2sCases = sigs.filter(
    (c) => c.secretKeyHex !== undefined && c.valid && c.messageIs?.startsWith("requestKeyHex"),
  );
  it("has a Blake2s request-key signing case", () =>
    expect(blake2sCases.length).toBeGreaterThan(0));
  for (const c of blake2sCases) {
    it(c.name, () => {
      const keyCase = keys.find((k) => k.requestKeyHex === c.messageHex);
      expect(keyCase, "the signed request key is one of request-keys.json").toBeDefined();
      if (keyCase === undefined || c.secretKeyHex === undefined) return;
      const signed = signRequestKey(keyCase.requestKey, c.secretKeyHex);
      expect(signed).toEqual({
        sig: c.signatureHex,
        scheme: "ED25519",
        pubKey: c.publicKeyHex,
        addr: c.publicKeyHex,
      });
      // The same signature verifies positionally against a signer with that key.
      const bytes = requestKeyBytesOf(keyCase.cmd);
      expect(() =>
        verifySignatures(bytes, [{ pubKey: c.publicKeyHex, clist: [] }], [c.signatureHex]),
      ).not.toThrow();
    });
  }
});

describe("[exec] parseCommand accepts the vector commands", () => {
  const commands = keys.filter((c) => c.cmd.startsWith('{"') && c.cmd.includes('"payload"'));
  it("has command-shaped cases", () => expect(commands.length).toBeGreaterThanOrEqual(5));
  for (const c of commands) {
    it(c.name, () => {
      const signerCount = (JSON.parse(c.cmd) as { signers: unknown[] }).signers.length;
      const parsed = parseCommand({
        cmd: c.cmd,
        hash: c.requestKey,
        sigs: Array.from({ length: signerCount }, () => ({ sig: "" })),
      });
      expect(parsed.hash).toBe(c.requestKey);
      expect(parsed.cmd).toBe(c.cmd);
      expect(hexEncode(parsed.hashBytes)).toBe(c.requestKeyHex);
      expect(parsed.payload.signers).toHaveLength(signerCount);
    });
  }
  it("also takes a vector command under its Blake2b hash (the reference's request key)", () => {
    const v = loadVectors<RequestKeyCase & { blake2b: string }>("request-keys.json").cases[0];
    if (v === undefined) throw new TypeError("no vector");
    const signerCount = (JSON.parse(v.cmd) as { signers: unknown[] }).signers.length;
    const sigs = Array.from({ length: signerCount }, () => ({ sig: "" }));
    const parsed = parseCommand({ cmd: v.cmd, hash: v.blake2b, sigs });
    // The request key is the hash given: signatures are checked against its bytes.
    expect(parsed.hash).toBe(v.blake2b);
    expect(referenceRequestKeyOf(v.cmd)).toBe(v.blake2b);
    expect(Buffer.from(parsed.hashBytes).toString("base64url")).toBe(v.blake2b);
    // Neither digest of another text.
    expect(() => parseCommand({ cmd: `${v.cmd} `, hash: v.blake2b, sigs })).toThrow(
      expect.objectContaining({ code: "CMD_HASH_MISMATCH", field: "hash" }),
    );
  });
});
