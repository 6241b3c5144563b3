/**
 * SPV proofs on a test-singleton chain database with real execution: step 0
 * of a cross-chain transfer on chain 0, mined; the proof of its output for
 * chain 1 (two hops away: 0 → 3 → 1 in the Petersen graph) and for chain 0
 * itself; verification against chain 1's history: valid, tampered subject,
 * tampered step, wrong chain, expired by depth, root on a fork, subject
 * without a continuation; spvRoute across test-transition's graph change.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HeaderLeaf } from "../../src-node/chain/blockHash.ts";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { cutExtension } from "../../src-node/chain/cutExtension.ts";
import { headerProofSteps } from "../../src-node/chain/merkleProofPaths.ts";
import {
  decodeSpvProof,
  encodeSpvProof,
  runSpvProof,
  type SpvProof,
} from "../../src-node/chain/spvProof.ts";
import { versionByName } from "../../src-node/chain/versions.ts";
import type { PactExec } from "../../src-node/contract/storage/pactExec.ts";
import { makeObject, pString } from "../../src-node/contract/values/value.ts";
import { createSpvProof } from "../../src-node/exec/createSpvProof.ts";
import { spvRoute } from "../../src-node/exec/spvRoute.ts";
import {
  type SpvVerifierContext,
  verifyContinuationProof,
  verifyTxOutProof,
} from "../../src-node/exec/spvVerifier.ts";
import { crossChainTransfer } from "../support/crossChain.ts";
import { type ExecChain, MINER, openExecChain, signedCommand } from "../support/execChain.ts";

const RECEIVER_KEY = "a".repeat(64);
const RECEIVER = `k:${RECEIVER_KEY}`;

/** Mines (on whatever chain the mining service picks) until `chainId` can be extended. */
async function readyOn(x: ExecChain, chainId: number): Promise<void> {
  const parentOf = (h: BlockHeader) => x.blocks.header(h.parent);
  for (let i = 0; i < 100; i++) {
    if (cutExtension(x.blocks.cut(), x.version, chainId, parentOf).status === "ready") return;
    const work = await x.mining.work(MINER, chainId);
    x.mining.submit(work.bytes.subarray(36));
  }
  throw new Error(`chain ${chainId} never became extendable`);
}

function head(x: ExecChain, chainId: number): BlockHeader {
  return x.executor.bestHead(chainId);
}

function proofOf(a: ReturnType<typeof createSpvProof>): { proof: SpvProof; target: BlockHeader } {
  if (a.kind !== "proof") throw new Error(`no proof yet: needs height ${a.neededHeight}`);
  return a;
}

function flipByte(bytes: Uint8Array, at: number): Uint8Array {
  const out = bytes.slice();
  out[at] = (out[at] as number) ^ 0x01;
  return out;
}

describe("[spv] proofs of a cross-chain transfer's step 0", () => {
  let x: ExecChain;
  let block: BlockHeader;
  let position: number;
  let requestKey: string;

  beforeAll(async () => {
    x = openExecChain();
    const step0 = crossChainTransfer({
      from: 0,
      receiver: RECEIVER,
      receiverKeys: [RECEIVER_KEY],
      amount: "2.5",
      sourceChain: 0,
      targetChain: 1,
    });
    requestKey = step0.hash;
    x.commands.send(0, [step0]);
    await x.mine(0);
    const r = x.state.result(0, requestKey);
    if (r === undefined) throw new Error("step 0 was not mined");
    block = x.blocks.header(r.blockHash) as BlockHeader;
    position = r.position;
    expect(JSON.parse(r.output).result.status).toBe("success");
  });
  afterAll(() => x.close());

  const ctx = (over: Partial<SpvVerifierContext> = {}): SpvVerifierContext => ({
    blocks: x.blocks,
    chainId: 1,
    parent: head(x, 1),
    maxDepth: 20_000,
    ...over,
  });
  const source = () => ({ blockHash: block.hash, position });

  it("waits while the target chain is below the source height + distance", () => {
    // Chain 1 at height + 2 needs chain 3 at height + 1, which needs the block itself.
    const h1 = head(x, 1);
    expect(h1.height).toBeLessThan(block.height + 2);
    expect(createSpvProof(x.blocks, source(), h1)).toEqual({
      kind: "wait",
      neededHeight: block.height + 2,
    });
  });

  it("proves the output up to chain 1's header at height + 2 (two hops)", async () => {
    while (head(x, 1).height < block.height + 3) await x.mine(1);
    const { proof, target } = proofOf(createSpvProof(x.blocks, source(), head(x, 1)));
    expect(target.chainId).toBe(1);
    expect(target.height).toBe(block.height + 2);
    expect(x.blocks.ancestorAt(head(x, 1), target.height)?.hash).toBe(target.hash);
    expect(runSpvProof(proof)).toBe(target.hash);
    expect(proof.chain).toBe(1);
    expect(proof.position).toBe(BigInt(position + 1));
    // Outputs tree (2 leaves: coinbase and the transfer) 1 step, payload 1, header 4, 2 hops × 4.
    expect(proof.steps.length).toBe(1 + 1 + 4 + 2 * 4);
    const text = encodeSpvProof(proof);
    expect(decodeSpvProof(text)).toEqual(proof);
    const json = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    expect(Object.keys(json)).toEqual(["chain", "object", "subject", "algorithm"]);
    expect(json.subject.input.startsWith("ABR7")).toBe(true);
    expect(json.algorithm).toBe("SHA512t_256");
  });

  it("proves it on the source chain itself with the block as root (6 steps)", () => {
    const { proof, target } = proofOf(createSpvProof(x.blocks, source(), head(x, 0)));
    expect(target.hash).toBe(block.hash);
    expect(proof.steps.length).toBe(6);
    expect(runSpvProof(proof)).toBe(block.hash);
  });

  it("verifies on chain 1: the proven defpact state", () => {
    const { proof } = proofOf(createSpvProof(x.blocks, source(), head(x, 1)));
    const r = verifyContinuationProof(ctx(), encodeSpvProof(proof));
    expect(r.ok).toBe(true);
    const exec = (r as { value: PactExec }).value;
    expect(exec.pactId).toBe(requestKey);
    expect(exec.step).toBe(0);
    expect(exec.stepCount).toBe(2);
    expect(exec.continuation.def).toBe("coin.transfer-crosschain");
    expect(exec.yield?.provenance?.targetChainId).toBe("1");
  });

  it("refuses a tampered subject, a tampered step and junk", () => {
    const { proof } = proofOf(createSpvProof(x.blocks, source(), head(x, 1)));
    const subject = flipByte(proof.subject, 40);
    const badSubject = verifyContinuationProof(ctx(), encodeSpvProof({ ...proof, subject }));
    expect(badSubject).toMatchObject({ ok: false });
    expect((badSubject as { error: string }).error).toContain(
      "target header is not in the chain or is out of bounds",
    );
    const steps = proof.steps.map((s, i) =>
      i === 7 ? { ...s, sibling: flipByte(s.sibling, 3) } : s,
    );
    expect(verifyContinuationProof(ctx(), encodeSpvProof({ ...proof, steps }))).toMatchObject({
      ok: false,
    });
    const sides = proof.steps.map((s, i) => (i === 2 ? { ...s, side: (1 - s.side) as 0 | 1 } : s));
    expect(
      verifyContinuationProof(ctx(), encodeSpvProof({ ...proof, steps: sides })),
    ).toMatchObject({ ok: false });
    const junk = verifyContinuationProof(ctx(), "not a proof");
    expect((junk as { error: string }).error).toMatch(/^Cannot decode transaction output proof: /);
  });

  it("refuses a proof for another chain, and this proof on another chain", () => {
    const forChain2 = proofOf(createSpvProof(x.blocks, source(), head(x, 2))).proof;
    expect(runSpvProof(forChain2)).toBe(
      x.blocks.ancestorAt(head(x, 2), block.height + 1)?.hash, // 0 and 2 are adjacent
    );
    const r = verifyContinuationProof(ctx(), encodeSpvProof(forChain2));
    expect((r as { error: string }).error).toContain(
      "cannot redeem continuation proof on wrong target chain (the proof is for chain 2, this is chain 1)",
    );
    const forChain1 = proofOf(createSpvProof(x.blocks, source(), head(x, 1))).proof;
    const onChain2 = verifyContinuationProof(
      ctx({ chainId: 2, parent: head(x, 2) }),
      encodeSpvProof(forChain1),
    );
    expect((onChain2 as { error: string }).error).toContain("wrong target chain");
  });

  it("expires once the root is more than maxDepth blocks below the parent", () => {
    const { proof, target } = proofOf(createSpvProof(x.blocks, source(), head(x, 1)));
    const text = encodeSpvProof(proof);
    const parent = head(x, 1);
    const depth = parent.height - target.height;
    expect(depth).toBeGreaterThan(0);
    expect(verifyContinuationProof(ctx({ maxDepth: depth }), text).ok).toBe(true);
    const expired = verifyContinuationProof(ctx({ maxDepth: depth - 1 }), text);
    expect((expired as { error: string }).error).toContain("the proof has expired");
    // A parent below the root: the root is not (yet) in its history.
    const below = x.blocks.ancestorAt(parent, target.height - 1) as BlockHeader;
    const early = verifyContinuationProof(ctx({ parent: below }), text);
    expect((early as { error: string }).error).toContain("target header is not in the chain");
  });

  it("refuses a root that is on a fork of the target chain", async () => {
    // Two blocks on the same parent of chain 1: one is on the best chain, the other a fork.
    await readyOn(x, 1);
    const a = x.nextBlock(1, [], MINER);
    const b = x.nextBlock(1, [], { account: "fork-miner", predicate: "keys-all", publicKeys: [] });
    x.blocks.insertBlock(a);
    x.blocks.insertBlock(b);
    const best = head(x, 1);
    const side = best.hash === a.header.hash ? b.header : a.header;
    expect(side.hash).not.toBe(best.hash);
    expect(side.parent).toBe(best.parent);
    // The proof up to the target header, then parent links up to `top`.
    const { proof, target } = proofOf(createSpvProof(x.blocks, source(), best));
    const upTo = (top: BlockHeader): string => {
      const path: BlockHeader[] = [];
      for (let h: BlockHeader | undefined = top; h !== undefined && h.height > target.height; ) {
        path.unshift(h);
        h = x.blocks.header(h.parent);
      }
      const steps = [...proof.steps];
      for (const h of path) steps.push(...headerProofSteps(h, HeaderLeaf.parent));
      const extended = { ...proof, steps };
      expect(runSpvProof(extended)).toBe(top.hash);
      return encodeSpvProof(extended);
    };
    const r = verifyContinuationProof(ctx({ parent: best }), upTo(side));
    expect((r as { error: string }).error).toContain("target header is not in the chain");
    expect(verifyContinuationProof(ctx({ parent: best }), upTo(best)).ok).toBe(true);
  });

  it("refuses an output without a continuation, and a subject that is not an output", async () => {
    const plain = signedCommand({ code: "(+ 1 2)", chainId: 1 });
    x.commands.send(1, [plain]);
    await x.mine(1);
    const r = x.state.result(1, plain.hash);
    if (r === undefined) throw new Error("not mined");
    const { proof } = proofOf(
      createSpvProof(x.blocks, { blockHash: r.blockHash, position: r.position }, head(x, 1)),
    );
    const text = encodeSpvProof(proof);
    const none = verifyContinuationProof(ctx(), text);
    expect((none as { error: string }).error).toBe("No pact exec found in command result");
    // verify-spv TXOUT gives the data of a successful result when it is an object.
    const obj = (p: SpvProof) => {
      const j = JSON.parse(Buffer.from(encodeSpvProof(p), "base64url").toString("utf8"));
      return makeObject([
        ["chain", { kind: "integer", value: BigInt(j.chain) }],
        ["object", pString(j.object)],
        ["subject", makeObject([["input", pString(j.subject.input)]])],
        ["algorithm", pString(j.algorithm)],
      ]);
    };
    const txout = verifyTxOutProof(ctx(), "TXOUT", obj(proof));
    expect((txout as { error: string }).error).toBe(
      "the proven command result's data is not an object",
    );
    expect((verifyTxOutProof(ctx(), "ETH", obj(proof)) as { error: string }).error).toContain(
      "unsupported SPV type ETH",
    );
    // A subject with another tag (a transaction, 0x0013) never counts as an output.
    const retagged = proof.subject.slice();
    retagged[1] = 0x13;
    const asTx = verifyContinuationProof(ctx(), encodeSpvProof({ ...proof, subject: retagged }));
    expect(asTx.ok).toBe(false);
  });
});

describe("[spv] target heights", () => {
  it("is source height + graph distance on one graph", () => {
    const v = versionByName("test-singleton");
    expect(spvRoute(v, 0, 5, 0)?.targetHeight).toBe(5);
    expect(spvRoute(v, 0, 5, 2)?.targetHeight).toBe(6);
    expect(spvRoute(v, 0, 5, 1)?.targetHeight).toBe(7);
    const r = spvRoute(v, 0, 5, 1);
    expect([...(r?.reach[1] ?? [])].sort()).toEqual([0, 2, 3, 5]);
  });

  it("goes around a graph change: new chains are reached through their first real headers", () => {
    const v = versionByName("test-transition");
    // Chain 15 starts at height 10 (genesis); its block 11 has chain 0's block 10 as a parent.
    expect(spvRoute(v, 0, 3, 15)?.targetHeight).toBe(11);
    expect(spvRoute(v, 0, 9, 15)?.targetHeight).toBe(11);
    expect(spvRoute(v, 0, 10, 15)?.targetHeight).toBe(11);
    expect(spvRoute(v, 15, 10, 0)?.targetHeight).toBe(11);
  });
});
