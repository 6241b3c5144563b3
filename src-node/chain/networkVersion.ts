/**
 * `NetworkVersion`: everything that makes a network a network, as data (name,
 * version code, graph history, genesis, block delay, difficulty rules, gas
 * limits, rewards), and the questions every other area asks of it: which
 * chains exist at a height, where a chain starts, which chains a header at a
 * height is braided with, what a block earns.
 *
 * The instances live in `versions.ts`; docs/networks.md describes them.
 * @module
 */
import { graphHasChain } from "./chainGraph.ts";
import { ChainError, ChainErrorCode, chainInvariant } from "./errors.ts";
import {
  chainFirstHeight,
  type GraphHistory,
  graphAtHeight,
  graphChangeHeights,
} from "./graphHistory.ts";
import { type RewardSchedule, rewardPerBlock } from "./rewardSchedule.ts";

/**
 * How the target of a new block is found.
 * - `epoch-average`: the reference rule (reference chainweb-api.md §4):
 *   constant within an epoch, re-computed at epoch ends from the parent and
 *   the adjacent parents.
 * - `fixed`: every block keeps its parent's target (test networks whose
 *   genesis target is the maximal target, so that every nonce is valid).
 */
export type TargetRule = "epoch-average" | "fixed";

/**
 * `network`: a network a node can run. `test`: runnable, meant for tests.
 * `reference`: known only to read the reference ledger's data (test vectors);
 * never offered as a network to run.
 */
export type NetworkPurpose = "network" | "test" | "reference";

export type NetworkVersionSpec = {
  readonly name: string;
  /** The u32 written into every header (bytes 266–269). */
  readonly code: number;
  readonly purpose: NetworkPurpose;
  readonly description: string;
  readonly graphHistory: GraphHistory;
  /** Creation time (µs) of every genesis header, including chains added later. */
  readonly genesisTime: number;
  /** Target of each chain's genesis header (every chain of the last graph). */
  readonly genesisTargets: ReadonlyMap<number, bigint>;
  /** Intended time between blocks on one chain, µs. */
  readonly blockDelay: number;
  /** Blocks per difficulty epoch (the first `window` heights use `window / 10`). */
  readonly daWindow: number;
  readonly targetRule: TargetRule;
  /**
   * The block at height 2 starts a new epoch at the creation time of block 1,
   * because genesis times lie far before a network's first mined block.
   */
  readonly fakeFirstEpochStart: boolean;
  /** False: proof of work is not checked (the target is still computed and carried). */
  readonly checkPow: boolean;
  readonly blockGasLimit: number;
  /** Decimal string. */
  readonly minGasPrice: string;
  readonly rewardSchedule: RewardSchedule;
};

export type NetworkVersion = NetworkVersionSpec & {
  /** chain → height of its genesis block (where it first appears in the graph history). */
  readonly genesisHeights: ReadonlyMap<number, number>;
  /** Every chain the network ever has, ascending. */
  readonly chainIds: readonly number[];
};

/**
 * Completes and checks a version definition.
 * @throws {ChainError} CHAIN_INVARIANT when the data is inconsistent.
 */
export function defineNetworkVersion(spec: NetworkVersionSpec): NetworkVersion {
  const where = `version ${spec.name}`;
  if (!Number.isInteger(spec.code) || spec.code < 0 || spec.code > 0xffffffff) {
    chainInvariant(where, "version code must be a u32");
  }
  const last = spec.graphHistory[spec.graphHistory.length - 1];
  if (last === undefined) chainInvariant(where, "empty graph history");
  const chainIds = last.graph.chains;
  const genesisHeights = new Map<number, number>();
  for (const c of chainIds) {
    genesisHeights.set(c, chainFirstHeight(spec.graphHistory, c) as number);
    const t = spec.genesisTargets.get(c);
    if (t === undefined || t <= 0n || t >= 1n << 256n) {
      chainInvariant(where, `chain ${c} has no valid genesis target`);
    }
  }
  if (!Number.isSafeInteger(spec.genesisTime) || spec.genesisTime < 0) {
    chainInvariant(where, "genesis time must be non-negative µs");
  }
  if (!(spec.blockDelay > 0 && spec.daWindow > 0)) {
    chainInvariant(where, "block delay and window must be positive");
  }
  return { ...spec, genesisHeights, chainIds };
}

/** The chains of the graph at `height`, ascending. */
export function chainsAtHeight(version: NetworkVersion, height: number): readonly number[] {
  return graphAtHeight(version.graphHistory, height).chains;
}

/** Heights at which the version's graph changes, ascending. */
export function versionGraphChanges(version: NetworkVersion): number[] {
  return graphChangeHeights(version.graphHistory);
}

/**
 * The height of a chain's genesis block.
 * @throws {ChainError} CHAIN_BAD_CHAIN_ID when the network never has that chain.
 */
export function genesisHeightOf(
  version: NetworkVersion,
  chainId: number,
  field = "chainId",
): number {
  const h = version.genesisHeights.get(chainId);
  if (h === undefined) {
    throw new ChainError(
      { code: ChainErrorCode.BadChainId, field, chainId, height: -1 },
      `${field}: ${chainId} is not a chain of ${version.name}`,
    );
  }
  return h;
}

/**
 * Checks that a header on `chainId` may have height `height`: the chain
 * exists in the network and the height is not below its genesis height.
 * @throws {ChainError} CHAIN_BAD_CHAIN_ID, CHAIN_HEIGHT_OUT_OF_RANGE.
 */
export function requireChainAtHeight(
  version: NetworkVersion,
  chainId: number,
  height: number,
): void {
  const genesis = genesisHeightOf(version, chainId);
  if (!Number.isSafeInteger(height) || height < genesis) {
    throw new ChainError(
      { code: ChainErrorCode.HeightOutOfRange, field: "height", chainId, height: `${height}` },
      `height: chain ${chainId} of ${version.name} starts at height ${genesis}, got ${height}`,
    );
  }
}

/**
 * The chains a header on `chainId` at `height` carries adjacent parents for:
 * the graph at the parent's height (height − 1), or, for a genesis header,
 * the graph at its own height (reference chainweb-api.md §1.1, §2.3).
 * @throws {ChainError} CHAIN_BAD_CHAIN_ID, CHAIN_HEIGHT_OUT_OF_RANGE.
 */
export function headerAdjacentChains(
  version: NetworkVersion,
  chainId: number,
  height: number,
): readonly number[] {
  requireChainAtHeight(version, chainId, height);
  const genesis = genesisHeightOf(version, chainId);
  const graph = graphAtHeight(version.graphHistory, height === genesis ? height : height - 1);
  if (!graphHasChain(graph, chainId)) chainInvariant("graph", "chain missing after its genesis");
  return graph.adjacency.get(chainId) as readonly number[];
}

/** True when `height` is the genesis height of `chainId`. */
export function isGenesisHeight(version: NetworkVersion, chainId: number, height: number): boolean {
  return genesisHeightOf(version, chainId) === height;
}

/** The miner reward (decimal string) of one block at `height`. */
export function blockRewardAt(version: NetworkVersion, height: number): string {
  return rewardPerBlock(version.rewardSchedule, height, chainsAtHeight(version, height).length);
}
