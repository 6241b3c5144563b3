/**
 * End to end on a headless test-singleton node listening on 127.0.0.1 (real
 * HTTP, real signatures, blocks mined through the node's mining service):
 * `coin.transfer-crosschain` from sender00 on chain 0 to a fresh k: account
 * on chain 1 (not adjacent: the proof hops 0 → 3 → 1). Step 0 through
 * /send and /listen, the proof from /spv (which waits for chain 1), the
 * continuation written as a `type: cont` request file, formatted by
 * `weft -a` and sent by `weft send`, paid by the gas station (`xchain-gas`,
 * GAS_PAYER signed by the receiver's key: the receiver has no coins there).
 * Balances and events on both chains; the replay fails as completed.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeSpvProof, runSpvProof } from "../../src-node/chain/spvProof.ts";
import { generateKeyPair } from "../../src-node/crypto/ed25519.ts";
import { crossChainTransfer } from "../support/crossChain.ts";
import { MINER, signedCommand } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { postJson } from "../support/postJson.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";
import { runWeft, tempDir } from "../unit/cliHarness.ts";

type Event = { name: string; params: unknown[]; module: { name: string } };
type Result = {
  reqKey: string;
  result: { status: string; data?: unknown; error?: { message: string } };
  gas: number;
  events?: Event[];
  continuation: { step: number; pactId: string; stepCount: number } | null;
};

describe("[e2e] a cross-chain transfer across two chains of a headless node", () => {
  let t: TestNode;
  let base: string;
  const api = (chain: number) => `${base}/chain/${chain}/pact/api/v1`;
  const files = tempDir();
  const receiverKey = generateKeyPair();
  const receiver = `k:${receiverKey.publicKey}`;
  const amount = 3.25;

  const local = async (chain: number, code: string): Promise<Result> => {
    const r = await postJson(`${api(chain)}/local`, signedCommand({ code, chainId: chain }));
    expect(r.status, r.text).toBe(200);
    return JSON.parse(r.text) as Result;
  };
  const balance = async (chain: number, account: string): Promise<number | null> => {
    const r = await local(chain, `(try -1.0 (coin.get-balance "${account}"))`);
    const v = Number(r.result.data);
    return v < 0 ? null : v;
  };
  const now = () => new Date();

  /** A `type: cont` request file for the gas station, formatted by weft -a and sent by weft send. */
  const sendContinuation = async (pactId: string, proof: string, nonce: string) => {
    const request = files.write(
      `${nonce}.yaml`,
      [
        "type: cont",
        `contractTxHash: ${pactId}`,
        "step: 1",
        "rollback: false",
        `proof: "${proof}"`, // as /spv answers it, quotes included
        "keyPairs:",
        `  - public: ${receiverKey.publicKey}`,
        `    secret: ${receiverKey.secretKey}`,
        "    caps:",
        "      - name: gas-station.GAS_PAYER",
        `        args: [${receiver}, {int: 1000}, 0.00000001]`,
        `nonce: ${nonce}`,
        "networkId: test-singleton",
        'publicMeta: { chainId: "1", sender: xchain-gas, gasLimit: 850, gasPrice: 0.00000001, ttl: 3600 }',
        "",
      ].join("\n"),
    );
    const formatted = await runWeft(["-a", request], "", now());
    expect(formatted.stderr).toBe("");
    expect(formatted.code).toBe(0);
    const cmds = (JSON.parse(formatted.stdout) as { cmds: { hash: string; cmd: string }[] }).cmds;
    const cont = JSON.parse((cmds[0] as { cmd: string }).cmd).payload.cont;
    expect(cont).toEqual({ pactId, step: 1, rollback: false, data: {}, proof });
    const sent = await runWeft(
      ["send", files.write(`${nonce}.json`, formatted.stdout), "--node", base],
      "",
      now(),
    );
    expect(sent.stderr).toBe("");
    const hash = (cmds[0] as { hash: string }).hash;
    expect(JSON.parse(sent.stdout)).toEqual({ requestKeys: [hash] });
    return hash;
  };

  beforeAll(async () => {
    t = await openTestNode({});
    base = await t.node.start();
  });
  afterAll(async () => {
    await t.cleanup();
    rmSync(files.dir, { recursive: true, force: true });
  });

  it("debits chain 0, proves it, credits chain 1 through the gas station; a replay fails", async () => {
    expect(await balance(1, receiver)).toBeNull();
    const sender0Before = (await balance(0, "sender00")) as number;
    const stationBefore = (await balance(1, "xchain-gas")) as number;
    expect(stationBefore).toBeGreaterThan(0);

    // Step 0 on chain 0.
    const step0 = crossChainTransfer({
      from: 0,
      receiver,
      receiverKeys: [receiverKey.publicKey],
      amount: "3.25",
      sourceChain: 0,
      targetChain: 1,
    });
    const sent = await postJson(`${api(0)}/send`, { cmds: [step0] });
    expect(sent.status, sent.text).toBe(200);
    const listening = postJson(`${api(0)}/listen`, { listen: step0.hash });
    const mined = await mineOn(t.node, 0);
    const r0 = JSON.parse((await listening).text) as Result;
    expect(r0.result).toEqual({
      status: "success",
      data: {
        amount,
        receiver,
        "receiver-guard": { keys: [receiverKey.publicKey], pred: "keys-all" },
        "source-chain": "0",
      },
    });
    expect(r0.continuation).toMatchObject({ pactId: step0.hash, step: 0, stepCount: 2 });
    const events0 = (r0.events ?? []).map((e) => [e.module.name, e.name, e.params]);
    expect(events0.slice(1)).toEqual([
      ["coin", "TRANSFER_XCHAIN", ["sender00", receiver, amount, "1"]],
      ["coin", "TRANSFER", ["sender00", "", amount]],
      [
        "pact",
        "X_YIELD",
        [
          "1",
          "coin.transfer-crosschain",
          ["sender00", receiver, { pred: "keys-all", keys: [receiverKey.publicKey] }, "1", amount],
        ],
      ],
    ]);
    expect(await balance(0, "sender00")).toBeCloseTo(sender0Before - amount - r0.gas * 1e-8, 9);

    // /spv waits until chain 1 reaches the block's height + 2.
    let answered = false;
    const asked = postJson(`${base}/chain/0/pact/spv`, {
      requestKey: step0.hash,
      targetChainId: "1",
    }).then((r) => {
      answered = true;
      return r;
    });
    for (let i = 0; i < 20 && !answered; i++) {
      await mineOn(t.node, 1);
      await new Promise((r) => setTimeout(r, 5));
    }
    const spv = await asked;
    expect(spv.status, spv.text).toBe(200);
    const proofText = JSON.parse(spv.text) as string;
    const proof = decodeSpvProof(proofText);
    const root = t.node.blocks.header(runSpvProof(proof));
    expect(root?.chainId).toBe(1);
    expect(root?.height).toBe(mined.height + 2);
    expect(proof.steps.length).toBe(1 + 1 + 4 + 2 * 4);

    // The continuation on chain 1, paid by the gas station.
    const contKey = await sendContinuation(step0.hash, proofText, "xchain-cont-1");
    const listening1 = postJson(`${api(1)}/listen`, { listen: contKey });
    await mineOn(t.node, 1);
    const r1 = JSON.parse((await listening1).text) as Result;
    expect(r1.result).toEqual({ status: "success", data: "Write succeeded" });
    expect(r1.continuation).toMatchObject({ pactId: step0.hash, step: 1 });
    const events1 = (r1.events ?? []).map((e) => [e.module.name, e.name, e.params]);
    const fee = r1.gas * 1e-8;
    const [module, name, feeParams] = events1[0] ?? [];
    expect([module, name]).toEqual(["coin", "TRANSFER"]); // the fee, from the station to the miner
    expect(feeParams).toEqual(["xchain-gas", MINER.account, expect.any(Number)]);
    expect(Number((feeParams as unknown[])[2])).toBeCloseTo(fee, 12);
    expect(events1.slice(1)).toEqual([
      ["coin", "TRANSFER", ["", receiver, amount]],
      ["coin", "TRANSFER_XCHAIN_RECD", ["", receiver, amount, "0"]],
      [
        "pact",
        "X_RESUME",
        [
          "0",
          "coin.transfer-crosschain",
          ["sender00", receiver, { pred: "keys-all", keys: [receiverKey.publicKey] }, "1", amount],
        ],
      ],
    ]);
    expect(await balance(1, receiver)).toBe(amount);
    expect(await balance(1, "xchain-gas")).toBeCloseTo(stationBefore - fee, 9);
    const details = await local(1, `(coin.details "${receiver}")`);
    expect(details.result.data).toMatchObject({
      guard: { pred: "keys-all", keys: [receiverKey.publicKey] },
    });
    // Chain 0 is unchanged by the continuation; the receiver has nothing there.
    expect(await balance(0, receiver)).toBeNull();

    // The same proof again: the station pays the gas, the defpact is completed.
    const replayKey = await sendContinuation(step0.hash, proofText, "xchain-cont-2");
    const listening2 = postJson(`${api(1)}/listen`, { listen: replayKey });
    await mineOn(t.node, 1);
    const replay = JSON.parse((await listening2).text) as Result;
    expect(replay.result.status).toBe("failure");
    expect(replay.result.error?.message).toContain(`pact completed: ${step0.hash}`);
    expect(await balance(1, receiver)).toBe(amount);
  });
});
