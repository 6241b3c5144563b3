/**
 * Building commands: cmd text (key order, exact numbers), request key,
 * signing, and the round trip through parseCommand.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cmdOf } from "../../src-node/command/buildCommand.ts";
import type { CommandPayload } from "../../src-node/command/commandTypes.ts";
import { decimalPlaces, decimalText } from "../../src-node/command/decimalText.ts";
import { JsonNumber, stringifyJson } from "../../src-node/command/exactJson.ts";
import { generateKeyPair, verifyBytes } from "../../src-node/crypto/ed25519.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";

const {
  buildCommand,
  parseCommand,
  requestKeyBytesOf,
  requestKeyOf,
  signCommand,
  verifyCommandSignatures,
} = nodeCommands;

const alice = generateKeyPair();
const bob = generateKeyPair();

const transfer: CommandPayload = {
  payload: {
    exec: {
      code: '(coin.transfer "alice" "bob" 1.0)',
      data: {
        amount: JsonNumber.of("1.0") ?? null,
        ks: { keys: [alice.publicKey], pred: "keys-all" },
      },
    },
  },
  meta: {
    chainId: "3",
    sender: "alice",
    gasLimit: 2500,
    gasPrice: "0.00000001",
    ttl: 28800,
    creationTime: 1700000000,
  },
  signers: [
    {
      pubKey: alice.publicKey,
      clist: [
        { name: "coin.GAS", args: [] },
        { name: "coin.TRANSFER", args: ["alice", "bob", JsonNumber.of("1.0") ?? 0] },
      ],
    },
    { pubKey: bob.publicKey, scheme: "ED25519", addr: bob.publicKey, clist: [] },
  ],
  networkId: "development",
  nonce: "n1",
};

describe("[exec] cmdOf", () => {
  it("writes the spec's key order and exact numbers", () => {
    const cmd = cmdOf(transfer);
    expect(Object.keys(JSON.parse(cmd))).toEqual([
      "payload",
      "meta",
      "signers",
      "networkId",
      "nonce",
    ]);
    expect(cmd).toContain(
      `"meta":{"chainId":"3","sender":"alice","gasLimit":2500,"gasPrice":0.00000001,"ttl":28800,"creationTime":1700000000}`,
    );
    expect(cmd).toContain(`"args":["alice","bob",1.0]`);
    expect(cmd).toContain(`"data":{"amount":1.0,`);
    expect(cmd).toContain(
      `{"pubKey":"${bob.publicKey}","scheme":"ED25519","addr":"${bob.publicKey}","clist":[]}`,
    );
  });

  it("writes a continuation as pactId, step, rollback, data, proof", () => {
    const cmd = cmdOf({
      ...transfer,
      payload: {
        cont: { pactId: "abc", step: 1, rollback: false, data: null, proof: null },
      },
    });
    expect(cmd).toContain(
      `"payload":{"cont":{"pactId":"abc","step":1,"rollback":false,"data":null,"proof":null}}`,
    );
  });

  it("is deterministic and hashes to requestKeyOf(cmd)", () => {
    const a = buildCommand(transfer);
    const b = buildCommand({ ...transfer });
    expect(a).toEqual(b);
    expect(a.hash).toBe(requestKeyOf(a.cmd));
  });
});

describe("[exec] stringifyJson", () => {
  it("equals JSON.stringify for plain JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        // JSON.stringify(-0) is "0"; both agree on everything JSON can carry.
        expect(stringifyJson(v as never)).toBe(JSON.stringify(v));
      }),
    );
  });
  it("writes JsonNumber text verbatim", () => {
    const big = JsonNumber.of("123456789012345678901234567890");
    expect(big).toBeDefined();
    expect(stringifyJson({ n: big ?? null, d: JsonNumber.of("1.50") ?? null })).toBe(
      '{"n":123456789012345678901234567890,"d":1.50}',
    );
    expect(JsonNumber.of("1.")).toBeUndefined();
    expect(JsonNumber.of("0x10")).toBeUndefined();
    expect(JsonNumber.of("+1")).toBeUndefined();
  });
  it("refuses non-finite numbers as an invariant, not a silent null", () => {
    expect(() => stringifyJson({ x: Number.NaN })).toThrow(
      expect.objectContaining({ code: "CMD_INVARIANT" }),
    );
  });
});

describe("[exec] decimalText", () => {
  it.each([
    [1e-8, "0.00000001"],
    ["1e-8", "0.00000001"],
    ["1.0e-8", "0.00000001"],
    [0.01, "0.01"],
    ["2.50", "2.5"],
    ["2.0", "2"],
    [100, "100"],
    ["1e3", "1000"],
    ["-0.0", "0"],
    ["007.10", "7.1"],
    [".5", "0.5"],
    [1e21, "1000000000000000000000"],
  ])("%s → %s", (input, expected) => expect(decimalText(input, "gasPrice")).toBe(expected));
  it.each([[""], ["1e"], ["abc"], [" 1"], [true], [null], [Number.NaN], ["1e99999"]])(
    "refuses %s naming the field",
    (input) =>
      expect(() => decimalText(input, "cmd.meta.gasPrice")).toThrow(
        expect.objectContaining({ code: "CMD_BAD_FIELD", field: "cmd.meta.gasPrice" }),
      ),
  );
  it("counts decimal places", () => {
    expect(decimalPlaces("0.00000001")).toBe(8);
    expect(decimalPlaces("12")).toBe(0);
  });
});

describe("[exec] signCommand and the round trip", () => {
  it("signs in signer order; every signature verifies; parseCommand accepts the result", () => {
    const unsigned = buildCommand(transfer);
    const signed = signCommand(unsigned, transfer.signers, [bob, alice]);
    expect(signed.sigs.map((s) => s.pubKey)).toEqual([alice.publicKey, bob.publicKey]);
    for (const [i, s] of signed.sigs.entries()) {
      expect(s.scheme).toBe("ED25519");
      expect(s.addr).toBe(transfer.signers[i]?.addr ?? transfer.signers[i]?.pubKey);
      expect(verifyBytes(requestKeyBytesOf(signed.cmd), s.sig, s.pubKey)).toBe(true);
    }
    const parsed = parseCommand(JSON.parse(JSON.stringify(signed)));
    expect(parsed.payload.meta.gasPrice).toBe("0.00000001");
    expect(parsed.payload.signers[1]).toEqual(transfer.signers[1]);
    expect(() => verifyCommandSignatures(parsed)).not.toThrow();
  });

  it("names the signer that has no key", () => {
    const unsigned = buildCommand(transfer);
    expect(() => signCommand(unsigned, transfer.signers, [alice])).toThrow(
      expect.objectContaining({ code: "CMD_BAD_FIELD", field: "signers[1].pubKey" }),
    );
  });
});
