/**
 * Cuts: mining a simulated chainweb keeps every cut braided and every block
 * valid, neighbours that are behind block a chain, a graph change (10 → 20
 * chains at height 10) blocks change-height heads until all chains reach it
 * and then adds the new chains, and cuts limit to a cut height.
 */
import { describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import {
  cutHeight,
  cutId,
  cutMaxHeight,
  cutMinHeight,
  cutOf,
  cutWeight,
} from "../../src-node/chain/cut.ts";
import { checkCutBraiding, cutBraidingProblems } from "../../src-node/chain/cutBraiding.ts";
import { cutExtension, extendableChains, extendCut } from "../../src-node/chain/cutExtension.ts";
import { cutToJson } from "../../src-node/chain/cutJson.ts";
import { headerValidationFailures } from "../../src-node/chain/headerValidation.ts";
import { limitCut } from "../../src-node/chain/limitCut.ts";
import { testSingletonVersion, testTransitionVersion } from "../../src-node/chain/versions.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { simChainweb } from "../support/chainSimulator.ts";

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isNodeError(e)) return e.code;
    throw e;
  }
  return "no error";
}

/** Mines `rounds` times on every chain that can be extended, in ascending order. */
function mineRounds(sim: ReturnType<typeof simChainweb>, rounds: number): BlockHeader[] {
  const mined: BlockHeader[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const c of extendableChains(sim.cut, sim.version, sim.parentOf)) {
      if (cutExtension(sim.cut, sim.version, c, sim.parentOf).status === "ready") {
        mined.push(sim.mine(c));
      }
    }
  }
  return mined;
}

describe("[chain] cuts on a 10-chain network", () => {
  it("the genesis cut is braided, height 0, weight 0", () => {
    const sim = simChainweb(testSingletonVersion);
    expect(sim.cut.size).toBe(10);
    expect(cutHeight(sim.cut)).toBe(0);
    expect(cutWeight(sim.cut)).toBe(0n);
    expect(cutBraidingProblems(sim.cut, sim.version)).toEqual([]);
    expect(cutId(sim.cut)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("a chain whose neighbours are behind is blocked", () => {
    const sim = simChainweb(testSingletonVersion);
    sim.mine(0);
    const ext = cutExtension(sim.cut, sim.version, 0, sim.parentOf);
    expect(ext).toEqual({ status: "blocked", chainId: 0, reason: "behind", blockedBy: 2 });
    expect(() => sim.mine(0)).toThrow();
    expect(extendableChains(sim.cut, sim.version, sim.parentOf)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    // chain 2's neighbour 0 is ahead: chain 2 builds on chain 0's parent (its genesis)
    const ext2 = cutExtension(sim.cut, sim.version, 2, sim.parentOf);
    expect(ext2.status).toBe("ready");
    if (ext2.status === "ready") {
      expect(ext2.adjacentParents.map((a) => [a.chainId, a.height])).toEqual([
        [0, 0],
        [4, 0],
        [7, 0],
      ]);
    }
  });

  it("mining keeps cuts braided and every block valid; height and weight add up", () => {
    const sim = simChainweb(testSingletonVersion);
    const mined = mineRounds(sim, 12);
    expect(mined.length).toBeGreaterThan(100);
    for (const h of mined) {
      expect(headerValidationFailures(sim.validationInput(h)).map((e) => e.message)).toEqual([]);
    }
    checkCutBraiding(sim.cut, sim.version);
    expect(cutHeight(sim.cut)).toBe([...sim.cut.values()].reduce((s, h) => s + h.height, 0));
    expect(cutWeight(sim.cut)).toBe([...sim.cut.values()].reduce((s, h) => s + h.weight, 0n));
    expect(cutMaxHeight(sim.cut) - cutMinHeight(sim.cut)).toBeLessThanOrEqual(2);
  });

  it("serializes as GET /cut does", () => {
    const sim = simChainweb(testSingletonVersion);
    mineRounds(sim, 2);
    const json = cutToJson(sim.cut, sim.version);
    expect(Object.keys(json)).toEqual(["hashes", "origin", "weight", "height", "instance", "id"]);
    expect(Object.keys(json.hashes)).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(json.hashes["3"]).toEqual({
      height: (sim.cut.get(3) as BlockHeader).height,
      hash: (sim.cut.get(3) as BlockHeader).hash,
    });
    expect(json.height).toBe(cutHeight(sim.cut));
    expect(json.instance).toBe("test-singleton");
    expect(json.origin).toBeNull();
    expect(json.id).toBe(cutId(sim.cut));
    expect(Buffer.from(json.weight, "base64url").readUInt8(0)).toBe(
      Number(cutWeight(sim.cut) & 0xffn),
    );
  });

  it("the cut id depends on the heads only, in ascending chain order", () => {
    const sim = simChainweb(testSingletonVersion);
    mineRounds(sim, 2);
    const reversed = cutOf([...sim.cut.values()].reverse());
    expect(cutId(reversed)).toBe(cutId(sim.cut));
    const before = cutId(sim.cut);
    sim.mine(extendableChains(sim.cut, sim.version, sim.parentOf)[0] as number);
    expect(cutId(sim.cut)).not.toBe(before);
  });

  it("limits a cut to a cut height through ancestors", () => {
    const sim = simChainweb(testSingletonVersion);
    mineRounds(sim, 10);
    const limited = limitCut(sim.cut, sim.version, 55, sim.ancestorAt);
    expect([...limited.values()].every((h) => h.height <= 5)).toBe(true);
    expect(cutHeight(limited)).toBeLessThanOrEqual(55);
    checkCutBraiding(limited, sim.version);
    const same = limitCut(sim.cut, sim.version, cutHeight(sim.cut) * 10, sim.ancestorAt);
    expect(cutId(same)).toBe(cutId(sim.cut));
    expect(codeOf(() => limitCut(sim.cut, sim.version, 0, () => undefined))).toBe(
      "CHAIN_INVALID_CUT",
    );
  });

  it("refuses headers that do not extend the cut, and finds unbraided cuts", () => {
    const sim = simChainweb(testSingletonVersion);
    mineRounds(sim, 3);
    const head0 = sim.cut.get(0) as BlockHeader;
    expect(codeOf(() => extendCut(sim.cut, head0))).toBe("CHAIN_NOT_MONOTONIC");
    const old = sim.ancestorAt(sim.cut.get(1) as BlockHeader, 0) as BlockHeader;
    const broken = cutOf([...[...sim.cut.values()].filter((h) => h.chainId !== 1), old]);
    expect(cutBraidingProblems(broken, sim.version).length).toBeGreaterThan(0);
    expect(codeOf(() => checkCutBraiding(broken, sim.version))).toBe("CHAIN_INVALID_CUT");
    const missing = cutOf([...sim.cut.values()].filter((h) => h.chainId !== 9));
    expect(cutBraidingProblems(missing, sim.version)[0]).toMatch(/chains/);
    expect(codeOf(() => cutExtension(missing, sim.version, 4, sim.parentOf))).toBe(
      "CHAIN_INVALID_CUT",
    );
  });
});

describe("[chain] a graph change from 10 to 20 chains at height 10 (test-transition)", () => {
  it("blocks change-height heads until all chains reach it, then adds chains 10–19", () => {
    const sim = simChainweb(testTransitionVersion);
    // bring chain 0 to height 10 while others lag
    let guard = 0;
    while ((sim.cut.get(0) as BlockHeader).height < 10 && guard++ < 1000) {
      for (const c of extendableChains(sim.cut, sim.version, sim.parentOf)) {
        if ((sim.cut.get(c) as BlockHeader).height < 10) sim.mine(c);
        if ((sim.cut.get(0) as BlockHeader).height >= 10) break;
      }
    }
    expect((sim.cut.get(0) as BlockHeader).height).toBe(10);
    expect(sim.cut.size).toBe(10);
    if (cutMinHeight(sim.cut) < 10) {
      expect(cutExtension(sim.cut, sim.version, 0, sim.parentOf)).toEqual({
        status: "blocked",
        chainId: 0,
        reason: "transition",
        blockedBy: null,
      });
    }
    // Chain 0's block at height 10 still has Petersen adjacents (parent height 9).
    expect((sim.cut.get(0) as BlockHeader).adjacents.map((a) => a.chainId)).toEqual([2, 3, 5]);
    // Bring all old chains to 10: the new chains join with their genesis headers.
    while (cutMinHeight(sim.cut) < 10 && guard++ < 2000) {
      for (const c of extendableChains(sim.cut, sim.version, sim.parentOf)) {
        if ((sim.cut.get(c) as BlockHeader).height < 10) sim.mine(c);
      }
    }
    expect(sim.cut.size).toBe(20);
    expect(cutMinHeight(sim.cut)).toBe(10);
    checkCutBraiding(sim.cut, sim.version);
    const mined = mineRounds(sim, 4);
    const first0 = mined.find((h) => h.chainId === 0 && h.height === 11);
    expect(first0?.adjacents.map((a) => a.chainId)).toEqual([5, 10, 15]);
    const first10 = mined.find((h) => h.chainId === 10 && h.height === 11);
    const second10 = mined.find((h) => h.chainId === 10 && h.height === 12);
    expect(first10?.adjacents.map((a) => a.chainId)).toEqual([0, 11, 19]);
    // the first mined block on a new chain inherits the (old) genesis epoch start;
    // the next one restarts the epoch at that block's creation time
    expect(first10?.epochStart).toBe(sim.version.genesisTime);
    expect(second10?.epochStart).toBe(first10?.creationTime);
    for (const h of [...sim.headers.values()].filter(
      (x) => x.height > (sim.version.genesisHeights.get(x.chainId) ?? 0),
    )) {
      expect(headerValidationFailures(sim.validationInput(h)).map((e) => e.message)).toEqual([]);
    }
    checkCutBraiding(sim.cut, sim.version);
  });
});
