/**
 * Inclusion-proof steps through the ledger's Merkle trees, for SPV proofs
 * (reference chainweb-api.md §9.1). A proof is composed innermost first:
 * 1. the outputs tree: a transaction's output is leaf txIndex + 1 (the
 *    coinbase output is leaf 0) → outputsHash;
 * 2. the payload tree: outputsHash is leaf 1 → payloadHash;
 * 3. the block header tree: payloadHash is leaf 4 → the block hash;
 * 4. for each later block on the same chain: the parent hash is leaf 2;
 * 5. for each hop to an adjacent chain: that chain's hash is leaf
 *    11 + (index of the chain among the header's sorted adjacent chains).
 * Composition and the choice of target headers belong to the SPV service.
 * @module
 */
import { type MerkleProofStep, merkleProofSteps } from "../crypto/merkle.ts";
import { hash32Bytes } from "../encoding/hash32.ts";
import { HeaderLeaf, headerMerkleNodes } from "./blockHash.ts";
import type { UnhashedBlockHeader } from "./blockHeader.ts";
import { ChainError, ChainErrorCode } from "./errors.ts";
import { coinbaseLeaf, outputLeaf } from "./payloadHashes.ts";
import type { PayloadWithOutputs } from "./payloadWithOutputs.ts";

/** Steps from the output of transaction `txIndex` to the payload hash. */
export function payloadOutputProofSteps(
  payload: PayloadWithOutputs,
  txIndex: number,
): MerkleProofStep[] {
  const leaves = [
    coinbaseLeaf(payload.coinbase),
    ...payload.transactions.map((t) => outputLeaf(t.output)),
  ];
  return [
    ...merkleProofSteps(leaves, txIndex + 1),
    { side: 0, sibling: hash32Bytes(payload.transactionsHash) },
  ];
}

/** Steps from leaf `leaf` of a header's tree (see {@link HeaderLeaf}) to its block hash. */
export function headerProofSteps(header: UnhashedBlockHeader, leaf: number): MerkleProofStep[] {
  return merkleProofSteps(headerMerkleNodes(header), leaf);
}

/**
 * The header leaf holding the adjacent parent on `chainId`.
 * @throws {ChainError} CHAIN_BAD_ADJACENTS when the header has no adjacent parent on that chain.
 */
export function adjacentLeafIndex(header: UnhashedBlockHeader, chainId: number): number {
  const i = header.adjacents.findIndex((a) => a.chainId === chainId);
  if (i < 0) {
    throw new ChainError(
      {
        code: ChainErrorCode.BadAdjacents,
        field: "adjacents",
        reason: `no adjacent chain ${chainId}`,
      },
      `adjacents: chain ${header.chainId} has no adjacent parent on chain ${chainId}`,
    );
  }
  return HeaderLeaf.firstAdjacent + i;
}
