/**
 * Header validation: each rule fails with its own code when (only) that rule
 * is broken, on blocks of a simulated network.
 */
import { describe, expect, it } from "vitest";
import { computeBlockHash } from "../../src-node/chain/blockHash.ts";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import {
  blockHeaderFromObject,
  blockHeaderToObject,
} from "../../src-node/chain/blockHeaderObject.ts";
import { ChainError } from "../../src-node/chain/errors.ts";
import { genesisHeaderOf } from "../../src-node/chain/genesisHeader.ts";
import { buildGenesisPayload } from "../../src-node/chain/genesisPayload.ts";
import { isHeaderHashed } from "../../src-node/chain/hashedHere.ts";
import {
  type HeaderValidationInput,
  headerValidationFailures,
  validateHeader,
} from "../../src-node/chain/headerValidation.ts";
import { newBlockHeader } from "../../src-node/chain/newBlockHeader.ts";
import { hasValidPow } from "../../src-node/chain/pow.ts";
import {
  developmentVersion,
  testSingletonVersion,
  testTransitionVersion,
} from "../../src-node/chain/versions.ts";
import { hash32FromBytes } from "../../src-node/encoding/hash32.ts";
import { simChainweb } from "../support/chainSimulator.ts";

function rehash(h: BlockHeader, patch: Partial<BlockHeader>): BlockHeader {
  const x = { ...h, ...patch };
  return { ...x, hash: computeBlockHash(x) };
}

const codes = (input: HeaderValidationInput) => headerValidationFailures(input).map((e) => e.code);

/** A network with every chain at height 3 and a valid block H on chain 0 at height 4. */
function setup() {
  const sim = simChainweb(testSingletonVersion);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 10; c++) sim.mine(c);
  const h = sim.mine(0);
  const input = sim.validationInput(h, h.creationTime + 1);
  return { sim, h, input, p: input.parent as BlockHeader };
}

describe("[chain] header validation rules", () => {
  it("accepts a valid block", () => {
    const { input } = setup();
    expect(codes(input)).toEqual([]);
    validateHeader(input);
    validateHeader({ ...input, payloadHash: input.header.payloadHash });
  });

  it("trusts the hash only of the very header object decoded with its hash checked", () => {
    const { input, h } = setup();
    const decoded = blockHeaderFromObject(
      JSON.parse(JSON.stringify(blockHeaderToObject(h))) as unknown,
    );
    expect(isHeaderHashed(decoded)).toBe(true);
    expect(codes({ ...input, header: decoded })).toEqual([]);
    // A changed copy is another object: its hash is computed again, and refused.
    expect(codes({ ...input, header: { ...decoded, nonce: decoded.nonce + 1n } })).toEqual([
      "CHAIN_HASH_MISMATCH",
    ]);
    const unchecked = blockHeaderFromObject(blockHeaderToObject(h), { verifyHash: false });
    expect(isHeaderHashed(unchecked)).toBe(false);
  });

  it("refuses genesis headers", () => {
    const { sim } = setup();
    const g = sim.genesis.get(3) as BlockHeader;
    expect(codes(sim.validationInput(g))).toEqual(["CHAIN_GENESIS_NOT_VALIDATED"]);
  });

  it("block hash, feature flags, payload hash", () => {
    const { input, h } = setup();
    expect(codes({ ...input, header: { ...h, nonce: h.nonce + 1n } })).toEqual([
      "CHAIN_HASH_MISMATCH",
    ]);
    expect(codes({ ...input, header: rehash(h, { featureFlags: 1n }) })).toEqual([
      "CHAIN_BAD_FEATURE_FLAGS",
    ]);
    const other = hash32FromBytes(new Uint8Array(32));
    expect(codes({ ...input, payloadHash: other })).toEqual(["CHAIN_WRONG_PAYLOAD_HASH"]);
  });

  it("proof of work (a version with a real target)", () => {
    const v = developmentVersion;
    const payload = buildGenesisPayload([]).payloadHash;
    const parent = genesisHeaderOf(v, 0, payload);
    const adj = [5, 10, 15].map((c) => genesisHeaderOf(v, c, payload));
    let h = newBlockHeader({
      version: v,
      parent,
      adjacentParents: adj,
      creationTime: v.genesisTime + 1_000_000,
      payloadHash: payload,
    });
    while (hasValidPow(h)) h = rehash(h, { nonce: h.nonce + 1n });
    const input = {
      header: h,
      parent,
      adjacentParents: new Map(adj.map((a) => [a.chainId, a])),
      now: h.creationTime,
    };
    expect(codes(input)).toEqual(["CHAIN_BAD_POW"]);
    while (!hasValidPow(h)) h = rehash(h, { nonce: h.nonce + 1n });
    expect(codes({ ...input, header: h })).toEqual([]);
  });

  it("parent unknown or not the header's parent", () => {
    const { input, sim } = setup();
    expect(codes({ ...input, parent: undefined })).toEqual(["CHAIN_PARENT_UNKNOWN"]);
    expect(codes({ ...input, parent: sim.genesis.get(0) })).toEqual(["CHAIN_PARENT_MISMATCH"]);
  });

  it("height, chain and version follow the parent", () => {
    const { input, h } = setup();
    expect(codes({ ...input, header: rehash(h, { height: h.height + 1 }) })).toEqual([
      "CHAIN_WRONG_HEIGHT",
    ]);
    // chain 1 has other neighbours; only the chain rule is reported (placement stops the rest)
    expect(codes({ ...input, header: rehash(h, { chainId: 1 }) })).toEqual(["CHAIN_WRONG_CHAIN"]);
    expect(
      codes({ ...input, header: rehash(h, { versionCode: testTransitionVersion.code }) }),
    ).toEqual(["CHAIN_WRONG_VERSION"]);
  });

  it("adjacent chains, adjacent parents", () => {
    const { input, h, sim } = setup();
    const wrongChains = h.adjacents.map((a, i) => (i === 2 ? { ...a, chainId: 6 } : a));
    expect(codes({ ...input, header: rehash(h, { adjacents: wrongChains }) })).toEqual([
      "CHAIN_WRONG_ADJACENT_CHAINS",
    ]);
    const missing = new Map(input.adjacentParents);
    missing.delete(3);
    expect(codes({ ...input, adjacentParents: missing })).toEqual([
      "CHAIN_ADJACENT_PARENT_UNKNOWN",
    ]);
    const wrong = new Map(input.adjacentParents);
    wrong.set(3, sim.genesis.get(3) as BlockHeader);
    expect(codes({ ...input, adjacentParents: wrong })).toEqual(["CHAIN_ADJACENT_PARENT_UNKNOWN"]);
  });

  it("adjacent parents must be at the parent's height", () => {
    const { sim, p } = setup();
    const older = sim.ancestorAt(input3(sim), p.height - 1) as BlockHeader;
    const adj = [2, 5].map(
      (c) => sim.ancestorAt(sim.cut.get(c) as BlockHeader, p.height) as BlockHeader,
    );
    const h = newBlockHeader({
      version: sim.version,
      parent: p,
      adjacentParents: [...adj, older],
      creationTime: p.creationTime + 10_000_000,
      payloadHash: p.payloadHash,
    });
    const input = {
      header: h,
      parent: p,
      adjacentParents: new Map([...adj, older].map((a) => [a.chainId, a])),
      now: h.creationTime,
    };
    expect(codes(input)).toEqual(["CHAIN_NOT_BRAIDED"]);
  });

  it("adjacent parents must be braided with the parent", () => {
    const sim = simChainweb(testSingletonVersion);
    for (let c = 0; c < 10; c++) sim.mine(c); // all at height 1; chain 0's head is X
    const payload = (sim.genesis.get(0) as BlockHeader).payloadHash;
    const g = (c: number) => sim.genesis.get(c) as BlockHeader;
    const y = newBlockHeader({
      version: sim.version,
      parent: g(0),
      adjacentParents: [g(2), g(3), g(5)],
      creationTime: (sim.cut.get(0) as BlockHeader).creationTime + 7,
      payloadHash: payload,
    }); // a sibling of X
    const b = [2, 3, 5].map((c) => sim.cut.get(c) as BlockHeader);
    const a = [2, 3, 5].map((c) => sim.mine(c)); // height 2, linked to X on chain 0
    const p = newBlockHeader({
      version: sim.version,
      parent: y,
      adjacentParents: b,
      creationTime: Math.max(...a.map((x) => x.creationTime)) + 1,
      payloadHash: payload,
    });
    const h = newBlockHeader({
      version: sim.version,
      parent: p,
      adjacentParents: a,
      creationTime: p.creationTime + 1,
      payloadHash: payload,
    });
    const input = {
      header: h,
      parent: p,
      adjacentParents: new Map(a.map((x) => [x.chainId, x])),
      now: h.creationTime,
    };
    expect(codes(input)).toEqual(["CHAIN_NOT_BRAIDED", "CHAIN_NOT_BRAIDED", "CHAIN_NOT_BRAIDED"]);
    // P itself (on the fork) is fine
    expect(
      codes({
        header: p,
        parent: y,
        adjacentParents: new Map(b.map((x) => [x.chainId, x])),
        now: p.creationTime,
      }),
    ).toEqual([]);
  });

  it("creation time after the parent and adjacent parents, and not in the future", () => {
    const { input, h, p } = setup();
    expect(codes({ ...input, header: rehash(h, { creationTime: p.creationTime }) })).toEqual([
      "CHAIN_CREATION_TIME_NOT_INCREASING",
    ]);
    const latestAdj = Math.max(...[...input.adjacentParents.values()].map((a) => a.creationTime));
    expect(codes({ ...input, header: rehash(h, { creationTime: latestAdj }) })).toEqual([
      "CHAIN_CREATION_TIME_NOT_INCREASING",
    ]);
    expect(codes({ ...input, now: h.creationTime - 1 })).toEqual(["CHAIN_BLOCK_IN_FUTURE"]);
    try {
      validateHeader({ ...input, now: h.creationTime - 1 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ChainError);
      expect((e as ChainError).field).toBe("creationTime");
    }
  });

  it("epoch start, target and weight as computed", () => {
    const { input, h } = setup();
    expect(codes({ ...input, header: rehash(h, { epochStart: h.epochStart + 1 }) })).toEqual([
      "CHAIN_WRONG_EPOCH_START",
    ]);
    expect(codes({ ...input, header: rehash(h, { target: h.target / 2n }) })).toEqual([
      "CHAIN_WRONG_TARGET",
      "CHAIN_WRONG_WEIGHT",
    ]);
    expect(codes({ ...input, header: rehash(h, { weight: h.weight + 1n }) })).toEqual([
      "CHAIN_WRONG_WEIGHT",
    ]);
  });
});

/** The head of chain 3 in the simulated cut (a helper for readability). */
function input3(sim: ReturnType<typeof simChainweb>): BlockHeader {
  return sim.cut.get(3) as BlockHeader;
}
