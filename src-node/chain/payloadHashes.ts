/**
 * Payload hashes (reference chainweb-api.md §7.1), SHA-512/256 with tagged leaves:
 * - transactionsHash = root[minerData (tag 0x0017), tx₀ (0x0013), tx₁, …]
 * - outputsHash = root[coinbase output (0x0018), out₀ (0x0014), out₁, …]
 * - payloadHash = root of the two raw nodes = H(0x01 ‖ transactionsHash ‖ outputsHash)
 * Transactions and outputs are the UTF-8 bytes of their JSON texts.
 * @module
 */

import { merkleLeaf, merkleNode, merkleRoot } from "../crypto/merkle.ts";
import { type Hash32, hash32Bytes, hash32FromBytes } from "../encoding/hash32.ts";
import { MerkleTag } from "./merkleTags.ts";

export function minerDataLeaf(minerData: Uint8Array): Uint8Array {
  return merkleLeaf(MerkleTag.minerData, minerData);
}

export function transactionLeaf(transaction: Uint8Array): Uint8Array {
  return merkleLeaf(MerkleTag.transaction, transaction);
}

export function coinbaseLeaf(coinbase: Uint8Array): Uint8Array {
  return merkleLeaf(MerkleTag.coinbaseOutput, coinbase);
}

export function outputLeaf(output: Uint8Array): Uint8Array {
  return merkleLeaf(MerkleTag.transactionOutput, output);
}

/** transactionsHash from already hashed leaves (miner data leaf first). */
export function transactionsHashOfLeaves(
  minerDataLeafHash: Uint8Array,
  transactionLeaves: readonly Uint8Array[],
): Hash32 {
  return hash32FromBytes(merkleRoot([minerDataLeafHash, ...transactionLeaves]));
}

export function transactionsHashOf(
  minerData: Uint8Array,
  transactions: readonly Uint8Array[],
): Hash32 {
  return transactionsHashOfLeaves(minerDataLeaf(minerData), transactions.map(transactionLeaf));
}

export function outputsHashOf(coinbase: Uint8Array, outputs: readonly Uint8Array[]): Hash32 {
  return hash32FromBytes(merkleRoot([coinbaseLeaf(coinbase), ...outputs.map(outputLeaf)]));
}

export function payloadHashOf(transactionsHash: Hash32, outputsHash: Hash32): Hash32 {
  return hash32FromBytes(merkleNode(hash32Bytes(transactionsHash), hash32Bytes(outputsHash)));
}
