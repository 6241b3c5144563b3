/**
 * Genesis headers (reference chainweb-api.md §3): feature flags 0, the
 * version's genesis time as creation time and epoch start, the genesis parent
 * hash as parent, the genesis parent hashes of the adjacent chains (graph at
 * the genesis height) as adjacent parents, the chain's genesis target, weight
 * 0, the height where the chain first appears, nonce 0.
 *
 * {@link buildGenesisHeader} takes every parameter explicitly, so it also
 * rebuilds the reference networks' genesis headers from their parameters;
 * {@link genesisHeaderOf} takes them from a {@link NetworkVersion}. Genesis
 * payloads are not part of a version: they come from the genesis transactions
 * (genesisPayload.ts), which the caller supplies.
 * @module
 */
import type { Hash32 } from "../encoding/hash32.ts";
import { computeBlockHash } from "./blockHash.ts";
import type { BlockHeader, UnhashedBlockHeader } from "./blockHeader.ts";
import { genesisParentHash } from "./genesisParentHash.ts";
import {
  genesisHeightOf,
  headerAdjacentChains,
  isGenesisHeight,
  type NetworkVersion,
} from "./networkVersion.ts";
import { findVersionByCode } from "./versions.ts";

export type GenesisParams = {
  readonly versionCode: number;
  readonly chainId: number;
  readonly height: number;
  /** Adjacent chains in the graph at the genesis height. */
  readonly adjacentChains: readonly number[];
  readonly creationTime: number;
  readonly target: bigint;
  readonly payloadHash: Hash32;
};

export function buildGenesisHeader(p: GenesisParams): BlockHeader {
  const header: UnhashedBlockHeader = {
    featureFlags: 0n,
    creationTime: p.creationTime,
    parent: genesisParentHash(p.versionCode, p.chainId),
    adjacents: [...p.adjacentChains]
      .sort((a, b) => a - b)
      .map((c) => ({ chainId: c, hash: genesisParentHash(p.versionCode, c) })),
    target: p.target,
    payloadHash: p.payloadHash,
    chainId: p.chainId,
    weight: 0n,
    height: p.height,
    versionCode: p.versionCode,
    epochStart: p.creationTime,
    nonce: 0n,
  };
  return { ...header, hash: computeBlockHash(header) };
}

/**
 * The genesis header of `chainId` on `version` with the given genesis payload hash.
 * @throws {ChainError} CHAIN_BAD_CHAIN_ID when the version has no such chain.
 */
export function genesisHeaderOf(
  version: NetworkVersion,
  chainId: number,
  payloadHash: Hash32,
): BlockHeader {
  const height = genesisHeightOf(version, chainId);
  return buildGenesisHeader({
    versionCode: version.code,
    chainId,
    height,
    adjacentChains: headerAdjacentChains(version, chainId, height),
    creationTime: version.genesisTime,
    target: version.genesisTargets.get(chainId) as bigint,
    payloadHash,
  });
}

/** The genesis headers of every chain the version ever has, by chain id. */
export function genesisHeadersOf(
  version: NetworkVersion,
  payloadHashOf: (chainId: number) => Hash32,
): ReadonlyMap<number, BlockHeader> {
  return new Map(version.chainIds.map((c) => [c, genesisHeaderOf(version, c, payloadHashOf(c))]));
}

/** True when the header is at its chain's genesis height (of a known version). */
export function isGenesisHeader(
  header: Pick<BlockHeader, "versionCode" | "chainId" | "height">,
): boolean {
  const version = findVersionByCode(header.versionCode);
  return version !== undefined && isGenesisHeight(version, header.chainId, header.height);
}
