/**
 * "Sign a transaction" parsing (renderer/src/features/wallet/sign/signRequest.ts): every
 * accepted form (the `weft -u` YAML as the CLI prints it, the same as JSON, a command with
 * missing signatures, Kadena's SigData with and without hash) is read, signed and written back
 * in its own form, and what comes back is read again by the CLI / the node's command parser;
 * a hash that does not match cmd, bad JSON or YAML, the condensed form, a final /send body,
 * unknown fields, foreign keys and bad signatures are refused with the reason.
 */
import { describe, expect, it } from "vitest";
import {
  commandOf,
  heldSigners,
  isComplete,
  parseSignRequest,
  type SignRequest,
  serializeSignRequest,
  signWithHeld,
  unsignedSigData,
  withSignature,
} from "../../renderer/src/features/wallet/sign/signRequest.ts";
import { prettyJson } from "../../renderer/src/format/prettyJson.ts";
import { detachedYaml, readDetachedTx, unsignedTx } from "../../src-node/cli/detachedTx.ts";
import { finalCommand } from "../../src-node/cli/emitTx.ts";
import { parseYamlText } from "../../src-node/cli/yamlValue.ts";
import type { CommandPayload } from "../../src-node/command/commandTypes.ts";
import { parseJsonExact } from "../../src-node/command/exactJson.ts";
import { referenceRequestKeyOf } from "../../src-node/command/requestKeyCheck.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";

const A = DEV_ACCOUNT_KEYS[0];
const B = DEV_ACCOUNT_KEYS[1];
if (A === undefined || B === undefined) throw new Error("no test keys");

const payload: CommandPayload = {
  payload: {
    exec: { code: `(coin.transfer "k:${A.publicKey}" "bob" 1.5)`, data: null },
  },
  meta: {
    chainId: "3",
    sender: `k:${A.publicKey}`,
    gasLimit: 2500,
    gasPrice: "0.00000001",
    ttl: 28800,
    creationTime: 1_700_000_000,
  },
  signers: [
    {
      pubKey: A.publicKey,
      clist: [
        { name: "coin.GAS", args: [] },
        { name: "coin.TRANSFER", args: [`k:${A.publicKey}`, "bob"] },
      ],
    },
    { pubKey: B.publicKey, clist: [] },
  ],
  networkId: "development",
  nonce: "sign-test",
};
const unsigned = nodeCommands.buildCommand(payload);
const cliYaml = detachedYaml(unsignedTx(unsigned, payload.signers), false);
const sigOf = (secret: string) => nodeCommands.signRequestKey(unsigned.hash, secret).sig;

function accepted(text: string): SignRequest {
  const r = parseSignRequest(text);
  if (!r.ok) throw new Error(`refused: ${r.error}`);
  return r.value;
}
function refusal(text: string): string {
  const r = parseSignRequest(text);
  if (r.ok) throw new Error("accepted");
  return r.error;
}
const signBoth = (r: SignRequest) =>
  withSignature(withSignature(r, A.publicKey, sigOf(A.secretKey)), B.publicKey, sigOf(B.secretKey));

describe("[renderer] sign a transaction: accepted forms", () => {
  it("reads weft -u YAML as the CLI prints it, writes it back byte for byte, and the CLI reads the signed copy", () => {
    const r = accepted(cliYaml);
    expect(r.form).toBe("weft-yaml");
    expect(r.hash).toBe(unsigned.hash);
    expect(r.sigs).toEqual([null, null]);
    expect(r.payload.meta.chainId).toBe("3");
    expect(r.payload.signers[0]?.clist.map((c) => c.name)).toEqual(["coin.GAS", "coin.TRANSFER"]);
    expect(serializeSignRequest(r)).toBe(cliYaml);

    const half = withSignature(r, A.publicKey, sigOf(A.secretKey));
    expect(isComplete(half)).toBe(false);
    const text = serializeSignRequest(half);
    const tx = readDetachedTx(parseYamlText(text, "tx.yaml"), "tx.yaml");
    expect(tx.sigs).toEqual([
      { pubKey: A.publicKey, sig: sigOf(A.secretKey) },
      { pubKey: B.publicKey, sig: null },
    ]);
    expect(accepted(text)).toEqual(half);

    const full = signBoth(r);
    const cliFinal = finalCommand(
      readDetachedTx(parseYamlText(serializeSignRequest(full), "t"), "t"),
    );
    const ours = commandOf(full);
    expect(ours.sigs.map((s) => s.sig)).toEqual(cliFinal.sigs.map((s) => s.sig));
    nodeCommands.verifyCommandSignatures(nodeCommands.parseCommand(ours));
  });

  it("reads the same form as JSON and writes JSON back", () => {
    const doc = {
      hash: unsigned.hash,
      sigs: { [A.publicKey]: null, [B.publicKey]: null },
      cmd: unsigned.cmd,
    };
    const r = accepted(JSON.stringify(doc));
    expect(r.form).toBe("weft-json");
    const signed = withSignature(r, B.publicKey, sigOf(B.secretKey));
    const out = JSON.parse(serializeSignRequest(signed));
    expect(out).toEqual({
      ...doc,
      sigs: { [A.publicKey]: null, [B.publicKey]: sigOf(B.secretKey) },
    });
    expect(accepted(serializeSignRequest(signed))).toEqual(signed);
  });

  it("reads a command with missing signatures (null, empty sig) and sends it once complete", () => {
    const text = JSON.stringify({
      cmd: unsigned.cmd,
      hash: unsigned.hash,
      sigs: [null, { sig: "" }],
    });
    const r = accepted(text);
    expect(r.form).toBe("command");
    expect(r.sigs).toEqual([null, null]);
    const full = signBoth(r);
    expect(isComplete(full)).toBe(true);
    const out = JSON.parse(serializeSignRequest(full));
    expect(out).toEqual({
      cmd: unsigned.cmd,
      hash: unsigned.hash,
      sigs: [{ sig: sigOf(A.secretKey) }, { sig: sigOf(B.secretKey) }],
    });
    const parsed = nodeCommands.parseCommand(out);
    nodeCommands.verifyCommandSignatures(parsed);
    expect(accepted(serializeSignRequest(full))).toEqual(full);
  });

  it("reads Kadena's SigData without a hash (computes it) and with one, keeping the shape", () => {
    const sigs = [
      { pubKey: A.publicKey, sig: null },
      { pubKey: B.publicKey, sig: null },
    ];
    const bare = accepted(JSON.stringify({ cmd: unsigned.cmd, sigs }));
    expect(bare.form).toBe("sigdata");
    expect(bare.hash).toBe(unsigned.hash);
    const out = JSON.parse(
      serializeSignRequest(withSignature(bare, A.publicKey, sigOf(A.secretKey))),
    );
    expect(out).toEqual({
      cmd: unsigned.cmd,
      sigs: [
        { pubKey: A.publicKey, sig: sigOf(A.secretKey) },
        { pubKey: B.publicKey, sig: null },
      ],
    });
    const withHash = accepted(JSON.stringify({ hash: unsigned.hash, sigs, cmd: unsigned.cmd }));
    expect(withHash.form).toBe("sigdata");
    expect(JSON.parse(serializeSignRequest(withHash)).hash).toBe(unsigned.hash);
    expect(accepted(serializeSignRequest(withHash))).toEqual(withHash);
  });
});

describe("[renderer] sign a transaction: the reference's request key", () => {
  it("keeps a Blake2b request key from the ecosystem's tools and checks signatures over it", () => {
    const refHash = referenceRequestKeyOf(unsigned.cmd);
    const refSig = nodeCommands.signRequestKey(refHash, A.secretKey).sig;
    const r = accepted(
      JSON.stringify({
        cmd: unsigned.cmd,
        hash: refHash,
        sigs: [
          { pubKey: A.publicKey, sig: refSig },
          { pubKey: B.publicKey, sig: null },
        ],
      }),
    );
    expect(r.hash).toBe(refHash);
    expect(r.sigs[0]).toBe(refSig);
    // A signature of Weft's key is not one of this hash.
    expect(
      refusal(
        JSON.stringify({
          cmd: unsigned.cmd,
          hash: refHash,
          sigs: [{ pubKey: A.publicKey, sig: sigOf(A.secretKey) }],
        }),
      ),
    ).toMatch(/does not verify/);
  });
});

describe("[renderer] prepare for others to sign", () => {
  it("writes unsigned SigData naming every signer, which Sign a transaction reads back", () => {
    const text = serializeSignRequest(unsignedSigData(unsigned.cmd, unsigned.hash, payload));
    expect(JSON.parse(text)).toEqual({
      cmd: unsigned.cmd,
      hash: unsigned.hash,
      sigs: [
        { pubKey: A.publicKey, sig: null },
        { pubKey: B.publicKey, sig: null },
      ],
    });
    const r = accepted(text);
    expect(r.form).toBe("sigdata");
    expect(r.sigs).toEqual([null, null]);
    nodeCommands.verifyCommandSignatures(nodeCommands.parseCommand(commandOf(signBoth(r))));
  });
});

describe("[renderer] the review's data", () => {
  it("is indented JSON whose numbers keep the text they were written with", () => {
    const big = "123456789012345678901234567890";
    const data = parseJsonExact(
      `{"amount":1.0,"big":${big},"list":[2.50,{"k":"a\\"b"}],"none":{},"e":[]}`,
    );
    if (data === null) throw new Error("not JSON");
    const text = prettyJson(data);
    expect(text).toBe(
      `{\n  "amount": 1.0,\n  "big": ${big},\n  "list": [\n    2.50,\n    {\n      "k": "a\\"b"\n    }\n  ],\n  "none": {},\n  "e": []\n}`,
    );
    // Still JSON, read back to the same exact values.
    expect(parseJsonExact(text)).toEqual(data);
  });
});

describe("[renderer] sign with the keys held here", () => {
  it("signs with every held key whose signature is missing, and only those", async () => {
    const r = accepted(serializeSignRequest(unsignedSigData(unsigned.cmd, unsigned.hash, payload)));
    const keys = [
      { keyId: "b", publicKey: B.publicKey, secret: B.secretKey },
      { keyId: "other", publicKey: "77".repeat(32), secret: "" },
    ];
    expect(heldSigners(r, keys).map((k) => k.keyId)).toEqual(["b"]);
    const asked: string[] = [];
    const sign = async (keyId: string, hash: string) => {
      asked.push(keyId);
      const k = keys.find((x) => x.keyId === keyId);
      return nodeCommands.signRequestKey(hash, k?.secret ?? "").sig;
    };
    const once = await signWithHeld(r, heldSigners(r, keys), sign);
    expect(once.sigs).toEqual([null, sigOf(B.secretKey)]);
    // Signed already: nothing left to sign with these keys.
    expect(heldSigners(once, keys)).toEqual([]);
    expect(await signWithHeld(once, [], sign)).toEqual(once);
    expect(asked).toEqual(["b"]);
  });
});

describe("[renderer] sign a transaction: refused with the reason", () => {
  it("refuses a hash that does not match cmd, naming the right request key", () => {
    const other = nodeCommands.buildCommand({ ...payload, nonce: "other" });
    const p = refusal(cliYaml.replace(unsigned.hash, other.hash));
    expect(p).toMatch(/hash does not match cmd/);
    expect(p).toContain(unsigned.hash);
  });

  it("refuses bad JSON, bad YAML and empty input", () => {
    expect(refusal(`{"cmd": "x", `)).toMatch(/^Not valid JSON/);
    expect(refusal("hash: [unclosed")).toMatch(/^Not valid YAML or JSON/);
    expect(refusal("   ")).toMatch(/Paste a transaction/);
  });

  it("refuses unknown forms: not an object, the condensed form, a final /send body, unknown fields", () => {
    expect(refusal("[1, 2]")).toMatch(/Expected an object/);
    expect(refusal("just some text")).toMatch(/Expected an object/);
    expect(refusal(detachedYaml(unsignedTx(unsigned, payload.signers), true))).toMatch(
      /condensed form/,
    );
    expect(refusal(JSON.stringify({ cmds: [{ ...unsigned, sigs: [] }] }))).toMatch(/final \/send/);
    expect(refusal(JSON.stringify({ ...unsigned, sigs: [null, null], extra: 1 }))).toMatch(
      /extra: unknown field/,
    );
    expect(refusal(JSON.stringify({ cmd: "{}", hash: unsigned.hash, sigs: [] }))).toMatch(/cmd/);
    expect(refusal(JSON.stringify({ cmd: unsigned.cmd, sigs: [{ sig: null }] }))).toMatch(
      /hash: missing/,
    );
  });

  it("refuses keys that are not signers, wrong counts and signatures that do not verify", () => {
    const C = DEV_ACCOUNT_KEYS[2]?.publicKey ?? "";
    expect(refusal(cliYaml.replace(B.publicKey, C))).toMatch(/not a signer of cmd/);
    expect(refusal(JSON.stringify({ ...unsigned, sigs: [null] }))).toMatch(/2 signer\(s\)/);
    const wrong = JSON.stringify({ ...unsigned, sigs: [{ sig: sigOf(B.secretKey) }, null] });
    expect(refusal(wrong)).toMatch(/does not verify/);
    expect(refusal(JSON.stringify({ ...unsigned, sigs: [{ sig: "zz" }, null] }))).toMatch(
      /sigs\[0\]\.sig/,
    );
  });
});
