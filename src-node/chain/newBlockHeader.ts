/**
 * Builds the child header of a parent, with the computed target, epoch start,
 * weight and height, and the block hash (reference `newBlockHeader`, §5.3 step
 * 5). Miners change only the nonce and the creation time afterwards.
 * @module
 */
import type { Hash32 } from "../encoding/hash32.ts";
import { computeBlockHash } from "./blockHash.ts";
import type { BlockHeader, UnhashedBlockHeader } from "./blockHeader.ts";
import { childWeight } from "./difficulty.ts";
import { nextEpochStart } from "./epoch.ts";
import { chainInvariant } from "./errors.ts";
import { headerAdjacentChains, type NetworkVersion } from "./networkVersion.ts";
import { nextTarget } from "./nextTarget.ts";

export type NewBlockHeaderInput = {
  readonly version: NetworkVersion;
  readonly parent: BlockHeader;
  /** The blocks at the parent's height on the adjacent chains (any order; extra ones are ignored). */
  readonly adjacentParents: readonly BlockHeader[];
  /** µs; must be after the parent's and adjacent parents' creation times to be valid. */
  readonly creationTime: number;
  readonly payloadHash: Hash32;
  readonly nonce?: bigint;
  readonly featureFlags?: bigint;
};

/**
 * The unsolved child header.
 * @throws {ChainError} CHAIN_INVARIANT when an adjacent parent the graph requires is missing.
 */
export function newBlockHeader(input: NewBlockHeaderInput): BlockHeader {
  const { version, parent } = input;
  const height = parent.height + 1;
  const chains = headerAdjacentChains(version, parent.chainId, height);
  const adjacentParents = chains.map((c) => {
    const a = input.adjacentParents.find((p) => p.chainId === c);
    if (a === undefined) chainInvariant("adjacentParents", `no adjacent parent on chain ${c}`);
    return a;
  });
  const target = nextTarget(version, parent, adjacentParents);
  const header: UnhashedBlockHeader = {
    featureFlags: input.featureFlags ?? 0n,
    creationTime: input.creationTime,
    parent: parent.hash,
    adjacents: adjacentParents.map((a) => ({ chainId: a.chainId, hash: a.hash })),
    target,
    payloadHash: input.payloadHash,
    chainId: parent.chainId,
    weight: childWeight(parent.weight, target),
    height,
    versionCode: parent.versionCode,
    epochStart: nextEpochStart(version, parent),
    nonce: input.nonce ?? 0n,
  };
  return { ...header, hash: computeBlockHash(header) };
}
