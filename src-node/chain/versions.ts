/**
 * The network versions Weft knows, and lookups by name and code.
 *
 * Our networks are our own: they share the reference ledger's names, version
 * codes, graph histories, genesis times and genesis targets, but their genesis
 * payloads (and so their genesis hashes) are Weft's (see genesisPayload.ts).
 * `recap-development` is kept only to read reference data (its headers appear
 * in the shared test vectors); it is never offered as a network to run.
 * docs/networks.md describes each version.
 * @module
 */
import type { ChainGraph } from "./chainGraph.ts";
import { ChainError, ChainErrorCode } from "./errors.ts";
import { defineGraphHistory } from "./graphHistory.ts";
import { petersenGraph, twentyChainGraph } from "./knownGraphs.ts";
import { defineNetworkVersion, type NetworkVersion } from "./networkVersion.ts";
import { weftRewardSchedule } from "./rewardSchedule.ts";

const MAX_TARGET = (1n << 256n) - 1n;
const BLOCK_DELAY = 30_000_000; // 30 s in µs, every version (reference §4)
const DA_WINDOW = 120;
const BLOCK_GAS_LIMIT = 150_000; // reference default `gasLimitOfBlock`
const MIN_GAS_PRICE = "0.00000001"; // reference default `minGasPrice`
/** 2025-01-01T00:00:00Z: genesis time of Weft's own development and test networks. */
const WEFT_GENESIS_TIME = 1_735_689_600_000_000;

function targets(
  graph: ChainGraph,
  targetOf: (chainId: number) => bigint,
): ReadonlyMap<number, bigint> {
  return new Map(graph.chains.map((c) => [c, targetOf(c)] as const));
}

/**
 * `development` (0x02): the default network of a personal node. 20 chains
 * from genesis, an easy genesis difficulty (maxTarget / 100000, as the
 * reference devnet), proof of work checked.
 */
export const developmentVersion: NetworkVersion = defineNetworkVersion({
  name: "development",
  code: 0x02,
  purpose: "network",
  description: "personal development network: 20 chains from genesis, easy difficulty",
  graphHistory: defineGraphHistory([{ fromHeight: 0, graph: twentyChainGraph }]),
  genesisTime: WEFT_GENESIS_TIME,
  genesisTargets: targets(twentyChainGraph, () => MAX_TARGET / 100_000n),
  blockDelay: BLOCK_DELAY,
  daWindow: DA_WINDOW,
  targetRule: "epoch-average",
  fakeFirstEpochStart: true,
  checkPow: true,
  blockGasLimit: BLOCK_GAS_LIMIT,
  minGasPrice: MIN_GAS_PRICE,
  rewardSchedule: weftRewardSchedule,
});

/** `testnet04` (0x07): Petersen graph, twenty chains from height 332,604. */
export const testnet04Version: NetworkVersion = defineNetworkVersion({
  name: "testnet04",
  code: 0x07,
  purpose: "network",
  description: "test network: Petersen graph, 20 chains from height 332,604",
  graphHistory: defineGraphHistory([
    { fromHeight: 0, graph: petersenGraph },
    { fromHeight: 332_604, graph: twentyChainGraph },
  ]),
  genesisTime: 1_563_388_117_613_832, // 2019-07-17T18:28:37.613832Z
  genesisTargets: targets(twentyChainGraph, (c) =>
    c < 10 ? MAX_TARGET : 0x000000001b9bf15be43824bae4c4f17722572883f7b53ed2e8c6ba9596249235n,
  ),
  blockDelay: BLOCK_DELAY,
  daWindow: DA_WINDOW,
  targetRule: "epoch-average",
  fakeFirstEpochStart: true,
  checkPow: true,
  blockGasLimit: BLOCK_GAS_LIMIT,
  minGasPrice: MIN_GAS_PRICE,
  rewardSchedule: weftRewardSchedule,
});

/** `mainnet01` (0x05): Petersen graph, twenty chains from height 852,054. */
export const mainnet01Version: NetworkVersion = defineNetworkVersion({
  name: "mainnet01",
  code: 0x05,
  purpose: "network",
  description: "main network: Petersen graph, 20 chains from height 852,054",
  graphHistory: defineGraphHistory([
    { fromHeight: 0, graph: petersenGraph },
    { fromHeight: 852_054, graph: twentyChainGraph },
  ]),
  genesisTime: 1_572_393_660_000_000, // 2019-10-30T00:01:00Z, chains 10–19 too
  genesisTargets: targets(twentyChainGraph, (c) =>
    c < 10 ? MAX_TARGET : 0x000000000000cb73de4be95ba21db5b9178dd85974c194e3ee05717dd8afa830n,
  ),
  blockDelay: BLOCK_DELAY,
  daWindow: DA_WINDOW,
  targetRule: "epoch-average",
  fakeFirstEpochStart: true,
  checkPow: true,
  blockGasLimit: BLOCK_GAS_LIMIT,
  minGasPrice: MIN_GAS_PRICE,
  rewardSchedule: weftRewardSchedule,
});

/**
 * `test-singleton` (0x80000001, a code with the high bit set, which no
 * reference network uses): the 10-chain Petersen graph, and the maximal
 * target kept forever, so every nonce is a valid proof of work.
 */
export const testSingletonVersion: NetworkVersion = defineNetworkVersion({
  name: "test-singleton",
  code: 0x8000_0001,
  purpose: "test",
  description: "tests: 10 chains (Petersen), trivial difficulty (every nonce is valid)",
  graphHistory: defineGraphHistory([{ fromHeight: 0, graph: petersenGraph }]),
  genesisTime: WEFT_GENESIS_TIME,
  genesisTargets: targets(petersenGraph, () => MAX_TARGET),
  blockDelay: BLOCK_DELAY,
  daWindow: DA_WINDOW,
  targetRule: "fixed",
  fakeFirstEpochStart: true,
  checkPow: true,
  blockGasLimit: BLOCK_GAS_LIMIT,
  minGasPrice: MIN_GAS_PRICE,
  rewardSchedule: weftRewardSchedule,
});

/**
 * `test-transition` (0x80000002): like test-singleton, but the graph changes
 * from Petersen (10 chains) to twenty chains at height 10, so graph-change
 * rules can be exercised in a few blocks.
 */
export const testTransitionVersion: NetworkVersion = defineNetworkVersion({
  name: "test-transition",
  code: 0x8000_0002,
  purpose: "test",
  description: "tests: 10 chains, 20 from height 10, trivial difficulty",
  graphHistory: defineGraphHistory([
    { fromHeight: 0, graph: petersenGraph },
    { fromHeight: 10, graph: twentyChainGraph },
  ]),
  genesisTime: WEFT_GENESIS_TIME,
  genesisTargets: targets(twentyChainGraph, () => MAX_TARGET),
  blockDelay: BLOCK_DELAY,
  daWindow: DA_WINDOW,
  targetRule: "fixed",
  fakeFirstEpochStart: true,
  checkPow: true,
  blockGasLimit: BLOCK_GAS_LIMIT,
  minGasPrice: MIN_GAS_PRICE,
  rewardSchedule: weftRewardSchedule,
});

/** `recap-development` (0x01): reference data only (vectors); not runnable. */
export const recapDevelopmentVersion: NetworkVersion = defineNetworkVersion({
  name: "recap-development",
  code: 0x01,
  purpose: "reference",
  description: "reference devnet, known only to read its headers",
  graphHistory: defineGraphHistory([
    { fromHeight: 0, graph: petersenGraph },
    { fromHeight: 60, graph: twentyChainGraph },
  ]),
  genesisTime: 1_563_388_117_613_832,
  genesisTargets: targets(twentyChainGraph, (c) =>
    c < 10
      ? MAX_TARGET / 100_000n
      : 0x0000088f99632cadf39b0db7655be62cb7dbc84ebbd9a90e5b5756d3e7d9196cn,
  ),
  blockDelay: BLOCK_DELAY,
  daWindow: DA_WINDOW,
  targetRule: "epoch-average",
  fakeFirstEpochStart: false,
  checkPow: true,
  blockGasLimit: BLOCK_GAS_LIMIT,
  minGasPrice: MIN_GAS_PRICE,
  rewardSchedule: weftRewardSchedule,
});

/** Every known version, runnable or not. */
export const knownVersions: readonly NetworkVersion[] = [
  developmentVersion,
  testnet04Version,
  mainnet01Version,
  testSingletonVersion,
  testTransitionVersion,
  recapDevelopmentVersion,
];

/** The versions a node can run (the spec's `nodeVersion` values plus test-transition). */
export const runnableVersions: readonly NetworkVersion[] = knownVersions.filter(
  (v) => v.purpose !== "reference",
);

/** The network a personal node runs when none is configured. */
export const defaultVersion: NetworkVersion = developmentVersion;

/** The version with this name, or undefined. */
export function findVersionByName(name: string): NetworkVersion | undefined {
  return knownVersions.find((v) => v.name === name);
}

/** The version with this code, or undefined. */
export function findVersionByCode(code: number): NetworkVersion | undefined {
  return knownVersions.find((v) => v.code === code);
}

/**
 * The version with this name.
 * @throws {ChainError} CHAIN_UNKNOWN_VERSION naming `field`.
 */
export function versionByName(name: string, field = "ledgerVersion"): NetworkVersion {
  const v = findVersionByName(name);
  if (v === undefined) {
    throw new ChainError(
      { code: ChainErrorCode.UnknownVersion, field, value: String(name) },
      `${field}: unknown network version ${JSON.stringify(name)}`,
    );
  }
  return v;
}

/**
 * The version with this code.
 * @throws {ChainError} CHAIN_UNKNOWN_VERSION naming `field`.
 */
export function versionByCode(code: number, field = "versionCode"): NetworkVersion {
  const v = findVersionByCode(code);
  if (v === undefined) {
    throw new ChainError(
      { code: ChainErrorCode.UnknownVersion, field, value: `0x${code.toString(16)}` },
      `${field}: unknown network version code 0x${code.toString(16)}`,
    );
  }
  return v;
}
