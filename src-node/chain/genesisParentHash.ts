/**
 * The genesis parent hash of a chain (reference `genesisParentBlockHash`,
 * chainweb-api.md §3): the SHA-512/256 Merkle root over three UNTAGGED input
 * leaves, the ASCII bytes "CHAINWEB_GENESIS", the version code (u32 LE) and
 * the chain id (u32 LE). It is the `parent` of the chain's genesis header and
 * the adjacent hash neighbours' genesis headers carry for it.
 * @module
 */

import { merkleLeaf, merkleRoot } from "../crypto/merkle.ts";
import { type Hash32, hash32FromBytes } from "../encoding/hash32.ts";
import { writeU32 } from "../encoding/littleEndian.ts";

const GENESIS_TAG = new TextEncoder().encode("CHAINWEB_GENESIS");

export function genesisParentHash(versionCode: number, chainId: number): Hash32 {
  const version = new Uint8Array(4);
  writeU32(version, 0, versionCode, "versionCode");
  const chain = new Uint8Array(4);
  writeU32(chain, 0, chainId, "chainId");
  return hash32FromBytes(
    merkleRoot([merkleLeaf(null, GENESIS_TAG), merkleLeaf(null, version), merkleLeaf(null, chain)]),
  );
}
