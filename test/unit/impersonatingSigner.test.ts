/**
 * The theft of issue 31 at every layer it crossed: a thief signs with a fresh key and names
 * the victim's public key in the signer's `addr`. The reference refuses this at the door
 * (`verifyUserSig`: "address does not match pubkey"); Weft refuses it in command verification
 * (CMD_ADDRESS_MISMATCH), and its evaluator counts only the verified `pubKey` for keysets,
 * capabilities and the gas payer, so the command cannot move the victim's coins even where
 * signatures are not verified. Layers: command verification, /local (with and without
 * signature checks), /send, a block from a peer, the gas payer, the CLI's files, the wallet's
 * reader and the dapp signing API.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSignRequest } from "../../renderer/src/features/wallet/sign/signRequest.ts";
import { checkQuicksign } from "../../src-node/api/dappSigning/signingAnswers.ts";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { newBlockHeader } from "../../src-node/chain/newBlockHeader.ts";
import { buildPayloadWithOutputs } from "../../src-node/chain/payloadWithOutputs.ts";
import type { Command, CommandPayload, Signer } from "../../src-node/command/commandTypes.ts";
import { referenceRequestKeyOf } from "../../src-node/command/requestKeyCheck.ts";
import { generateKeyPair } from "../../src-node/crypto/ed25519.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { gasPayerCapOf } from "../../src-node/exec/gasPayer.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import {
  type ExecChain,
  openExecChain,
  signedCommand,
  transferCaps,
} from "../support/execChain.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";
import { runWeft, tempDir } from "./cliHarness.ts";

const { buildCommand, signCommand, parseCommand } = nodeCommands;

const victim = devAccount(1);
const thief = generateKeyPair();
const THIEF_ACCOUNT = `k:${thief.publicKey}`;

function theftPayload(signers: readonly Signer[], nonce: string, chainId = "0"): CommandPayload {
  return {
    payload: {
      exec: {
        code: `(coin.transfer-create "sender01" "${THIEF_ACCOUNT}" (read-keyset "ks") 1000.0)`,
        data: { ks: { keys: [thief.publicKey], pred: "keys-all" } } as never,
      },
    },
    meta: {
      chainId,
      sender: "sender01",
      gasLimit: 2500,
      gasPrice: "0.00000001",
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 60,
    },
    signers,
    networkId: "test-singleton",
    nonce,
  };
}

/** The thief's command: signed by the thief's own key, `addr` naming the victim's key. */
function theft(nonce = `theft-${Math.random()}`, chainId = "0"): Command {
  const signer: Signer = {
    pubKey: thief.publicKey,
    addr: victim.publicKey,
    clist: [...transferCaps("sender01", THIEF_ACCOUNT, "1000.0"), { name: "coin.GAS", args: [] }],
  };
  const payload = theftPayload([signer], nonce, chainId);
  return signCommand(buildCommand(payload), payload.signers, [thief]);
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isNodeError(e)) {
      const failures = (e.type as { failures?: { error: { code: string } }[] }).failures;
      return failures?.[0]?.error.code ?? e.code;
    }
    throw e;
  }
  return "no error";
}

describe("[command] a signer's addr must be its pubKey", () => {
  it("refuses the impersonating signer before its (valid) signature, naming the field", () => {
    const c = theft();
    const parsed = parseCommand(JSON.parse(JSON.stringify(c)));
    let error: unknown;
    try {
      nodeCommands.verifyCommandSignatures(parsed);
    } catch (e) {
      error = e;
    }
    expect(isNodeError(error) && error.code).toBe("CMD_ADDRESS_MISMATCH");
    expect((error as Error).message).toContain("cmd.signers[0].addr");
    expect((error as Error).message).toContain(victim.publicKey);
  });

  it("accepts addr equal to pubKey, and refuses a difference in case alone (same text)", () => {
    const k = devAccount(2);
    const ok = (addr: string) => {
      const payload = theftPayload([{ pubKey: k.publicKey, addr, clist: [] }], `case-${addr}`);
      const c = signCommand(buildCommand(payload), payload.signers, [k]);
      return codeOf(() =>
        nodeCommands.verifyCommandSignatures(parseCommand(JSON.parse(JSON.stringify(c)))),
      );
    };
    expect(ok(k.publicKey)).toBe("no error");
    expect(ok(k.publicKey.toUpperCase())).toBe("CMD_ADDRESS_MISMATCH");
  });

  it("gives the evaluator and the gas payer the verified key only", () => {
    const c = theft();
    const input = contractInputOf(parseCommand(JSON.parse(JSON.stringify(c))));
    expect(input.signers.map((s) => s.pubKey)).toEqual([thief.publicKey]);
    expect(input.signers[0]).not.toHaveProperty("addr");
    const payer = { name: "free.p.GAS_PAYER", args: [] };
    // Two signers of the same payer cap: the one chosen is ordered by pubKey, never by addr.
    const cap = gasPayerCapOf([
      { pubKey: "bb", scheme: "ED25519", caps: [payer] },
      { pubKey: "aa", scheme: "ED25519", caps: [{ ...payer, name: "free.q.GAS_PAYER" }] },
    ]);
    expect(cap?.name).toBe("free.q.GAS_PAYER");
  });
});

describe("[exec] the theft through a chain's execution", () => {
  let x: ExecChain;
  beforeAll(() => {
    x = openExecChain();
  });
  afterAll(() => x.close());

  it("is refused by /send's checks and leaves the mempool untouched", () => {
    const c = theft();
    expect(codeOf(() => x.commands.send(0, [c]))).toBe("CMD_ADDRESS_MISMATCH");
    expect(x.commands.mempool.has(0, c.hash)).toBe(false);
  });

  it("makes a peer's block carrying it invalid, and changes no state", () => {
    const ready = x.nextBlock().header.chainId;
    const honestCmd = signedCommand({ code: "(+ 1 2)", chainId: ready });
    const parsed = parseCommand(JSON.parse(JSON.stringify(honestCmd)));
    const honest = x.nextBlock(undefined, [{ command: parsed, input: contractInputOf(parsed) }]);
    const chainId = honest.header.chainId;
    const stolen = theft(`theft-block-${chainId}`, String(chainId));
    const enc = new TextEncoder();
    const payload = buildPayloadWithOutputs({
      ...honest.payload,
      transactions: honest.payload.transactions.map((t) => ({
        ...t,
        transaction: enc.encode(JSON.stringify(stolen)),
      })),
    });
    const block = {
      header: newBlockHeader({
        version: x.version,
        parent: x.blocks.header(honest.header.parent) as BlockHeader,
        adjacentParents: honest.header.adjacents.map((a) => x.blocks.header(a.hash) as BlockHeader),
        creationTime: honest.header.creationTime,
        payloadHash: payload.payloadHash,
      }),
      payload,
    };
    const head = x.state.head(chainId);
    let message = "";
    const code = codeOf(() => {
      try {
        x.blocks.insertBlock(block);
      } catch (e) {
        message = e instanceof Error ? e.message : "";
        throw e;
      }
    });
    expect(code).toBe("EXEC_BLOCK_INVALID");
    expect(message).toContain("address does not match");
    expect(x.state.head(chainId)).toEqual(head);
  });
});

describe("[api] the theft through a node's HTTP API", () => {
  let t: TestNode;
  let api: string;
  beforeAll(async () => {
    t = await openTestNode();
    api = `${t.base}/chain/0/pact/api/v1`;
  });
  afterAll(() => t.cleanup());

  const balance = async (account: string): Promise<unknown> => {
    const r = await t.request("POST", `${api}/local`, {
      body: signedCommand({ code: `(coin.get-balance "${account}")` }),
    });
    return (r.json() as { result: { data?: unknown } }).result.data;
  };

  it("/local with signature verification answers 400 CMD_ADDRESS_MISMATCH", async () => {
    for (const query of ["?preflight=true&signatureVerification=true", ""]) {
      const r = await t.request("POST", `${api}/local${query}`, { body: theft() });
      expect(r.statusCode, query).toBe(400);
      expect(r.body).toContain("cmd.signers[0].addr: the address does not match");
    }
  });

  it("/local without signature verification runs it as the thief's key: nothing to steal", async () => {
    const r = await t.request("POST", `${api}/local?signatureVerification=false`, {
      body: theft(),
    });
    const body = r.json() as { result: { status: string; error?: { message: string } } };
    expect(body.result.status).toBe("failure");
    expect(body.result.error?.message).toMatch(/Keyset failure|not satisfied|GAS/i);
  });

  it("/send answers 400 and nothing reaches the mempool; the victim keeps every coin", async () => {
    const before = await balance("sender01");
    const c = theft();
    const r = await t.request("POST", `${api}/send`, { body: { cmds: [c] } });
    expect(r.statusCode).toBe(400);
    expect(r.body).toContain("cmd.signers[0].addr: the address does not match");
    const poll = await t.request("POST", `${api}/poll`, { body: { requestKeys: [c.hash] } });
    expect(poll.json()).toEqual({});
    expect(await balance("sender01")).toEqual(before);
    expect(await balance(THIEF_ACCOUNT)).not.toBe(1000);
  });
});

describe("[cli] files naming another key as a signer's address", () => {
  it("a request file whose address is not the key is refused", async () => {
    const t = tempDir();
    const file = t.write(
      "req.yaml",
      [
        'code: "(+ 1 2)"',
        "publicMeta: {chainId: '0', sender: sender01, gasLimit: 1000, gasPrice: 0.00000001, ttl: 600}",
        "networkId: test-singleton",
        "signers:",
        `  - public: ${thief.publicKey}`,
        `    address: ${victim.publicKey}`,
      ].join("\n"),
    );
    const r = await runWeft(["-u", file]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("signers[0].address: must be the public key itself");
  });

  it("add-sig and combine-sigs refuse a transaction whose cmd carries the impersonating signer", async () => {
    const c = theft();
    const t = tempDir();
    const tx = t.write(
      "tx.yaml",
      `hash: ${c.hash}\nsigs:\n  ${thief.publicKey}: null\ncmd: ${JSON.stringify(c.cmd)}\n`,
    );
    const key = t.write("thief.yaml", `public: ${thief.publicKey}\nsecret: ${thief.secretKey}\n`);
    const runs = [
      await runWeft(["add-sig", key], readFileSync(tx, "utf8")),
      await runWeft(["combine-sigs", tx]),
    ];
    for (const r of runs) {
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain("cmd.signers[0].addr: the address does not match");
    }
  });
});

describe("[wallet] and [dapp] signing requests naming another key", () => {
  it("the wallet refuses to read (and so to sign) such a transaction", () => {
    const c = theft();
    const r = parseSignRequest(JSON.stringify({ cmd: c.cmd, hash: c.hash, sigs: [null] }));
    expect(r.ok).toBe(false);
    // In words (test/renderer/signReview.test.ts pins the whole text).
    expect(r.ok ? "" : r.error).toContain(
      `signs with the key ${thief.publicKey} but names the address ${victim.publicKey}, which is not that key`,
    );
  });

  it("the dapp signing API answers quicksign with 400 naming the field", () => {
    const c = theft();
    expect(referenceRequestKeyOf(c.cmd)).toHaveLength(43);
    const checked = checkQuicksign({
      cmdSigDatas: [{ cmd: c.cmd, sigs: [{ pubKey: thief.publicKey, sig: null }] }],
    });
    expect(checked.ok).toBe(false);
    const answer = checked.ok ? null : checked.error;
    expect(answer?.status).toBe(400);
    expect(JSON.stringify(answer)).toContain("cmd.signers[0].addr");
  });
});
