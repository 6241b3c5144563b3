/**
 * The block hash: a SHA-512/256 Merkle root over the header's fields
 * (reference chainweb-api.md §1.4). Leaves, in order: feature flags, creation
 * time, parent (raw node), target, payload hash (raw node), chain id, weight,
 * height, version code, epoch start, nonce, then the adjacent parent hashes
 * (raw nodes) in ascending chain order. Leaf values are the same bytes as in
 * the binary layout; the adjacent chain ids are not hashed.
 * @module
 */

import { merkleLeaf, merkleRoot } from "../crypto/merkle.ts";
import { type Hash32, hash32Bytes, hash32FromBytes } from "../encoding/hash32.ts";
import { readU16, u256ToBytes, writeI64, writeU32, writeU64 } from "../encoding/littleEndian.ts";
import type { UnhashedBlockHeader } from "./blockHeader.ts";
import { MerkleTag } from "./merkleTags.ts";

/** Leaf positions in the header's Merkle tree (SPV proofs walk through them). */
export const HeaderLeaf = {
  featureFlags: 0,
  creationTime: 1,
  parent: 2,
  target: 3,
  payloadHash: 4,
  chainId: 5,
  weight: 6,
  height: 7,
  versionCode: 8,
  epochStart: 9,
  nonce: 10,
  /** Adjacent parent i (ascending chain order) is leaf 11 + i. */
  firstAdjacent: 11,
} as const;

function u64(value: bigint, field: string): Uint8Array {
  const b = new Uint8Array(8);
  writeU64(b, 0, value, field);
  return b;
}

function i64(value: number, field: string): Uint8Array {
  const b = new Uint8Array(8);
  writeI64(b, 0, BigInt(value), field);
  return b;
}

function u32(value: number, field: string): Uint8Array {
  const b = new Uint8Array(4);
  writeU32(b, 0, value, field);
  return b;
}

/** The Merkle tree nodes of a header, in leaf order. */
export function headerMerkleNodes(header: UnhashedBlockHeader): Uint8Array[] {
  return [
    merkleLeaf(MerkleTag.featureFlags, u64(header.featureFlags, "featureFlags")),
    merkleLeaf(MerkleTag.creationTime, i64(header.creationTime, "creationTime")),
    hash32Bytes(header.parent),
    merkleLeaf(MerkleTag.hashTarget, u256ToBytes(header.target, "target")),
    hash32Bytes(header.payloadHash),
    merkleLeaf(MerkleTag.chainId, u32(header.chainId, "chainId")),
    merkleLeaf(MerkleTag.blockWeight, u256ToBytes(header.weight, "weight")),
    merkleLeaf(MerkleTag.blockHeight, u64(BigInt(header.height), "height")),
    merkleLeaf(MerkleTag.versionCode, u32(header.versionCode, "versionCode")),
    merkleLeaf(MerkleTag.epochStart, i64(header.epochStart, "epochStart")),
    merkleLeaf(MerkleTag.nonce, u64(header.nonce, "nonce")),
    ...header.adjacents.map((a) => hash32Bytes(a.hash)),
  ];
}

/** The block hash of a header (whatever its `hash` field says). */
export function computeBlockHash(header: UnhashedBlockHeader): Hash32 {
  return hash32FromBytes(merkleRoot(headerMerkleNodes(header)));
}

/**
 * The Merkle tree nodes of a header given as its binary work header (or full
 * header: the trailing hash is ignored). Leaf values are slices of the binary
 * layout, so this is the fast path for decoders; it agrees with
 * {@link headerMerkleNodes} on every well-formed header.
 */
export function headerMerkleNodesOfBytes(bytes: Uint8Array): Uint8Array[] {
  const n = readU16(bytes, 48, "adjacents");
  const o = 50 + 36 * n;
  const at = (from: number, size: number) => bytes.subarray(from, from + size);
  const nodes = [
    merkleLeaf(MerkleTag.featureFlags, at(0, 8)),
    merkleLeaf(MerkleTag.creationTime, at(8, 8)),
    at(16, 32),
    merkleLeaf(MerkleTag.hashTarget, at(o, 32)),
    at(o + 32, 32),
    merkleLeaf(MerkleTag.chainId, at(o + 64, 4)),
    merkleLeaf(MerkleTag.blockWeight, at(o + 68, 32)),
    merkleLeaf(MerkleTag.blockHeight, at(o + 100, 8)),
    merkleLeaf(MerkleTag.versionCode, at(o + 108, 4)),
    merkleLeaf(MerkleTag.epochStart, at(o + 112, 8)),
    merkleLeaf(MerkleTag.nonce, at(o + 120, 8)),
  ];
  for (let i = 0; i < n; i++) nodes.push(at(54 + 36 * i, 32));
  return nodes;
}

/** The block hash of a binary (work) header; see {@link headerMerkleNodesOfBytes}. */
export function blockHashOfBytes(bytes: Uint8Array): Hash32 {
  return hash32FromBytes(merkleRoot(headerMerkleNodesOfBytes(bytes)));
}
