/**
 * End to end on a headless node listening on 127.0.0.1 (real HTTP, real
 * signatures, real mining at test-singleton difficulty): a new k: account
 * on chain 0, a transfer into it with a TRANSFER-scoped signature, balances
 * through /local, results through /poll and /listen, the fee and reward
 * credited to the miner; then a fork switch: a transfer included on one
 * branch disappears from /poll when a heavier branch without it wins, comes
 * back to the mempool, and reappears once the new branch includes it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import type { Command } from "../../src-node/command/commandTypes.ts";
import { JsonNumber } from "../../src-node/command/exactJson.ts";
import { generateKeyPair } from "../../src-node/crypto/ed25519.ts";
import type { ReadyCommand } from "../../src-node/exec/chainExecutor.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { ChainBuilder } from "../support/chainBuilder.ts";
import { MINER, signedCommand, transferCaps } from "../support/execChain.ts";
import { executingPayloads } from "../support/executingPayloads.ts";
import { mineOn } from "../support/nodeMining.ts";
import { postJson } from "../support/postJson.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

type Result = {
  result: { status: string; data?: unknown };
  gas: number;
  events?: { name: string; params: unknown[] }[];
  metaData: { blockHash: string; blockHeight: number };
};

describe("[e2e] contract commands on a listening node", () => {
  let t: TestNode;
  let api: string;
  const local = async (code: string): Promise<unknown> => {
    const r = await postJson(`${api}/local`, signedCommand({ code }));
    expect(r.status, r.text).toBe(200);
    return (JSON.parse(r.text) as Result).result.data;
  };

  beforeAll(async () => {
    t = await openTestNode({});
    api = `${await t.node.start()}/chain/0/pact/api/v1`;
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("creates a k: account, transfers into it, and pays the miner", async () => {
    const alice = generateKeyPair();
    const account = `k:${alice.publicKey}`;
    const minerBefore = Number(await local(`(coin.get-balance "${MINER.account}")`));
    const create = signedCommand({
      code: `(coin.create-account "${account}" (read-keyset "ks"))`,
      data: { ks: { keys: [alice.publicKey], pred: "keys-all" } },
      signers: [{ key: 0, caps: [{ name: "coin.GAS", args: [] }] }],
    });
    const transfer = signedCommand({
      code: `(coin.transfer "sender00" "${account}" 25.0)`,
      signers: [{ key: 0, caps: transferCaps("sender00", account, "25.0") }],
    });
    const sent = await postJson(`${api}/send`, { cmds: [create] });
    expect(sent.status, sent.text).toBe(200);
    expect(JSON.parse(sent.text)).toEqual({ requestKeys: [create.hash] });
    const listening = postJson(`${api}/listen`, { listen: create.hash });
    await mineOn(t.node, 0);
    const created = JSON.parse((await listening).text) as Result;
    expect(created.result).toEqual({ status: "success", data: "Write succeeded" });
    expect(await local(`(coin.get-balance "${account}")`)).toBe(0);

    expect((await postJson(`${api}/send`, { cmds: [transfer] })).status).toBe(200);
    await mineOn(t.node, 0);
    const polled = JSON.parse(
      (await postJson(`${api}/poll`, { requestKeys: [transfer.hash] })).text,
    );
    const r = polled[transfer.hash] as Result;
    expect(r.result.status).toBe("success");
    expect(await local(`(coin.get-balance "${account}")`)).toBe(25);
    // Rewards (2.4 per block at these heights) and both fees went to the miner.
    const fees = (created.gas + r.gas) * 1e-8;
    const minerAfter = Number(await local(`(coin.get-balance "${MINER.account}")`));
    const blocksMined = minerAfter - minerBefore - fees;
    expect(blocksMined / 2.4).toBeCloseTo(Math.round(blocksMined / 2.4), 6);
    expect(Math.round(blocksMined / 2.4)).toBeGreaterThanOrEqual(2);
  });
});

describe("[e2e] a fork switch re-executes the new branch", () => {
  let t: TestNode;
  let api: string;
  beforeAll(async () => {
    t = await openTestNode({});
    api = `${await t.node.start()}/chain/0/pact/api/v1`;
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("drops an orphaned result from /poll and shows it again once re-included", async () => {
    const blocks = t.node.blocks;
    // Block times of builders are simulated (1 s after the parents, from the
    // network's genesis time), so the transfer is dated from there.
    const genesisS = Math.floor((blocks.genesis.get(0) as BlockHeader).creationTime / 1_000_000);
    const signed = transferAt(genesisS + 1);
    const command = parseCommand(JSON.parse(JSON.stringify(signed)));
    const ready: ReadyCommand = { command, input: contractInputOf(command) };
    let includeOn: string | undefined;
    const main = ChainBuilder.create(
      blocks.version,
      "main",
      blocks.genesis,
      executingPayloads(blocks, (parent, label) =>
        parent.chainId === 0 && label === includeOn ? [ready] : [],
      ),
    );
    const poll = async () =>
      JSON.parse((await postJson(`${api}/poll`, { requestKeys: [signed.hash] })).text) as Record<
        string,
        Result
      >;
    const balance = async () => {
      const r = await postJson(
        `${api}/local`,
        signedCommand({ code: '(coin.get-balance "sender09")' }),
      );
      return (JSON.parse(r.text) as Result).result.data;
    };
    for (const b of main.round({ transactions: 0 })) blocks.insertBlock(b);
    const side = main.fork("side");

    includeOn = "main";
    const onMain = main.next(0, { transactions: 0 });
    blocks.insertBlock(onMain);
    const first = (await poll())[signed.hash];
    expect(first?.metaData.blockHash).toBe(onMain.header.hash);
    expect(await balance()).toBe(1000000.5);

    // A heavier branch without the transfer: every chain one block further,
    // then chain 0 once more, which makes the side branch win on chain 0.
    includeOn = undefined;
    for (const b of side.round({ transactions: 0 })) blocks.insertBlock(b);
    expect(blocks.cut().get(0)?.hash).toBe(onMain.header.hash);
    const switched = side.next(0, { transactions: 0 });
    blocks.insertBlock(switched);
    expect(blocks.cut().get(0)?.hash).toBe(switched.header.hash);
    expect(await poll()).toEqual({});
    expect(await balance()).toBe(1000000);
    // Its command is pending again.
    expect(t.node.commands.mempool.has(0, signed.hash)).toBe(true);

    // The new branch includes it: the result is back, in the new block.
    for (const b of side.round({ transactions: 0 })) blocks.insertBlock(b);
    includeOn = "side";
    const again = side.next(0, { transactions: 0 });
    blocks.insertBlock(again);
    const second = (await poll())[signed.hash];
    expect(second?.metaData.blockHash).toBe(again.header.hash);
    expect(second?.metaData.blockHeight).toBe((first?.metaData.blockHeight ?? 0) + 2);
    expect(await balance()).toBe(1000000.5);
  });
});

/** sender08 → sender09 0.5, created at `creationS` with the longest ttl. */
function transferAt(creationS: number): Command {
  const payload = {
    payload: { exec: { code: '(coin.transfer "sender08" "sender09" 0.5)', data: null } },
    meta: {
      chainId: "0",
      sender: "sender08",
      gasLimit: 2500,
      gasPrice: "0.00000001",
      ttl: 172_800,
      creationTime: creationS,
    },
    signers: [
      {
        pubKey: devPublic(8),
        clist: [
          {
            name: "coin.TRANSFER",
            args: ["sender08", "sender09", JsonNumber.of("0.5") as JsonNumber],
          },
          { name: "coin.GAS", args: [] },
        ],
      },
    ],
    networkId: "test-singleton",
    nonce: "fork-switch",
  };
  return signCommand(buildCommand(payload), payload.signers, [devPair(8)]);
}

import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";

const { buildCommand, parseCommand, signCommand } = nodeCommands;

function devPublic(i: number): string {
  return devAccount(i).publicKey;
}

function devPair(i: number): { publicKey: string; secretKey: string } {
  const k = devAccount(i);
  return { publicKey: k.publicKey, secretKey: k.secretKey };
}
