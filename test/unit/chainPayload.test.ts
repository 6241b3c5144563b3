/**
 * Payloads and miner data: property round trips of the PayloadWithOutputs
 * JSON form, and coded errors for malformed payloads and miner information.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { minerDataJson, parseMinerData, parseMinerInfo } from "../../src-node/chain/minerData.ts";
import {
  buildPayloadWithOutputs,
  payloadWithOutputsFromJson,
  payloadWithOutputsToJson,
} from "../../src-node/chain/payloadWithOutputs.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";

function failure(f: () => unknown): { code: string; field: string } {
  try {
    f();
  } catch (e) {
    if (isNodeError(e))
      return { code: e.code, field: (e.type as unknown as { field: string }).field };
    throw e;
  }
  throw new Error("expected a coded error");
}

const bytesArb = fc.uint8Array({ maxLength: 64 });
const payloadArb = fc
  .record({
    transactions: fc.array(fc.record({ transaction: bytesArb, output: bytesArb }), {
      maxLength: 9,
    }),
    minerData: bytesArb,
    coinbase: bytesArb,
  })
  .map(buildPayloadWithOutputs);

describe("[chain] payloads", () => {
  it("PayloadWithOutputs JSON round trip (property)", () => {
    fc.assert(
      fc.property(payloadArb, (p) => {
        const json = JSON.parse(JSON.stringify(payloadWithOutputsToJson(p)));
        expect(payloadWithOutputsFromJson(json)).toEqual(p);
      }),
      { numRuns: 200 },
    );
  });

  it("the payload hash depends on every transaction, output, miner data and coinbase", () => {
    fc.assert(
      fc.property(payloadArb, fc.nat(), (p, pick) => {
        const n = p.transactions.length;
        const which = pick % (2 * n + 2);
        const flip = (b: Uint8Array) => Uint8Array.from([...b, 1]);
        const txs = p.transactions.map((t, i) => ({
          transaction: which === 2 * i ? flip(t.transaction) : t.transaction,
          output: which === 2 * i + 1 ? flip(t.output) : t.output,
        }));
        const q = buildPayloadWithOutputs({
          transactions: txs,
          minerData: which === 2 * n ? flip(p.minerData) : p.minerData,
          coinbase: which === 2 * n + 1 ? flip(p.coinbase) : p.coinbase,
        });
        expect(q.payloadHash).not.toBe(p.payloadHash);
      }),
      { numRuns: 200 },
    );
  });

  it("rejects malformed payload JSON with coded errors", () => {
    const p = buildPayloadWithOutputs({
      transactions: [{ transaction: Uint8Array.of(1), output: Uint8Array.of(2) }],
      minerData: Uint8Array.of(3),
      coinbase: Uint8Array.of(4),
    });
    const json = payloadWithOutputsToJson(p) as unknown as Record<string, unknown>;
    expect(failure(() => payloadWithOutputsFromJson(null))).toEqual({
      code: "CHAIN_BAD_PAYLOAD",
      field: "payloadWithOutputs",
    });
    expect(failure(() => payloadWithOutputsFromJson({ ...json, extra: 1 }))).toEqual({
      code: "CHAIN_BAD_PAYLOAD",
      field: "extra",
    });
    const { coinbase: _c, ...noCoinbase } = json;
    expect(failure(() => payloadWithOutputsFromJson(noCoinbase))).toEqual({
      code: "CHAIN_BAD_PAYLOAD",
      field: "coinbase",
    });
    expect(failure(() => payloadWithOutputsFromJson({ ...json, transactions: [["AQ"]] }))).toEqual({
      code: "CHAIN_BAD_PAYLOAD",
      field: "transactions[0]",
    });
    expect(
      failure(() => payloadWithOutputsFromJson({ ...json, transactions: [["A=", "Ag"]] })),
    ).toEqual({ code: "ENC_BAD_BASE64URL", field: "transactions[0][0]" });
    expect(failure(() => payloadWithOutputsFromJson({ ...json, minerData: "Aw-" }))).toEqual({
      code: "ENC_BAD_BASE64URL",
      field: "minerData",
    });
    expect(failure(() => payloadWithOutputsFromJson({ ...json, coinbase: "BQ" }))).toEqual({
      code: "CHAIN_PAYLOAD_HASH_MISMATCH",
      field: "outputsHash",
    });
    expect(failure(() => payloadWithOutputsFromJson({ ...json, minerData: "BQ" }))).toEqual({
      code: "CHAIN_PAYLOAD_HASH_MISMATCH",
      field: "transactionsHash",
    });
    expect(
      failure(() => payloadWithOutputsFromJson({ ...json, payloadHash: json.outputsHash })),
    ).toEqual({ code: "CHAIN_PAYLOAD_HASH_MISMATCH", field: "payloadHash" });
    expect(failure(() => payloadWithOutputsFromJson({ ...json, payloadHash: "x" }))).toEqual({
      code: "ENC_BAD_LENGTH",
      field: "payloadHash",
    });
  });
});

describe("[chain] miner data", () => {
  it("serializes compactly with keys account, predicate, public-keys", () => {
    expect(minerDataJson({ account: "k:ab", predicate: "keys-all", publicKeys: ["ab"] })).toBe(
      '{"account":"k:ab","predicate":"keys-all","public-keys":["ab"]}',
    );
    const parsed = parseMinerInfo({
      "public-keys": ["ab"],
      predicate: "keys-all",
      account: "k:ab",
    });
    expect(minerDataJson(parsed)).toBe(
      '{"account":"k:ab","predicate":"keys-all","public-keys":["ab"]}',
    );
  });
  it("rejects malformed miner information", () => {
    expect(failure(() => parseMinerInfo("x"))).toEqual({
      code: "CHAIN_BAD_MINER_DATA",
      field: "minerInfo",
    });
    expect(
      failure(() => parseMinerInfo({ account: "", predicate: "p", "public-keys": [] })),
    ).toEqual({
      code: "CHAIN_BAD_MINER_DATA",
      field: "minerInfo.account",
    });
    expect(
      failure(() => parseMinerInfo({ account: "a", predicate: 1, "public-keys": [] })),
    ).toEqual({
      code: "CHAIN_BAD_MINER_DATA",
      field: "minerInfo.predicate",
    });
    expect(
      failure(() => parseMinerInfo({ account: "a", predicate: "p", "public-keys": [1] })),
    ).toEqual({
      code: "CHAIN_BAD_MINER_DATA",
      field: "minerInfo.public-keys",
    });
    expect(
      failure(() => parseMinerInfo({ account: "a", predicate: "p", "public-keys": [], x: 1 })),
    ).toEqual({ code: "CHAIN_BAD_MINER_DATA", field: "minerInfo.x" });
    expect(failure(() => parseMinerData(Uint8Array.of(0xff)))).toEqual({
      code: "CHAIN_BAD_MINER_DATA",
      field: "minerData",
    });
  });
});
