/**
 * Shared vectors genesis-parent-hashes.json and the genesis cases of
 * block-headers.json: genesis parent hashes, and genesis headers rebuilt
 * from reference parameters (explicitly, and from our version data) match the
 * golden hashes. Our own genesis headers follow the same rules.
 */
import { describe, expect, it } from "vitest";
import { computeBlockHash } from "../../src-node/chain/blockHash.ts";
import { encodeBlockHeader } from "../../src-node/chain/blockHeaderBinary.ts";
import {
  buildGenesisHeader,
  genesisHeaderOf,
  genesisHeadersOf,
  isGenesisHeader,
} from "../../src-node/chain/genesisHeader.ts";
import { genesisParentHash } from "../../src-node/chain/genesisParentHash.ts";
import { buildGenesisPayload } from "../../src-node/chain/genesisPayload.ts";
import { headerAdjacentChains } from "../../src-node/chain/networkVersion.ts";
import { runnableVersions, versionByName } from "../../src-node/chain/versions.ts";
import { merkleLeaf, merkleNode } from "../../src-node/crypto/merkle.ts";
import { base64UrlDecode, base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { hash32Bytes, parseHash32 } from "../../src-node/encoding/hash32.ts";
import { hexEncode } from "../../src-node/encoding/hex.ts";
import { loadVectors } from "../support/vectors.ts";

type ParentCase = {
  network: string;
  versionCode: number;
  chainId: number;
  genesisParentHash: string;
  genesisParentHashHex: string;
};
type HeaderCase = {
  name: string;
  kind: string;
  network: string;
  headerBase64: string;
  versionCode: number;
  object: {
    creationTime: number;
    adjacents: Record<string, string>;
    target: string;
    payloadHash: string;
    chainId: number;
    height: number;
    hash: string;
  };
};

const parents = loadVectors<ParentCase>("genesis-parent-hashes.json");
const headers = loadVectors<HeaderCase>("block-headers.json").cases.filter(
  (c) => c.kind === "genesis-constructed",
);

function le256(b64: string): bigint {
  const b = base64UrlDecode(b64, "target");
  let v = 0n;
  for (let i = 31; i >= 0; i--) v = (v << 8n) | BigInt(b[i] as number);
  return v;
}

describe("[chain] genesis-parent-hashes.json vectors", () => {
  it("has 80 cases", () => expect(parents.cases.length).toBe(80));
  for (const c of parents.cases) {
    it(`${c.network} chain ${c.chainId}`, () => {
      const h = genesisParentHash(c.versionCode, c.chainId);
      expect(h).toBe(c.genesisParentHash);
      expect(hexEncode(hash32Bytes(h))).toBe(c.genesisParentHashHex);
    });
  }
  it("follows the step-by-step example", () => {
    const ex = parents.stepByStepExample as Record<string, string>;
    const leaf = (hex: string) => merkleLeaf(null, Buffer.from(hex, "hex"));
    const l0 = leaf(ex.leaf0_input_hex as string);
    const l1 = leaf(ex.leaf1_input_hex as string);
    const l2 = leaf(ex.leaf2_input_hex as string);
    expect(hexEncode(l0)).toBe(ex.leaf0_hash_hex);
    expect(hexEncode(l1)).toBe(ex.leaf1_hash_hex);
    expect(hexEncode(l2)).toBe(ex.leaf2_hash_hex);
    expect(hexEncode(merkleNode(l0, l1))).toBe(ex.node01_hash_hex);
    expect(hexEncode(merkleNode(merkleNode(l0, l1), l2))).toBe(ex.root_hash_hex);
  });
});

describe("[chain] reference genesis headers (block-headers.json)", () => {
  it("has 24 genesis cases", () => expect(headers.length).toBe(24));
  for (const c of headers) {
    describe(c.name, () => {
      it("the generic builder reproduces the bytes from the reference parameters", () => {
        const h = buildGenesisHeader({
          versionCode: c.versionCode,
          chainId: c.object.chainId,
          height: c.object.height,
          adjacentChains: Object.keys(c.object.adjacents).map(Number),
          creationTime: c.object.creationTime,
          target: le256(c.object.target),
          payloadHash: parseHash32(c.object.payloadHash, "payloadHash"),
        });
        expect(base64UrlEncode(encodeBlockHeader(h))).toBe(c.headerBase64);
        expect(h.hash).toBe(c.object.hash);
      });
      it("our version data (time, heights, targets, graph) gives the same header", () => {
        const v = versionByName(c.network);
        const h = genesisHeaderOf(v, c.object.chainId, parseHash32(c.object.payloadHash, "p"));
        expect(h.hash).toBe(c.object.hash);
        expect(isGenesisHeader(h)).toBe(true);
      });
    });
  }
});

describe("[chain] our genesis headers", () => {
  const payload = buildGenesisPayload([]);
  for (const v of runnableVersions) {
    it(`${v.name}: one per chain, per the genesis rules`, () => {
      const all = genesisHeadersOf(v, () => payload.payloadHash);
      expect([...all.keys()]).toEqual(v.chainIds);
      for (const [c, h] of all) {
        expect(h.chainId).toBe(c);
        expect(h.height).toBe(v.genesisHeights.get(c));
        expect(h.parent).toBe(genesisParentHash(v.code, c));
        expect(h.adjacents.map((a) => a.chainId)).toEqual(headerAdjacentChains(v, c, h.height));
        for (const a of h.adjacents) expect(a.hash).toBe(genesisParentHash(v.code, a.chainId));
        expect([h.weight, h.nonce, h.featureFlags]).toEqual([0n, 0n, 0n]);
        expect(h.creationTime).toBe(v.genesisTime);
        expect(h.epochStart).toBe(v.genesisTime);
        expect(h.target).toBe(v.genesisTargets.get(c));
        expect(h.payloadHash).toBe(payload.payloadHash);
        expect(h.hash).toBe(computeBlockHash(h));
        expect(isGenesisHeader(h)).toBe(true);
      }
    });
  }
  it("our mainnet01 genesis is not the reference's (our own genesis payload)", () => {
    const ref = headers.find((c) => c.network === "mainnet01" && c.object.chainId === 0);
    const ours = genesisHeaderOf(versionByName("mainnet01"), 0, payload.payloadHash);
    expect(ours.hash).not.toBe(ref?.object.hash);
    expect(ours.payloadHash).not.toBe(ref?.object.payloadHash);
  });
  it("changes when the genesis transactions change", () => {
    const other = buildGenesisPayload([
      { transaction: new TextEncoder().encode("{}"), output: new TextEncoder().encode("{}") },
    ]);
    expect(other.payloadHash).not.toBe(payload.payloadHash);
  });
});
