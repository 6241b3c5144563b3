/**
 * Precomputed genesis (src-node/genesis/precomputedGenesis.ts, written by
 * build/genesisCache.ts): the file form round-trips to exactly the texts runGenesis gives,
 * so the payloads (and genesis hashes) built from it are the computed ones; malformed files
 * or another network's file are refused (and genesis is then computed).
 */
import { describe, expect, it } from "vitest";
import { genesisFileOf } from "../../build/genesisCache.ts";
import { buildGenesisPayload } from "../../src-node/chain/genesisPayload.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { computeGenesisPayload } from "../../src-node/genesis/genesisPayloads.ts";
import {
  parsePrecomputedGenesis,
  precomputedGenesis,
} from "../../src-node/genesis/precomputedGenesis.ts";

const encoder = new TextEncoder();

describe("[genesis] precomputed genesis texts", () => {
  const version = testSingletonVersion;
  const text = JSON.stringify(genesisFileOf(version));

  it("give every chain the payload that running genesis gives", () => {
    const parsed = parsePrecomputedGenesis(text, version.name);
    expect(parsed).not.toBeNull();
    expect([...(parsed?.keys() ?? [])]).toEqual([...version.chainIds]);
    for (const chainId of version.chainIds) {
      const texts = parsed?.get(chainId) ?? [];
      expect(texts.length).toBeGreaterThan(0);
      const fromFile = buildGenesisPayload(
        texts.map((t) => ({
          transaction: encoder.encode(t.commandJson),
          output: encoder.encode(t.resultJson),
        })),
      );
      expect(fromFile.payloadHash).toEqual(computeGenesisPayload(version, chainId).payloadHash);
    }
  });

  it("refuse another network's file and malformed ones", () => {
    expect(parsePrecomputedGenesis(text, "development")).toBeNull();
    for (const bad of [
      "not json",
      "null",
      '{"network":"test-singleton"}',
      '{"network":"test-singleton","chains":{"x":[]}}',
      '{"network":"test-singleton","chains":{"01":[]}}',
      '{"network":"test-singleton","chains":{"0":[["a"]]}}',
      '{"network":"test-singleton","chains":{"0":[["a",1]]}}',
      '{"network":"test-singleton","chains":{"0":{}}}',
    ]) {
      expect(parsePrecomputedGenesis(bad, version.name), bad).toBeNull();
    }
  });

  it("are never used by the TypeScript sources (only by compiled code)", () => {
    expect(precomputedGenesis(version.name, 0)).toBeUndefined();
  });
});
