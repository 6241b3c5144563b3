/**
 * Shared vectors payload-hashes.json: transactionsHash, outputsHash and
 * payloadHash of real and synthetic payloads (and of the reference genesis
 * payload of mainnet chains 10–19, given as leaf hashes), the
 * PayloadWithOutputs JSON form, and miner data bytes.
 */
import { describe, expect, it } from "vitest";
import { buildGenesisPayload, NO_COINBASE_OUTPUT } from "../../src-node/chain/genesisPayload.ts";
import { minerDataBytes, minerDataJson, parseMinerData } from "../../src-node/chain/minerData.ts";
import {
  coinbaseLeaf,
  minerDataLeaf,
  outputLeaf,
  outputsHashOf,
  payloadHashOf,
  transactionLeaf,
  transactionsHashOfLeaves,
} from "../../src-node/chain/payloadHashes.ts";
import {
  buildPayloadWithOutputs,
  payloadDataToJson,
  payloadWithOutputsFromJson,
  payloadWithOutputsToJson,
} from "../../src-node/chain/payloadWithOutputs.ts";
import { base64UrlDecode, base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { hexEncode } from "../../src-node/encoding/hex.ts";
import { loadVectors } from "../support/vectors.ts";

type PayloadCase = {
  name: string;
  transactions?: [string, string][];
  transactionLeafHashesHex_0x0013?: string[];
  outputs?: string[];
  minerData: string;
  coinbase: string;
  transactionsHash: string;
  outputsHash: string;
  payloadHash: string;
  decoded: { minerData: string; coinbase: string };
  leafHashesHex: {
    minerData_0x0017: string;
    coinbase_0x0018: string;
    transactions_0x0013?: string[];
    outputs_0x0014: string[];
  };
};

const { cases } = loadVectors<PayloadCase>("payload-hashes.json");
const bytes = (b64: string, f = "vector") => base64UrlDecode(b64, f);

describe("[chain] payload-hashes.json vectors", () => {
  it("has 8 cases", () => expect(cases.length).toBe(8));
  for (const c of cases) {
    describe(c.name, () => {
      it("has the listed leaf hashes", () => {
        expect(hexEncode(minerDataLeaf(bytes(c.minerData)))).toBe(c.leafHashesHex.minerData_0x0017);
        expect(hexEncode(coinbaseLeaf(bytes(c.coinbase)))).toBe(c.leafHashesHex.coinbase_0x0018);
        const outputs = c.transactions?.map((t) => t[1]) ?? c.outputs ?? [];
        expect(outputs.map((o) => hexEncode(outputLeaf(bytes(o))))).toEqual(
          c.leafHashesHex.outputs_0x0014,
        );
        if (c.transactions !== undefined) {
          expect(c.transactions.map((t) => hexEncode(transactionLeaf(bytes(t[0]))))).toEqual(
            c.leafHashesHex.transactions_0x0013,
          );
        }
      });

      it("has the listed transactionsHash, outputsHash and payloadHash", () => {
        const outputs = (c.transactions?.map((t) => t[1]) ?? c.outputs ?? []).map((o) => bytes(o));
        const txLeaves =
          c.transactions?.map((t) => transactionLeaf(bytes(t[0]))) ??
          (c.transactionLeafHashesHex_0x0013 ?? []).map((h) => Buffer.from(h, "hex"));
        const txHash = transactionsHashOfLeaves(minerDataLeaf(bytes(c.minerData)), txLeaves);
        const outHash = outputsHashOf(bytes(c.coinbase), outputs);
        expect(txHash).toBe(c.transactionsHash);
        expect(outHash).toBe(c.outputsHash);
        expect(payloadHashOf(txHash, outHash)).toBe(c.payloadHash);
      });

      it("miner data re-serializes to the same bytes", () => {
        const info = parseMinerData(bytes(c.minerData));
        expect(minerDataJson(info)).toBe(c.decoded.minerData);
        expect(base64UrlEncode(minerDataBytes(info))).toBe(c.minerData);
      });

      if (c.transactions !== undefined) {
        const txs = c.transactions;
        it("builds and parses the PayloadWithOutputs JSON form", () => {
          const json = {
            transactions: txs,
            minerData: c.minerData,
            transactionsHash: c.transactionsHash,
            outputsHash: c.outputsHash,
            payloadHash: c.payloadHash,
            coinbase: c.coinbase,
          };
          const p = payloadWithOutputsFromJson(json);
          expect(payloadWithOutputsToJson(p)).toEqual(json);
          expect(Object.keys(payloadWithOutputsToJson(p))).toEqual(Object.keys(json));
          const built = buildPayloadWithOutputs({
            transactions: txs.map(([t, o]) => ({ transaction: bytes(t), output: bytes(o) })),
            minerData: bytes(c.minerData),
            coinbase: bytes(c.coinbase),
          });
          expect(built.payloadHash).toBe(c.payloadHash);
          expect(payloadDataToJson(built)).toEqual({
            transactions: txs.map((t) => t[0]),
            minerData: c.minerData,
            transactionsHash: c.transactionsHash,
            outputsHash: c.outputsHash,
            payloadHash: c.payloadHash,
          });
        });
      }
    });
  }

  it("our genesis payload uses the reference genesis miner data and NO_COINBASE output", () => {
    const ref = cases.find((c) => c.name.includes("genesis"));
    expect(ref).toBeDefined();
    const ours = buildGenesisPayload([]);
    expect(new TextDecoder().decode(ours.minerData)).toBe(ref?.decoded.minerData);
    expect(new TextDecoder().decode(ours.coinbase)).toBe(ref?.decoded.coinbase);
    expect(NO_COINBASE_OUTPUT).toBe(ref?.decoded.coinbase);
    expect(new TextDecoder().decode(ours.minerData)).toBe(
      '{"account":"NoMiner","predicate":"<","public-keys":[]}',
    );
    expect(ours.transactions).toEqual([]);
  });
});
