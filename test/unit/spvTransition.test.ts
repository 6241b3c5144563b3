/**
 * SPV across a graph change on test-transition (10 chains, 20 from height
 * 10): step 0 on chain 0 below the change, proven to chain 15 (a chain that
 * starts at height 10), and checked against chain 15's history.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { encodeSpvProof, runSpvProof } from "../../src-node/chain/spvProof.ts";
import { createSpvProof } from "../../src-node/exec/createSpvProof.ts";
import { verifyContinuationProof } from "../../src-node/exec/spvVerifier.ts";
import { crossChainTransfer } from "../support/crossChain.ts";
import { type ExecChain, MINER, openExecChain } from "../support/execChain.ts";

describe("[spv] across test-transition's graph change", () => {
  let x: ExecChain;
  beforeAll(() => {
    x = openExecChain({ network: "test-transition" });
  });
  afterAll(() => x.close());

  it("proves a chain-0 output from height < 10 to chain 15's first real header", async () => {
    const step0 = crossChainTransfer({
      from: 0,
      receiver: `k:${"d".repeat(64)}`,
      receiverKeys: ["d".repeat(64)],
      amount: "1.0",
      sourceChain: 0,
      targetChain: 15,
      network: "test-transition",
    });
    x.commands.send(0, [step0]);
    await x.mine(0);
    const r = x.state.result(0, step0.hash);
    if (r === undefined) throw new Error("not mined");
    const block = x.blocks.header(r.blockHash) as BlockHeader;
    expect(block.height).toBeLessThan(10);
    const source = { blockHash: r.blockHash, position: r.position };
    // Any chain the mining service picks, until chain 15 has its first block after genesis.
    for (let i = 0; i < 1000 && x.executor.bestHead(15).height < 11; i++) {
      const work = await x.mining.work(MINER, 15);
      x.mining.submit(work.bytes.subarray(36));
    }
    const a = createSpvProof(x.blocks, source, x.executor.bestHead(15));
    if (a.kind !== "proof") throw new Error("no proof");
    expect(a.target.chainId).toBe(15);
    expect(a.target.height).toBe(11);
    expect(runSpvProof(a.proof)).toBe(a.target.hash);
    // Parent links on chain 0 up to height 10, then one hop to chain 15.
    expect(a.proof.steps.length).toBe(1 + 1 + 4 + (10 - block.height) * 4 + 4);
    const checked = verifyContinuationProof(
      { blocks: x.blocks, chainId: 15, parent: x.executor.bestHead(15), maxDepth: 20_000 },
      encodeSpvProof(a.proof),
    );
    expect(checked.ok).toBe(true);
  });
});
