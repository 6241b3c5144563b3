/**
 * The command model's two crypto back ends agree: @noble (the default, what
 * the browser runs) and node:crypto (what the node injects). The shared
 * vectors give the same request keys, public keys, signatures and verdicts
 * through both, and so do generated texts and edge-case signatures.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CommandCrypto, nobleCommandCrypto } from "../../src-node/command/commandCrypto.ts";
import { commandModel, createCommandModel } from "../../src-node/command/commandModel.ts";
import type { CommandPayload } from "../../src-node/command/commandTypes.ts";
import { JsonNumber } from "../../src-node/command/exactJson.ts";
import { hexEncode } from "../../src-node/encoding/hex.ts";
import { nodeCommandCrypto, nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { loadVectors } from "../support/vectors.ts";

type RequestKeyCase = { name: string; cmd: string; requestKey: string; requestKeyHex: string };
type Ed25519Case = {
  name: string;
  secretKeyHex?: string;
  publicKeyHex: string;
  messageHex: string;
  signatureHex: string;
  valid: boolean;
};

const keys = loadVectors<RequestKeyCase>("request-keys.json").cases;
const sigs = loadVectors<Ed25519Case>("ed25519.json").cases;
const backEnds: readonly [string, CommandCrypto][] = [
  ["@noble", nobleCommandCrypto],
  ["node:crypto", nodeCommandCrypto],
];

function bytesOfHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, "hex"));
}

/** The group order L of ed25519, little-endian arithmetic on S. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

/** `sig` with S replaced by S + L: the same point equation, a non-canonical encoding. */
function withUnreducedS(sigHex: string): string {
  const s = Buffer.from(sigHex.slice(64), "hex").reverse();
  const bigger = BigInt(`0x${s.toString("hex")}`) + L;
  const le = Buffer.from(bigger.toString(16).padStart(64, "0"), "hex").reverse();
  return sigHex.slice(0, 64) + le.toString("hex");
}

describe("[command] both crypto back ends on the shared vectors", () => {
  it("has cases", () => {
    expect(keys.length).toBeGreaterThan(5);
    expect(sigs.filter((c) => c.secretKeyHex !== undefined).length).toBeGreaterThan(2);
  });

  for (const c of keys) {
    it(`request key: ${c.name}`, () => {
      for (const [, crypto] of backEnds) expect(crypto.requestKeyOf(c.cmd)).toBe(c.requestKey);
      expect(hexEncode(commandModel.requestKeyBytesOf(c.cmd))).toBe(c.requestKeyHex);
      expect(hexEncode(nodeCommands.requestKeyBytesOf(c.cmd))).toBe(c.requestKeyHex);
    });
  }

  for (const c of sigs) {
    it(`ed25519: ${c.name}`, () => {
      const message = bytesOfHex(c.messageHex);
      for (const [name, crypto] of backEnds) {
        expect(crypto.verify(message, c.signatureHex, c.publicKeyHex), name).toBe(c.valid);
        if (c.secretKeyHex !== undefined && c.valid) {
          expect(crypto.publicKeyOf(c.secretKeyHex), name).toBe(c.publicKeyHex);
          expect(crypto.sign(message, c.secretKeyHex), name).toBe(c.signatureHex);
        }
      }
    });
  }
});

describe("[command] both back ends refuse the same edge cases", () => {
  const good = sigs.find((c) => c.valid && c.secretKeyHex !== undefined);
  if (good === undefined) throw new TypeError("no valid signing vector");
  const message = bytesOfHex(good.messageHex);
  const cases: [string, string, string][] = [
    ["S + L (not reduced)", withUnreducedS(good.signatureHex), good.publicKeyHex],
    ["identity public key (small order)", good.signatureHex, `01${"00".repeat(31)}`],
    ["all-zero signature", "00".repeat(64), good.publicKeyHex],
    ["short signature", good.signatureHex.slice(2), good.publicKeyHex],
    ["non-hex key", good.signatureHex, "zz".repeat(32)],
    ["key not on the curve", good.signatureHex, `02${"00".repeat(31)}`],
  ];
  for (const [name, sig, pub] of cases) {
    it(name, () => {
      for (const [backEnd, crypto] of backEnds) {
        expect(crypto.verify(message, sig, pub), backEnd).toBe(false);
      }
    });
  }

  it("a bad secret key is CMD_BAD_FIELD secretKey in both models", () => {
    for (const model of [commandModel, nodeCommands]) {
      expect(() => model.publicKeyOf("abc")).toThrow(
        expect.objectContaining({ code: "CMD_BAD_FIELD", field: "secretKey" }),
      );
      expect(() => model.signRequestKey(keys[0]?.requestKey ?? "", "00")).toThrow(
        expect.objectContaining({ code: "CMD_BAD_FIELD", field: "secretKey" }),
      );
      expect(() => model.signRequestKey("not-a-key", good.secretKeyHex ?? "")).toThrow(
        expect.objectContaining({ code: "CMD_BAD_FIELD", field: "hash" }),
      );
    }
  });
});

describe("[command] generated inputs agree", () => {
  it("request keys of any text, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 100 }), (text) => {
        expect(nobleCommandCrypto.requestKeyOf(text)).toBe(nodeCommandCrypto.requestKeyOf(text));
      }),
      { numRuns: 100 },
    );
  });

  it("signatures of any 32 bytes, and their verdicts", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (seed, message) => {
          const secret = hexEncode(seed);
          const sig = nobleCommandCrypto.sign(message, secret);
          expect(nodeCommandCrypto.sign(message, secret)).toBe(sig);
          const pub = nobleCommandCrypto.publicKeyOf(secret);
          expect(nodeCommandCrypto.publicKeyOf(secret)).toBe(pub);
          for (const [, crypto] of backEnds) expect(crypto.verify(message, sig, pub)).toBe(true);
          const flipped = new Uint8Array(message);
          flipped[0] = (flipped[0] ?? 0) ^ 1;
          for (const [, crypto] of backEnds) expect(crypto.verify(flipped, sig, pub)).toBe(false);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("[command] the whole model over either back end", () => {
  const secret = sigs.find((c) => c.secretKeyHex !== undefined)?.secretKeyHex ?? "";
  const pubKey = nobleCommandCrypto.publicKeyOf(secret);
  const payload: CommandPayload = {
    payload: {
      exec: { code: '(coin.transfer "a" "b" 1.0)', data: { amount: JsonNumber.of("1.0") ?? 0 } },
    },
    meta: {
      chainId: "0",
      sender: "a",
      gasLimit: 600,
      gasPrice: "0.00000001",
      ttl: 600,
      creationTime: 1_700_000_000,
    },
    signers: [
      { pubKey, clist: [{ name: "coin.TRANSFER", args: ["a", "b", JsonNumber.of("1.0") ?? 0] }] },
    ],
    networkId: "development",
    nonce: "n",
  };

  it("builds, signs, parses and verifies to the same result", () => {
    const results = [commandModel, nodeCommands, createCommandModel(nodeCommandCrypto)].map(
      (model) => {
        const unsigned = model.buildCommand(payload);
        const signed = model.signCommand(unsigned, payload.signers, [
          { publicKey: pubKey, secretKey: secret },
        ]);
        const parsed = model.parseCommand(JSON.parse(JSON.stringify(signed)));
        model.verifyCommandSignatures(parsed);
        return { signed, parsed };
      },
    );
    const [first, ...rest] = results;
    for (const r of rest) expect(r).toEqual(first);
    // Data and capability arguments are parsed exactly, once.
    const exec = first?.parsed.payload.payload;
    expect(exec !== undefined && "exec" in exec ? exec.exec.data : null).toEqual({
      amount: JsonNumber.of("1.0"),
    });
  });

  it("a signature made by one back end is checked by the other, and a wrong one refused by both", () => {
    const unsigned = commandModel.buildCommand(payload);
    const signed = commandModel.signCommand(unsigned, payload.signers, [
      { publicKey: pubKey, secretKey: secret },
    ]);
    const forged = { ...signed, sigs: [{ sig: withUnreducedS(signed.sigs[0]?.sig ?? "") }] };
    for (const model of [createCommandModel(), createCommandModel(nodeCommandCrypto)]) {
      expect(() =>
        model.verifyCommandSignatures(model.parseCommand(JSON.parse(JSON.stringify(signed)))),
      ).not.toThrow();
      expect(() => model.verifyCommandSignatures(model.parseCommand(forged))).toThrow(
        expect.objectContaining({ code: "CMD_BAD_SIGNATURE", field: "sigs[0].sig" }),
      );
    }
  });
});
