/**
 * What the reviews show of what is signed (issue 31): capability arguments with their numbers
 * as written at any depth (renderer/src/format/pactValueText.ts, `capabilityText`: a nested
 * number once showed as `{"text":"2.50"}`), a signer's `addr` kept for the review when it is
 * the key itself, and a transaction whose signer names another key as its address refused in
 * words, on "Sign a transaction" and for a dapp's quicksign alike.
 */
import { describe, expect, it } from "vitest";
import { prepareRequest } from "../../renderer/src/features/wallet/dapp/dappRequests.ts";
import { parseSignRequest } from "../../renderer/src/features/wallet/sign/signRequest.ts";
import { capabilityText } from "../../renderer/src/features/wallet/transfer/transferCommand.ts";
import { exactNumberText, pactValueText } from "../../renderer/src/format/pactValueText.ts";
import type { CommandPayload, Signer } from "../../src-node/command/commandTypes.ts";
import { JsonNumber, parseJsonExact } from "../../src-node/command/exactJson.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";

const A = DEV_ACCOUNT_KEYS[0];
const B = DEV_ACCOUNT_KEYS[1];
if (A === undefined || B === undefined) throw new Error("no test keys");

const n = (text: string) => JsonNumber.of(text) as JsonNumber;
const SENDER = `k:${A.publicKey}`;

function payloadWith(signer: Signer): CommandPayload {
  return {
    payload: { exec: { code: "(free.m.pay)", data: null } },
    meta: {
      chainId: "0",
      sender: SENDER,
      gasLimit: 2500,
      gasPrice: "0.00000001",
      ttl: 600,
      creationTime: 1_700_000_000,
    },
    signers: [signer],
    networkId: "development",
    nonce: "review",
  };
}

describe("[renderer] capability arguments as signed", () => {
  it("shows exact numbers as written, nested in objects and lists too", () => {
    const args = parseJsonExact(
      '["alice", 2.50, {"amount": 2.50, "list": [1, 0.10, {"decimal": "3.000"}]}, {"int": 7}, {"int": "12345678901234567890"}, true, "a\\nb"]',
    ) as JsonNumber[];
    expect(capabilityText({ name: "free.m.PAY", args })).toBe(
      '(free.m.PAY "alice" 2.50 {"amount": 2.50, "list": [1, 0.10, 3.000]} 7 12345678901234567890 true "a\\nb")',
    );
    expect(capabilityText({ name: "free.m.PAY", args })).not.toContain("text");
  });

  it("reads only well-formed exact numbers as numbers", () => {
    expect(exactNumberText(n("1e-8"))).toBe("1e-8");
    expect(exactNumberText({ int: n("5") })).toBe("5");
    expect(exactNumberText({ int: n("1.5") })).toBeNull();
    expect(exactNumberText({ decimal: "x" })).toBeNull();
    expect(exactNumberText({ decimal: "1.5", extra: 1 })).toBeNull();
    expect(pactValueText({ decimal: "x" })).toBe('{"decimal": "x"}');
    expect(pactValueText([])).toBe("[]");
    expect(pactValueText({})).toBe("{}");
  });
});

describe("[renderer] a signer's address in the review", () => {
  const clist = [{ name: "free.m.PAY", args: [n("2.50"), { amount: n("2.50") }] }];

  it("keeps addr for the review when it is the key itself", () => {
    const p = payloadWith({ pubKey: A.publicKey, addr: A.publicKey, clist });
    const u = nodeCommands.buildCommand(p);
    const r = parseSignRequest(JSON.stringify({ cmd: u.cmd, sigs: [{ pubKey: A.publicKey }] }));
    if (!r.ok) throw new Error(r.error);
    const signer = r.value.payload.signers[0];
    expect(signer?.addr).toBe(A.publicKey);
    expect(signer?.clist.map(capabilityText)).toEqual(['(free.m.PAY 2.50 {"amount": 2.50})']);
  });

  it("refuses, in words, a signer whose addr is another key", () => {
    const p = payloadWith({ pubKey: A.publicKey, addr: B.publicKey, clist });
    const u = nodeCommands.buildCommand(p);
    const r = parseSignRequest(JSON.stringify({ cmd: u.cmd, sigs: [{ pubKey: A.publicKey }] }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBe(
      `Refused: signer 1 signs with the key ${A.publicKey} but names the address ${B.publicKey}, which is not that key. A signature would then be counted for ${B.publicKey}'s accounts, which it does not own: this wallet does not sign such a transaction, and nodes refuse it. Ask whoever prepared it to remove the address or make it the key itself (cmd.signers[0].addr).`,
    );
    // A difference in case alone is another text, refused the same way.
    const upper = nodeCommands.buildCommand(
      payloadWith({ pubKey: A.publicKey, addr: A.publicKey.toUpperCase(), clist }),
    );
    const u2 = parseSignRequest(
      JSON.stringify({ cmd: upper.cmd, sigs: [{ pubKey: A.publicKey }] }),
    );
    expect(!u2.ok && u2.error.startsWith("Refused: signer 1 signs with the key")).toBe(true);
  });

  it("a dapp's quicksign naming another key as an address cannot be signed, in the same words", () => {
    const u = nodeCommands.buildCommand(
      payloadWith({ pubKey: A.publicKey, addr: B.publicKey, clist }),
    );
    const prepared = prepareRequest(
      {
        id: "r1",
        kind: "quicksign",
        origin: null,
        body: { cmdSigDatas: [{ cmd: u.cmd, sigs: [{ pubKey: A.publicKey, sig: null }] }] },
        text: null,
        receivedAt: 0,
        expiresAt: 0,
      },
      { networkId: "development", publicKeys: [A.publicKey], now: 1_700_000_000, nonce: "n" },
    );
    expect(prepared.ok).toBe(false);
    expect(!prepared.ok && prepared.error).toContain(
      `command 1: Refused: signer 1 signs with the key ${A.publicKey} but names the address ${B.publicKey}`,
    );
  });
});
