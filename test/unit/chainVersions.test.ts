/**
 * Chain graphs, graph histories and network versions: lookups, chains and
 * adjacency at heights around graph changes, genesis heights, rewards, and
 * the checks on graph and version data.
 */
import { describe, expect, it } from "vitest";
import {
  adjacentChains,
  chainDistance,
  defineChainGraph,
  shortestChainPath,
} from "../../src-node/chain/chainGraph.ts";
import {
  defineGraphHistory,
  graphAtHeight,
  graphChangeHeights,
} from "../../src-node/chain/graphHistory.ts";
import { petersenGraph, twentyChainGraph } from "../../src-node/chain/knownGraphs.ts";
import {
  blockRewardAt,
  chainsAtHeight,
  genesisHeightOf,
  headerAdjacentChains,
  isGenesisHeight,
  requireChainAtHeight,
} from "../../src-node/chain/networkVersion.ts";
import { rewardPerBlock, weftRewardSchedule } from "../../src-node/chain/rewardSchedule.ts";
import {
  defaultVersion,
  developmentVersion,
  findVersionByCode,
  knownVersions,
  mainnet01Version,
  runnableVersions,
  testnet04Version,
  testSingletonVersion,
  testTransitionVersion,
  versionByCode,
  versionByName,
} from "../../src-node/chain/versions.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isNodeError(e)) return e.code;
    throw e;
  }
  return "no error";
}

describe("[chain] graphs", () => {
  it("Petersen: 10 chains, degree 3, diameter 2; twenty: 20, 3, 3", () => {
    expect([petersenGraph.chains.length, petersenGraph.degree, petersenGraph.diameter]).toEqual([
      10, 3, 2,
    ]);
    expect([
      twentyChainGraph.chains.length,
      twentyChainGraph.degree,
      twentyChainGraph.diameter,
    ]).toEqual([20, 3, 3]);
  });
  it("adjacency, distance and shortest path", () => {
    expect(adjacentChains(twentyChainGraph, 0)).toEqual([5, 10, 15]);
    expect(adjacentChains(twentyChainGraph, 18)).toEqual([3, 17, 19]);
    expect(chainDistance(twentyChainGraph, 0, 1)).toBe(3);
    // smallest next chain that stays on a shortest path: 0 → 10 → 11 → 1
    expect(shortestChainPath(twentyChainGraph, 0, 1)).toEqual([0, 10, 11, 1]);
    expect(shortestChainPath(petersenGraph, 3, 3)).toEqual([3]);
  });
  it("rejects unknown chains with CHAIN_BAD_CHAIN_ID", () => {
    expect(codeOf(() => adjacentChains(petersenGraph, 10))).toBe("CHAIN_BAD_CHAIN_ID");
    expect(codeOf(() => chainDistance(petersenGraph, 0, 11))).toBe("CHAIN_BAD_CHAIN_ID");
  });
  it("refuses graphs that are not symmetric, regular, loop-free and connected", () => {
    expect(codeOf(() => defineChainGraph("x", { 0: [1], 1: [] }))).toBe("CHAIN_INVARIANT");
    expect(codeOf(() => defineChainGraph("x", { 0: [0] }))).toBe("CHAIN_INVARIANT");
    expect(codeOf(() => defineChainGraph("x", { 0: [1], 1: [0, 2], 2: [1] }))).toBe(
      "CHAIN_INVARIANT",
    );
    expect(codeOf(() => defineChainGraph("x", { 0: [1], 1: [0], 2: [3], 3: [2] }))).toBe(
      "CHAIN_INVARIANT",
    );
  });
});

describe("[chain] graph history", () => {
  const h = testTransitionVersion.graphHistory;
  it("the graph at h is the entry with the largest start height ≤ h", () => {
    expect(graphAtHeight(h, 0).name).toBe("petersen");
    expect(graphAtHeight(h, 9).name).toBe("petersen");
    expect(graphAtHeight(h, 10).name).toBe("twentyChain");
    expect(graphAtHeight(h, 1_000_000).name).toBe("twentyChain");
    expect(graphChangeHeights(h)).toEqual([10]);
    expect(codeOf(() => graphAtHeight(h, -1))).toBe("CHAIN_HEIGHT_OUT_OF_RANGE");
  });
  it("refuses histories that do not start at 0, are not ascending, or lose chains", () => {
    expect(codeOf(() => defineGraphHistory([]))).toBe("CHAIN_INVARIANT");
    expect(codeOf(() => defineGraphHistory([{ fromHeight: 1, graph: petersenGraph }]))).toBe(
      "CHAIN_INVARIANT",
    );
    expect(
      codeOf(() =>
        defineGraphHistory([
          { fromHeight: 0, graph: twentyChainGraph },
          { fromHeight: 5, graph: petersenGraph },
        ]),
      ),
    ).toBe("CHAIN_INVARIANT");
  });
});

describe("[chain] network versions", () => {
  it("has the versions and codes of the brief", () => {
    expect(knownVersions.map((v) => [v.name, v.code])).toEqual([
      ["development", 0x02],
      ["testnet04", 0x07],
      ["mainnet01", 0x05],
      ["test-singleton", 0x80000001],
      ["test-transition", 0x80000002],
      ["recap-development", 0x01],
    ]);
    expect(runnableVersions.map((v) => v.name)).not.toContain("recap-development");
    expect(defaultVersion).toBe(developmentVersion);
    expect(new Set(knownVersions.map((v) => v.code)).size).toBe(knownVersions.length);
  });
  it("looks versions up by name and code, with coded errors", () => {
    expect(versionByName("mainnet01")).toBe(mainnet01Version);
    expect(versionByCode(7)).toBe(testnet04Version);
    expect(findVersionByCode(3)).toBeUndefined();
    expect(codeOf(() => versionByName("mainnet02"))).toBe("CHAIN_UNKNOWN_VERSION");
    expect(codeOf(() => versionByCode(3))).toBe("CHAIN_UNKNOWN_VERSION");
  });
  it("development: 20 chains from genesis, PoW checked, DA", () => {
    expect(chainsAtHeight(developmentVersion, 0)).toHaveLength(20);
    expect([...developmentVersion.genesisHeights.values()].every((h) => h === 0)).toBe(true);
    expect(developmentVersion.checkPow).toBe(true);
    expect(developmentVersion.targetRule).toBe("epoch-average");
    expect(developmentVersion.blockDelay).toBe(30_000_000);
  });
  it("test-singleton: Petersen, maximal fixed target", () => {
    expect(testSingletonVersion.chainIds).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([...testSingletonVersion.genesisTargets.values()]).toEqual(
      Array(10).fill((1n << 256n) - 1n),
    );
    expect(testSingletonVersion.targetRule).toBe("fixed");
  });
  it("mainnet01 and testnet04 add chains 10–19 at their transition heights", () => {
    expect(genesisHeightOf(mainnet01Version, 9)).toBe(0);
    expect(genesisHeightOf(mainnet01Version, 10)).toBe(852_054);
    expect(genesisHeightOf(testnet04Version, 19)).toBe(332_604);
    expect(chainsAtHeight(mainnet01Version, 852_053)).toHaveLength(10);
    expect(chainsAtHeight(mainnet01Version, 852_054)).toHaveLength(20);
  });
  it("adjacent chains of a header come from the graph at its parent's height (genesis: its own)", () => {
    const v = testTransitionVersion;
    expect(headerAdjacentChains(v, 0, 10)).toEqual([2, 3, 5]); // parent at 9: Petersen
    expect(headerAdjacentChains(v, 0, 11)).toEqual([5, 10, 15]);
    expect(headerAdjacentChains(v, 10, 10)).toEqual([0, 11, 19]); // genesis of chain 10
    expect(headerAdjacentChains(v, 0, 0)).toEqual([2, 3, 5]);
    expect(isGenesisHeight(v, 10, 10)).toBe(true);
    expect(isGenesisHeight(v, 0, 10)).toBe(false);
    expect(codeOf(() => headerAdjacentChains(v, 10, 9))).toBe("CHAIN_HEIGHT_OUT_OF_RANGE");
    expect(codeOf(() => requireChainAtHeight(v, 20, 100))).toBe("CHAIN_BAD_CHAIN_ID");
    expect(codeOf(() => genesisHeightOf(testSingletonVersion, 10))).toBe("CHAIN_BAD_CHAIN_ID");
  });
  it("rewards: the schedule row divided by the number of chains at that height", () => {
    expect(blockRewardAt(testSingletonVersion, 1)).toBe("2.4");
    expect(blockRewardAt(developmentVersion, 1)).toBe("1.2");
    expect(blockRewardAt(testTransitionVersion, 9)).toBe("2.4");
    expect(blockRewardAt(testTransitionVersion, 10)).toBe("1.2");
    expect(blockRewardAt(developmentVersion, 1_051_200)).toBe("1.2");
    expect(blockRewardAt(developmentVersion, 1_051_201)).toBe("1.05");
    expect(blockRewardAt(developmentVersion, 8 * 1_051_200 + 1)).toBe("0.0");
    expect(rewardPerBlock([{ untilHeight: 10, reward: "23.04523" }], 3, 10)).toBe("2.304523");
    expect(rewardPerBlock([{ untilHeight: 10, reward: "23.04523" }], 3, 20)).toBe("1.1522615");
    expect(rewardPerBlock([{ untilHeight: 10, reward: "1.0" }], 3, 3)).toBe("0.333333333333333333");
    expect(weftRewardSchedule).toHaveLength(8);
  });
});
