/**
 * parseCommand: what common clients send is accepted; every structural error
 * is a coded CommandError naming the field.
 */
import { describe, expect, it } from "vitest";
import { JsonNumber, parseJsonExact } from "../../src-node/command/exactJson.ts";
import { referenceRequestKeyOf } from "../../src-node/command/requestKeyCheck.ts";
import { pactValueFromJson } from "../../src-node/contract/values/json.ts";
import { generateKeyPair } from "../../src-node/crypto/ed25519.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";

const { parseCommand, requestKeyOf, signRequestKey, verifyCommandSignatures } = nodeCommands;

const key = generateKeyPair();
const other = generateKeyPair();

type Obj = Record<string, unknown>;

function payload(overrides: Obj = {}, metaOverrides: Obj = {}): Obj {
  return {
    payload: { exec: { code: "(+ 1 2)", data: {} } },
    meta: {
      chainId: "0",
      sender: "alice",
      gasLimit: 1000,
      gasPrice: 1e-8,
      ttl: 600,
      creationTime: 1700000000,
      ...metaOverrides,
    },
    signers: [{ pubKey: key.publicKey, clist: [{ name: "coin.GAS", args: [] }] }],
    networkId: "development",
    nonce: "n",
    ...overrides,
  };
}

/** A command whose cmd is JSON.stringify(p) (or raw text), correctly hashed and signed by `key`. */
function command(p: Obj | string, sigs?: unknown[]): Obj {
  const cmd = typeof p === "string" ? p : JSON.stringify(p);
  const hash = requestKeyOf(cmd);
  return { cmd, hash, sigs: sigs ?? [{ sig: signRequestKey(hash, key.secretKey).sig }] };
}

function expectError(value: unknown, code: string, field: string, prefix?: string): void {
  expect(() => parseCommand(value, prefix)).toThrow(expect.objectContaining({ code, field }));
}

describe("[exec] parseCommand accepts what clients send", () => {
  it("reads a signed exec command", () => {
    const parsed = parseCommand(command(payload()));
    expect(parsed.payload.payload).toEqual({ exec: { code: "(+ 1 2)", data: {} } });
    expect(parsed.payload.meta).toEqual({
      chainId: "0",
      sender: "alice",
      gasLimit: 1000,
      gasPrice: "0.00000001",
      ttl: 600,
      creationTime: 1700000000,
    });
    expect(parsed.payload.networkId).toBe("development");
    expect(() => verifyCommandSignatures(parsed)).not.toThrow();
  });

  it("reads integers and the gas price as numeric strings", () => {
    const parsed = parseCommand(
      command(
        payload(
          {},
          { gasLimit: "1500", gasPrice: "0.000001", ttl: "28800", creationTime: "1700000001" },
        ),
      ),
    );
    expect(parsed.payload.meta).toMatchObject({
      gasLimit: 1500,
      gasPrice: "0.000001",
      ttl: 28800,
      creationTime: 1700000001,
    });
  });

  it("keeps the exponent form 1.0e-8 exact as decimal text", () => {
    const text = JSON.stringify(payload()).replace('"gasPrice":1e-8', '"gasPrice":1.0e-8');
    expect(text).toContain("1.0e-8");
    expect(parseCommand(command(text)).payload.meta.gasPrice).toBe("0.00000001");
  });

  it("ignores an extra pubKey (and scheme, addr) in signature objects", () => {
    const c = command(payload());
    const sig = (c.sigs as { sig: string }[])[0]?.sig;
    const parsed = parseCommand({
      ...c,
      sigs: [{ sig, pubKey: key.publicKey, scheme: "ED25519", addr: key.publicKey }],
    });
    expect(parsed.sigs).toEqual([sig]);
  });

  it("reads networkId null or absent as null, and missing ttl/creationTime as 0", () => {
    const p = payload({ networkId: null });
    expect(parseCommand(command(p)).payload.networkId).toBeNull();
    const { networkId: _n, ...withoutNetwork } = payload();
    expect(parseCommand(command(withoutNetwork)).payload.networkId).toBeNull();
    const meta = { chainId: "0", sender: "", gasLimit: 10, gasPrice: 0.01 };
    expect(parseCommand(command(payload({ meta }))).payload.meta).toMatchObject({
      ttl: 0,
      creationTime: 0,
    });
  });

  it("reads unsigned slots ({sig: ''}, null) as empty signatures, which do not verify", () => {
    const parsed = parseCommand(command(payload(), [{ sig: "" }]));
    expect(parsed.sigs).toEqual([""]);
    expect(() => verifyCommandSignatures(parsed)).toThrow(
      expect.objectContaining({ code: "CMD_BAD_SIGNATURE", field: "sigs[0].sig" }),
    );
    expect(parseCommand(command(payload(), [null])).sigs).toEqual([""]);
  });

  it("reads data null or absent as null, and a signer without clist as no capabilities", () => {
    const p = payload({
      payload: { exec: { code: "1" } },
      signers: [{ pubKey: key.publicKey }],
    });
    const parsed = parseCommand(command(p));
    expect(parsed.payload.payload).toEqual({ exec: { code: "1", data: null } });
    expect(parsed.payload.signers).toEqual([{ pubKey: key.publicKey, clist: [] }]);
  });

  it("reads continuations under pactId or contractTxHash", () => {
    const cont = { step: 1, rollback: false, data: {}, proof: "eyJ" };
    for (const id of [
      { pactId: "p1" },
      { contractTxHash: "p1" },
      { pactId: "p1", contractTxHash: "p1" },
    ]) {
      const parsed = parseCommand(command(payload({ payload: { cont: { ...id, ...cont } } })));
      expect(parsed.payload.payload).toEqual({
        cont: { pactId: "p1", step: 1, rollback: false, data: {}, proof: "eyJ" },
      });
    }
    const parsed = parseCommand(
      command(payload({ payload: { cont: { pactId: "p", step: "2", rollback: true } } })),
    );
    expect(parsed.payload.payload).toEqual({
      cont: { pactId: "p", step: 2, rollback: true, data: null, proof: null },
    });
  });

  it("ignores unknown members inside cmd", () => {
    expect(() => parseCommand(command(payload({ extra: 1 })))).not.toThrow();
  });
});

describe("[exec] parseCommand refuses bad commands, naming the field", () => {
  it("outer shape", () => {
    expectError(null, "CMD_BAD_FIELD", "command");
    expectError([], "CMD_BAD_FIELD", "command");
    const c = command(payload());
    expectError({ ...c, cmd: undefined }, "CMD_MISSING_FIELD", "cmd");
    expectError({ ...c, cmd: 5 }, "CMD_BAD_FIELD", "cmd");
    expectError({ hash: c.hash, cmd: c.cmd }, "CMD_MISSING_FIELD", "sigs");
    expectError({ ...c, sigs: {} }, "CMD_BAD_FIELD", "sigs");
    expectError({ ...c, hash: undefined }, "CMD_MISSING_FIELD", "hash");
    expectError({ ...c, hash: "short" }, "CMD_BAD_FIELD", "hash");
  });

  it("a hash that is not the request key of cmd", () => {
    const c = command(payload());
    const wrong = requestKeyOf(`${c.cmd as string} `);
    expectError({ ...c, hash: wrong }, "CMD_HASH_MISMATCH", "hash");
  });

  it("a hash of cmd by the reference's Blake2b-256 is taken as its request key", () => {
    const cmd = JSON.stringify(payload());
    const hash = referenceRequestKeyOf(cmd);
    expect(hash).not.toBe(requestKeyOf(cmd));
    // Signed over the Blake2b bytes, as the ecosystem's clients sign.
    const parsed = parseCommand({
      cmd,
      hash,
      sigs: [{ sig: signRequestKey(hash, key.secretKey).sig }],
    });
    expect(parsed.hash).toBe(hash);
    expect(() => verifyCommandSignatures(parsed)).not.toThrow();
    // A signature over the Blake2s key does not sign the Blake2b one.
    const wrongSig = signRequestKey(requestKeyOf(cmd), key.secretKey).sig;
    expect(() =>
      verifyCommandSignatures(parseCommand({ cmd, hash, sigs: [{ sig: wrongSig }] })),
    ).toThrow(expect.objectContaining({ code: "CMD_BAD_SIGNATURE" }));
    // The refusal of a wrong hash names both request keys cmd could have.
    expect(() => parseCommand({ cmd, hash: "A".repeat(43), sigs: [] })).toThrow(
      `the Blake2s-256 request key of cmd is ${requestKeyOf(cmd)} (the Blake2b-256 one, as the reference's clients compute it: ${hash})`,
    );
  });

  it("cmd that is not JSON", () => {
    expectError(command("{not json"), "CMD_BAD_JSON", "cmd");
  });

  it("signature objects", () => {
    const c = command(payload());
    expectError({ ...c, sigs: ["ab"] }, "CMD_BAD_FIELD", "sigs[0]");
    expectError({ ...c, sigs: [{}] }, "CMD_MISSING_FIELD", "sigs[0].sig");
    expectError({ ...c, sigs: [{ sig: "abcd" }] }, "CMD_BAD_FIELD", "sigs[0].sig");
    expectError({ ...c, sigs: [{ sig: 7 }] }, "CMD_BAD_FIELD", "sigs[0].sig");
    expectError(
      { ...c, sigs: [{ sig: "00".repeat(64), scheme: "WebAuthn" }] },
      "CMD_UNSUPPORTED_SCHEME",
      "sigs[0].scheme",
    );
  });

  it.each([
    [{ payload: undefined }, "CMD_MISSING_FIELD", "cmd.payload"],
    [{ meta: undefined }, "CMD_MISSING_FIELD", "cmd.meta"],
    [{ signers: undefined }, "CMD_MISSING_FIELD", "cmd.signers"],
    [{ nonce: undefined }, "CMD_MISSING_FIELD", "cmd.nonce"],
    [{ nonce: 5 }, "CMD_BAD_FIELD", "cmd.nonce"],
    [{ networkId: 5 }, "CMD_BAD_FIELD", "cmd.networkId"],
    [{ payload: {} }, "CMD_MISSING_FIELD", "cmd.payload.exec"],
    [{ payload: { exec: { code: "1" }, cont: { pactId: "p" } } }, "CMD_BAD_FIELD", "cmd.payload"],
    [{ payload: { exec: { data: {} } } }, "CMD_MISSING_FIELD", "cmd.payload.exec.code"],
    [{ payload: { exec: { code: "1", data: [1] } } }, "CMD_BAD_FIELD", "cmd.payload.exec.data"],
    [
      { payload: { cont: { step: 1, rollback: false } } },
      "CMD_MISSING_FIELD",
      "cmd.payload.cont.pactId",
    ],
    [
      { payload: { cont: { pactId: "a", contractTxHash: "b", step: 1, rollback: false } } },
      "CMD_BAD_FIELD",
      "cmd.payload.cont.contractTxHash",
    ],
    [
      { payload: { cont: { pactId: "a", step: -1, rollback: false } } },
      "CMD_BAD_FIELD",
      "cmd.payload.cont.step",
    ],
    [
      { payload: { cont: { pactId: "a", step: 1, rollback: "no" } } },
      "CMD_BAD_FIELD",
      "cmd.payload.cont.rollback",
    ],
    [
      { payload: { cont: { pactId: "a", step: 1, rollback: false, proof: 3 } } },
      "CMD_BAD_FIELD",
      "cmd.payload.cont.proof",
    ],
    [{ signers: {} }, "CMD_BAD_FIELD", "cmd.signers"],
    [{ signers: [{}] }, "CMD_MISSING_FIELD", "cmd.signers[0].pubKey"],
    [{ signers: [{ pubKey: "xyz" }] }, "CMD_BAD_FIELD", "cmd.signers[0].pubKey"],
    [{ signers: [{ pubKey: "ab" }] }, "CMD_BAD_FIELD", "cmd.signers[0].pubKey"],
    [
      { signers: [{ pubKey: key.publicKey, scheme: "WebAuthn" }] },
      "CMD_UNSUPPORTED_SCHEME",
      "cmd.signers[0].scheme",
    ],
    [
      { signers: [{ pubKey: key.publicKey, clist: [{ name: "x" }] }] },
      "CMD_MISSING_FIELD",
      "cmd.signers[0].clist[0].args",
    ],
    [
      { signers: [{ pubKey: key.publicKey, clist: [{ name: 1, args: [] }] }] },
      "CMD_BAD_FIELD",
      "cmd.signers[0].clist[0].name",
    ],
  ])("payload %j → %s at %s", (overrides, code, field) => {
    expectError(command(payload(overrides as Obj)), code, field);
  });

  it.each([
    [{ chainId: 0 }, "CMD_BAD_FIELD", "cmd.meta.chainId"],
    [{ chainId: undefined }, "CMD_MISSING_FIELD", "cmd.meta.chainId"],
    [{ sender: undefined }, "CMD_MISSING_FIELD", "cmd.meta.sender"],
    [{ gasLimit: 1.5 }, "CMD_BAD_FIELD", "cmd.meta.gasLimit"],
    [{ gasLimit: "1e3" }, "CMD_BAD_FIELD", "cmd.meta.gasLimit"],
    [{ gasLimit: undefined }, "CMD_MISSING_FIELD", "cmd.meta.gasLimit"],
    [{ gasPrice: "cheap" }, "CMD_BAD_FIELD", "cmd.meta.gasPrice"],
    [{ gasPrice: undefined }, "CMD_MISSING_FIELD", "cmd.meta.gasPrice"],
    [{ ttl: true }, "CMD_BAD_FIELD", "cmd.meta.ttl"],
    [{ creationTime: 2 ** 60 }, "CMD_BAD_FIELD", "cmd.meta.creationTime"],
  ])("meta %j → %s at %s", (overrides, code, field) => {
    expectError(command(payload({}, overrides as Obj)), code, field);
  });

  it("prefixes fields for a command inside a batch", () => {
    expectError(
      command(payload({}, { gasLimit: "x" })),
      "CMD_BAD_FIELD",
      "cmds[2].cmd.meta.gasLimit",
      "cmds[2]",
    );
  });
});

describe("[exec] verifyCommandSignatures", () => {
  it("requires one signature per signer, in order", () => {
    const p = payload({ signers: [{ pubKey: key.publicKey }, { pubKey: other.publicKey }] });
    const cmd = JSON.stringify(p);
    const hash = requestKeyOf(cmd);
    const a = signRequestKey(hash, key.secretKey).sig;
    const b = signRequestKey(hash, other.secretKey).sig;
    expect(() =>
      verifyCommandSignatures(parseCommand({ cmd, hash, sigs: [{ sig: a }, { sig: b }] })),
    ).not.toThrow();
    expect(() =>
      verifyCommandSignatures(parseCommand({ cmd, hash, sigs: [{ sig: b }, { sig: a }] })),
    ).toThrow(expect.objectContaining({ code: "CMD_BAD_SIGNATURE", field: "sigs[0].sig" }));
    expect(() => verifyCommandSignatures(parseCommand({ cmd, hash, sigs: [{ sig: a }] }))).toThrow(
      expect.objectContaining({ code: "CMD_SIG_COUNT", field: "sigs" }),
    );
    expect(() =>
      verifyCommandSignatures(
        parseCommand({ cmd, hash, sigs: [{ sig: a }, { sig: a }] }),
        "cmds[0].",
      ),
    ).toThrow(expect.objectContaining({ code: "CMD_BAD_SIGNATURE", field: "cmds[0].sigs[1].sig" }));
  });
});

describe("[exec] cmd is parsed once, exactly", () => {
  const text = JSON.stringify(
    payload({ payload: { exec: { code: "(+ 1 2)", data: { a: 7, n: { int: 1 } } } } }, {}),
  )
    .replace('"a":7', '"a":1.0')
    .replace(
      '"clist":[{"name":"coin.GAS","args":[]}]',
      '"clist":[{"name":"coin.TRANSFER","args":["a","b",123456789012345678901.50]}]',
    );

  it("keeps every number's text in data and capability arguments", () => {
    const parsed = parseCommand(command(text));
    const exec = "exec" in parsed.payload.payload ? parsed.payload.payload.exec : null;
    expect(exec?.data).toEqual({ a: JsonNumber.of("1.0"), n: { int: JsonNumber.of("1") } });
    expect(parsed.payload.signers[0]?.clist[0]?.args).toEqual([
      "a",
      "b",
      JsonNumber.of("123456789012345678901.50"),
    ]);
  });

  it("gives the contract inputs from the parsed command, not from cmd read again", () => {
    const parsed = parseCommand(command(text));
    // A cmd of the same length with other numbers: re-reading it would show 2.0 and 9….
    const altered = {
      ...parsed,
      cmd: parsed.cmd
        .replace('"a":1.0', '"a":2.0')
        .replace("123456789012345678901.50", "923456789012345678901.50"),
    };
    expect(altered.cmd).not.toBe(parsed.cmd);
    const input = contractInputOf(altered);
    expect(input.sizeBytes).toBe(parsed.cmd.length);
    const exact = (json: string) => pactValueFromJson(parseJsonExact(json) ?? null);
    expect({ ok: true, value: input.data }).toEqual(exact('{"a":1.0,"n":{"int":1}}'));
    expect({ ok: true, value: input.signers[0]?.caps[0]?.args[2] }).toEqual(
      exact("123456789012345678901.50"),
    );
    expect(exact("123456789012345678901.50")).not.toEqual(exact("923456789012345678901.50"));
  });
});
