/**
 * fast-check arbitraries for chain values: hashes and well-formed block
 * headers of every known network version (any chain, any height from the
 * chain's genesis on, the right adjacent chains, random field values, a
 * correct block hash).
 */
import fc from "fast-check";
import { computeBlockHash } from "../../src-node/chain/blockHash.ts";
import type { BlockHeader, UnhashedBlockHeader } from "../../src-node/chain/blockHeader.ts";
import { headerAdjacentChains, type NetworkVersion } from "../../src-node/chain/networkVersion.ts";
import { knownVersions } from "../../src-node/chain/versions.ts";
import { type Hash32, hash32FromBytes } from "../../src-node/encoding/hash32.ts";

export const hash32Arb: fc.Arbitrary<Hash32> = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((b) => hash32FromBytes(b));

const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const u256 = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n });
const target = fc.bigInt({ min: 1n, max: (1n << 256n) - 1n });
const time = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });

/** A header of `version` with random fields and a correct hash. */
export function headerArbFor(version: NetworkVersion): fc.Arbitrary<BlockHeader> {
  return fc
    .constantFrom(...version.chainIds)
    .chain((chainId) =>
      fc.record({
        chainId: fc.constant(chainId),
        height: fc.oneof(
          fc.integer({ min: version.genesisHeights.get(chainId) ?? 0, max: 2_000_000 }),
          fc.integer({
            min: version.genesisHeights.get(chainId) ?? 0,
            max: Number.MAX_SAFE_INTEGER,
          }),
        ),
      }),
    )
    .chain(({ chainId, height }) => {
      const adjacentIds = headerAdjacentChains(version, chainId, height);
      return fc.record({
        featureFlags: u64,
        creationTime: time,
        parent: hash32Arb,
        adjacents: fc
          .array(hash32Arb, { minLength: adjacentIds.length, maxLength: adjacentIds.length })
          .map((hs) => hs.map((hash, i) => ({ chainId: adjacentIds[i] as number, hash }))),
        target,
        payloadHash: hash32Arb,
        chainId: fc.constant(chainId),
        weight: u256,
        height: fc.constant(height),
        versionCode: fc.constant(version.code),
        epochStart: time,
        nonce: u64,
      });
    })
    .map((h: UnhashedBlockHeader) => ({ ...h, hash: computeBlockHash(h) }));
}

/** A header of any known version. */
export const headerArb: fc.Arbitrary<BlockHeader> = fc
  .constantFrom(...knownVersions)
  .chain((v) => headerArbFor(v));
