/**
 * Shared vectors block-headers.json: real mainnet/testnet headers and
 * reference genesis headers decode, re-encode byte for byte, hash to the
 * listed block hash, and have the listed PoW hash, difficulty and weight.
 */
import { describe, expect, it } from "vitest";
import { computeBlockHash } from "../../src-node/chain/blockHash.ts";
import { decodeBlockHeader, encodeBlockHeader } from "../../src-node/chain/blockHeaderBinary.ts";
import {
  blockHeaderFromObject,
  blockHeaderToObject,
} from "../../src-node/chain/blockHeaderObject.ts";
import {
  decodeBlockHeaderText,
  encodeBlockHeaderText,
} from "../../src-node/chain/blockHeaderText.ts";
import { childWeight, targetToDifficulty } from "../../src-node/chain/difficulty.ts";
import { ChainError } from "../../src-node/chain/errors.ts";
import { hasValidPow, powHash, powHashHex } from "../../src-node/chain/pow.ts";
import { base64UrlDecode, base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { loadVectors } from "../support/vectors.ts";

type HeaderCase = {
  name: string;
  network: string;
  headerBase64: string;
  headerLength: number;
  object: Record<string, unknown>;
  versionCode: number;
  adjacentChainIds: number[];
  featureFlagsHex: string;
  targetHex: string;
  weightDecimal: string;
  difficultyDecimal: string;
  computedBlockHash: string;
  computedBlockHashMatchesStored: boolean;
  powHashBase64: string;
  powHashHex: string;
  powValid: boolean;
};

type WeightCheck = { child: string; childHash: string; parentHash: string };

const file = loadVectors<HeaderCase>("block-headers.json");
const negativeCases = file.negativeCases as HeaderCase[];
const weightChecks = file.weightChecks as WeightCheck[];

/** The vectors use the reference key `chainwebVersion`; the spec's is `ledgerVersion`. */
function specObject(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k === "chainwebVersion" ? "ledgerVersion" : k] = v;
  return out;
}

describe("[chain] block-headers.json vectors", () => {
  it("has the documented cases", () => {
    expect(file.cases.length).toBe(68);
    expect(negativeCases.length).toBeGreaterThan(0);
  });

  for (const c of file.cases) {
    describe(c.name, () => {
      const bytes = base64UrlDecode(c.headerBase64, "vector");

      it("decodes from base64 and re-encodes byte for byte", () => {
        expect(bytes.length).toBe(c.headerLength);
        const h = decodeBlockHeaderText(c.headerBase64);
        expect(encodeBlockHeaderText(h)).toBe(c.headerBase64);
        expect(base64UrlEncode(encodeBlockHeader(h))).toBe(c.headerBase64);
        expect(h.versionCode).toBe(c.versionCode);
        expect(h.adjacents.map((a) => a.chainId)).toEqual(c.adjacentChainIds);
        expect(h.featureFlags).toBe(BigInt(`0x${c.featureFlagsHex}`));
        expect(h.target).toBe(BigInt(`0x${c.targetHex}`));
        expect(h.weight.toString()).toBe(c.weightDecimal);
      });

      it("hashes to the listed block hash", () => {
        const h = decodeBlockHeader(bytes);
        expect(computeBlockHash(h)).toBe(c.computedBlockHash);
        expect(h.hash).toBe(c.object.hash);
      });

      it("has the object form (same fields, spec key order)", () => {
        const h = decodeBlockHeader(bytes);
        const expected = specObject(c.object);
        const actual = blockHeaderToObject(h);
        expect(actual).toEqual(expected);
        expect(Object.keys(actual)).toEqual(Object.keys(expected));
      });

      it("decodes from the object form to the same bytes", () => {
        const h = blockHeaderFromObject(specObject(c.object));
        expect(base64UrlEncode(encodeBlockHeader(h))).toBe(c.headerBase64);
      });

      it("has the listed PoW hash, target check and difficulty", () => {
        const h = decodeBlockHeader(bytes);
        const pow = powHash(h);
        expect(base64UrlEncode(pow)).toBe(c.powHashBase64);
        expect(powHashHex(pow)).toBe(c.powHashHex);
        expect(hasValidPow(h)).toBe(c.powValid);
        expect(targetToDifficulty(h.target).toString()).toBe(c.difficultyDecimal);
      });
    });
  }

  describe("weightChecks: weight = parent weight + difficulty", () => {
    const byHash = new Map(
      file.cases.map((c) => [c.object.hash as string, decodeBlockHeaderText(c.headerBase64)]),
    );
    for (const w of weightChecks) {
      it(w.child, () => {
        const child = byHash.get(w.childHash);
        const parent = byHash.get(w.parentHash);
        expect(child && parent).toBeTruthy();
        if (child === undefined || parent === undefined) return;
        expect(child.parent).toBe(parent.hash);
        expect(child.weight).toBe(childWeight(parent.weight, child.target));
      });
    }
  });

  describe("negativeCases: a stored hash that is not the Merkle root is rejected", () => {
    for (const c of negativeCases) {
      it(c.name, () => {
        expect(c.computedBlockHashMatchesStored).toBe(false);
        let error: unknown;
        try {
          decodeBlockHeaderText(c.headerBase64);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ChainError);
        expect((error as ChainError).code).toBe("CHAIN_HASH_MISMATCH");
        expect((error as ChainError).field).toBe("hash");
        const trusted = decodeBlockHeaderText(c.headerBase64, { verifyHash: false });
        expect(computeBlockHash(trusted)).toBe(c.computedBlockHash);
        expect(trusted.hash).not.toBe(c.computedBlockHash);
        expect(hasValidPow(trusted)).toBe(c.powValid);
        expect(() => blockHeaderFromObject(specObject(c.object))).toThrow(ChainError);
      });
    }
  });
});
