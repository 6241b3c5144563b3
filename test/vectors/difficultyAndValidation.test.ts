/**
 * Real mainnet blocks from block-headers.json, whose parents and adjacent
 * parents are in the file too, pass every header-validation rule under our
 * mainnet01 version: braiding, creation times, epoch start, the averaged
 * difficulty adjustment (height 6,321,600 starts an epoch), weight, PoW, hash.
 */
import { describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { decodeBlockHeaderText } from "../../src-node/chain/blockHeaderText.ts";
import { isLastInEpoch, nextEpochStart } from "../../src-node/chain/epoch.ts";
import { headerValidationFailures, validateHeader } from "../../src-node/chain/headerValidation.ts";
import { nextTarget } from "../../src-node/chain/nextTarget.ts";
import { mainnet01Version } from "../../src-node/chain/versions.ts";
import { loadVectors } from "../support/vectors.ts";

type HeaderCase = { name: string; network: string; headerBase64: string };

const headers = loadVectors<HeaderCase>("block-headers.json")
  .cases.filter((c) => c.network === "mainnet01")
  .map((c) => decodeBlockHeaderText(c.headerBase64));
const at = (chainId: number, height: number): BlockHeader | undefined =>
  headers.find((h) => h.chainId === chainId && h.height === height);

const withParents = headers.filter(
  (h) =>
    at(h.chainId, h.height - 1) !== undefined &&
    h.adjacents.every((a) => at(a.chainId, h.height - 1)?.hash === a.hash),
);
/**
 * Blocks from before the current rules: 318,266 (2020) carries nonce bytes in
 * its feature flags and is not later than one adjacent parent (the rule came
 * later; the reference test suite lists it as a validation failure), and
 * 600,000 was adjusted by the legacy per-chain rule (before 771,414).
 */
const legacy: Record<string, string[]> = {
  "7@318266": ["CHAIN_BAD_FEATURE_FLAGS", "CHAIN_CREATION_TIME_NOT_INCREASING"],
  "0@600000": ["CHAIN_WRONG_TARGET"],
};
const name = (h: BlockHeader) => `${h.chainId}@${h.height}`;
const validatable = withParents.filter((h) => legacy[name(h)] === undefined);

function inputFor(h: BlockHeader) {
  return {
    header: h,
    parent: at(h.chainId, h.height - 1),
    adjacentParents: new Map(
      h.adjacents.map((a) => [a.chainId, at(a.chainId, h.height - 1) as BlockHeader]),
    ),
    now: h.creationTime + 1,
    payloadHash: h.payloadHash,
  };
}

describe("[chain] real mainnet blocks validate under mainnet01 rules", () => {
  it("has blocks with their parent and adjacent parents in the vectors", () => {
    expect(withParents.map(name)).toEqual([
      "7@318266",
      "0@600000",
      "0@475492",
      "0@6321599",
      "0@6321600",
      "0@6326122",
      "0@6326123",
    ]);
  });
  for (const h of validatable) {
    it(`chain ${h.chainId} height ${h.height}`, () => {
      expect(headerValidationFailures(inputFor(h)).map((e) => e.message)).toEqual([]);
      validateHeader(inputFor(h));
    });
  }
  for (const h of withParents.filter((x) => legacy[name(x)] !== undefined)) {
    it(`chain ${h.chainId} height ${h.height} breaks only the rules that came later`, () => {
      expect(headerValidationFailures(inputFor(h)).map((e) => e.code)).toEqual(legacy[name(h)]);
    });
  }
  it("height 6,321,600 starts an epoch: averaged target and new epoch start", () => {
    const parent = at(0, 6_321_599) as BlockHeader;
    const child = at(0, 6_321_600) as BlockHeader;
    expect(isLastInEpoch(mainnet01Version, parent)).toBe(true);
    const adj = parent.adjacents.length
      ? child.adjacents.map((a) => at(a.chainId, 6_321_599) as BlockHeader)
      : [];
    expect(nextTarget(mainnet01Version, parent, adj)).toBe(child.target);
    expect(child.target).not.toBe(parent.target);
    expect(nextEpochStart(mainnet01Version, parent)).toBe(parent.creationTime);
    expect(child.epochStart).toBe(parent.creationTime);
  });
  it("a block in the future is reported as such (not fatal)", () => {
    const h = at(0, 6_321_600) as BlockHeader;
    const failures = headerValidationFailures({ ...inputFor(h), now: h.creationTime - 1 });
    expect(failures.map((e) => e.code)).toEqual(["CHAIN_BLOCK_IN_FUTURE"]);
  });
});
