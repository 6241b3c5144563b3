/**
 * The page's reading of dapps' signing requests (renderer/src/features/wallet/dapp/
 * dappRequests.ts; docs/dapp-signing.md): the node's answers parsed; a quicksign's commands
 * read as SigData under the reference (Blake2b) request key; a `/v1/sign` request built into a
 * command with the wallet's defaults for what it leaves out; the signed answer aligned with the
 * dapp's list of keys, which the node's own checks (api/dappSigning/signingAnswers.ts) accept.
 */
import { Pact } from "@kadena/client";
import { describe, expect, it } from "vitest";
import {
  type DappRequest,
  parseDappRequests,
  parseDappSigningStatus,
  prepareRequest,
  signCommandPayload,
  signedAnswer,
} from "../../renderer/src/features/wallet/dapp/dappRequests.ts";
import { withSignature } from "../../renderer/src/features/wallet/sign/signRequest.ts";
import {
  checkQuicksign,
  quicksignRules,
  signRules,
} from "../../src-node/api/dappSigning/signingAnswers.ts";
import { requestKeyBytes } from "../../src-node/command/requestKeyBytes.ts";
import { referenceRequestKeyOf } from "../../src-node/command/requestKeyCheck.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";

const S0 = DEV_ACCOUNT_KEYS[0];
const S1 = DEV_ACCOUNT_KEYS[1];
if (S0 === undefined || S1 === undefined) throw new Error("no test accounts");
const FROM = `k:${S0.publicKey}`;
const TO = `k:${S1.publicKey}`;
const sign = (hash: string, secret: string) =>
  nodeCommands.crypto.sign(requestKeyBytes(hash), secret);
const defaults = {
  networkId: "test-singleton",
  publicKeys: [S0.publicKey],
  now: 1_700_000_000,
  nonce: "n-1",
};

function request(kind: "sign" | "quicksign", body: unknown, text?: string): DappRequest {
  return {
    id: "r1",
    kind,
    origin: "https://dapp.example",
    receivedAt: 1,
    expiresAt: 2,
    body,
    text: text ?? null,
  };
}

describe("[renderer] dapp signing requests", () => {
  it("parses the node's answers and refuses other shapes", () => {
    expect(
      parseDappSigningStatus({
        enabled: true,
        port: 9467,
        listening: true,
        problem: null,
        timeoutSeconds: 300,
      }),
    ).toEqual({
      ok: true,
      value: { enabled: true, port: 9467, listening: true, problem: null, timeoutSeconds: 300 },
    });
    const list = parseDappRequests({
      version: 3,
      requests: [
        { id: "a", kind: "quicksign", origin: null, receivedAt: 1, expiresAt: 2, body: {} },
      ],
      ended: [{ id: "b", reason: "withdrawn", endedAt: 1 }],
    });
    expect(list.ok && list.value.requests[0]?.origin).toBe(null);
    expect(list.ok && list.value.ended).toEqual([{ id: "b", reason: "withdrawn" }]);
    expect(
      parseDappRequests({ version: 3, requests: [{ id: "a", kind: "other" }], ended: [] }).ok,
    ).toBe(false);
    expect(
      parseDappRequests({ version: 3, requests: [], ended: [{ id: "b", reason: "lost" }] }).ok,
    ).toBe(false);
    expect(parseDappRequests({ version: 3, requests: [] }).ok).toBe(false);
    expect(parseDappSigningStatus({ enabled: "yes" }).ok).toBe(false);
  });

  it("reads a quicksign under the reference request key and answers signatures the node accepts", () => {
    // Two signers; the dapp lists them in the other order, the second already signed elsewhere.
    const tx = Pact.builder
      .execution(`(coin.transfer "${FROM}" "${TO}" 1.0)`)
      .addSigner(S0.publicKey, (withCap) => [withCap("coin.GAS")])
      .addSigner(S1.publicKey)
      .setMeta({ chainId: "0", senderAccount: FROM })
      .setNetworkId("test-singleton")
      .setNonce("n")
      .createTransaction();
    const hash = referenceRequestKeyOf(tx.cmd);
    expect(hash).toBe(tx.hash);
    const s1sig = sign(hash, S1.secretKey);
    const checked = checkQuicksign({
      cmdSigDatas: [
        {
          cmd: tx.cmd,
          sigs: [
            { pubKey: S1.publicKey, sig: s1sig },
            { pubKey: S0.publicKey, sig: null },
          ],
        },
      ],
    });
    if (!checked.ok) throw new Error(JSON.stringify(checked.error));
    const r = request("quicksign", { cmdSigDatas: checked.value });
    const prepared = prepareRequest(r, defaults);
    if (!prepared.ok) throw new Error(prepared.error);
    const [t] = prepared.value;
    if (t === undefined) throw new Error("no transaction");
    expect(t.hash).toBe(hash);
    expect(t.sigs).toEqual([null, s1sig]);
    const signed = withSignature(t, S0.publicKey, sign(t.hash, S0.secretKey));
    const answer = signedAnswer(r, [signed]);
    expect(answer.sigs).toEqual([[s1sig, signed.sigs[0]]]);
    const reply = quicksignRules(checked.value).signed(answer);
    expect(reply).toEqual({
      status: 200,
      json: {
        responses: [
          {
            commandSigData: {
              cmd: tx.cmd,
              sigs: [
                { pubKey: S1.publicKey, sig: s1sig },
                { pubKey: S0.publicKey, sig: signed.sigs[0] },
              ],
            },
            outcome: { result: "success", hash },
          },
        ],
      },
    });
  });

  it("builds a /v1/sign command from the request and the wallet's defaults", () => {
    const body = {
      code: `(coin.transfer "${FROM}" "${TO}" 1.0)`,
      caps: [
        { role: "gas", description: "", cap: { name: "coin.GAS", args: [] } },
        {
          role: "t",
          description: "",
          cap: { name: "coin.TRANSFER", args: [FROM, TO, { decimal: "1.0" }] },
        },
      ],
      extraSigners: [S1.publicKey],
    };
    const payload = signCommandPayload(body, defaults);
    expect(payload.meta).toEqual({
      chainId: "0",
      sender: FROM,
      gasLimit: 2500,
      gasPrice: "0.00000001",
      ttl: 28_800,
      creationTime: 1_700_000_000,
    });
    expect(payload.networkId).toBe("test-singleton");
    expect(payload.nonce).toBe("n-1");
    expect(payload.signers.map((s) => [s.pubKey, s.clist.length])).toEqual([
      [S0.publicKey, 2],
      [S1.publicKey, 0],
    ]);
    const given = signCommandPayload(
      {
        ...body,
        chainId: "3",
        sender: "alice",
        gasLimit: 900,
        gasPrice: 2e-8,
        ttl: 60,
        nonce: "x",
        networkId: "other",
      },
      defaults,
    );
    expect(given.meta).toMatchObject({
      chainId: "3",
      sender: "alice",
      gasLimit: 900,
      gasPrice: "0.00000002",
      ttl: 60,
    });
    expect([given.networkId, given.nonce]).toEqual(["other", "x"]);

    // Signed by both keys, the node's /v1/sign rules take it and answer the command.
    const r = request("sign", body);
    const prepared = prepareRequest(r, defaults);
    if (!prepared.ok) throw new Error(prepared.error);
    const [t] = prepared.value;
    if (t === undefined) throw new Error("no transaction");
    expect(t.hash).toBe(referenceRequestKeyOf(t.cmd));
    const signed = withSignature(
      withSignature(t, S0.publicKey, sign(t.hash, S0.secretKey)),
      S1.publicKey,
      sign(t.hash, S1.secretKey),
    );
    const reply = signRules(body).signed(signedAnswer(r, [signed]));
    expect(reply).toEqual({
      status: 200,
      json: {
        body: { cmd: t.cmd, hash: t.hash, sigs: signed.sigs.map((sig) => ({ sig })) },
        chainId: "0",
      },
    });
  });

  it("builds a /v1/sign command from the exact text: 1.0 stays a decimal, large integers keep their digits", () => {
    const big = "98765432109876543210987654321";
    const text = `{"code":"(m.f)","caps":[{"cap":{"name":"m.CAP","args":[1.0,${big},-0.50]}}],"data":{"k":${big},"x":1.0},"gasLimit":1.2e3,"ttl":600.0,"gasPrice":2.0e-8}`;
    const plain = JSON.parse(text) as unknown;
    const r = request("sign", plain, text);
    const prepared = prepareRequest(r, defaults);
    if (!prepared.ok) throw new Error(prepared.error);
    const cmd = prepared.value[0]?.cmd ?? "";
    expect(cmd).toContain(`"clist":[{"name":"m.CAP","args":[1.0,${big},-0.50]}]`);
    expect(cmd).toContain(`"data":{"k":${big},"x":1.0}`);
    expect(JSON.parse(cmd).meta).toMatchObject({ gasLimit: 1200, ttl: 600, gasPrice: 2e-8 });
    // Without the text (JSON.parse's reading), the digits would be gone.
    const lossy = prepareRequest(request("sign", plain), defaults);
    expect(lossy.ok && lossy.value[0]?.cmd).not.toContain(big);
    // Text that is not JSON is said so.
    expect(prepareRequest(request("sign", plain, "{"), defaults)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^the request is not JSON/),
    });
    // The node's list carries the text; a wrong type is refused.
    const listed = parseDappRequests({
      version: 1,
      requests: [
        { id: "a", kind: "sign", origin: null, receivedAt: 1, expiresAt: 2, body: plain, text },
      ],
      ended: [],
    });
    expect(listed.ok && listed.value.requests[0]?.text).toBe(text);
    expect(
      parseDappRequests({
        version: 1,
        requests: [{ id: "a", kind: "sign", origin: null, receivedAt: 1, expiresAt: 2, text: 5 }],
        ended: [],
      }).ok,
    ).toBe(false);
  });

  it("says why a request cannot be shown", () => {
    expect(prepareRequest(request("quicksign", {}), defaults)).toEqual({
      ok: false,
      error: "the request holds no commands",
    });
    const noKey = prepareRequest(request("sign", { code: "(+ 1 2)", caps: [] }), {
      ...defaults,
      publicKeys: [],
    });
    expect(noKey).toEqual({ ok: false, error: "the wallet has no key to sign with" });
  });
});
