/**
 * Shared vectors spv-proofs.json: both proofs decode and run to their roots
 * (the constructed one to the real block hash of mainnet block 1,000,001),
 * and the constructed one is rebuilt from the block's header and payload with
 * our proof-path helpers, byte for byte.
 */
import { describe, expect, it } from "vitest";
import { HeaderLeaf } from "../../src-node/chain/blockHash.ts";
import { decodeBlockHeaderText } from "../../src-node/chain/blockHeaderText.ts";
import {
  adjacentLeafIndex,
  headerProofSteps,
  payloadOutputProofSteps,
} from "../../src-node/chain/merkleProofPaths.ts";
import { MerkleTag } from "../../src-node/chain/merkleTags.ts";
import { payloadWithOutputsFromJson } from "../../src-node/chain/payloadWithOutputs.ts";
import { decodeSpvProof, encodeSpvProof, runSpvProof } from "../../src-node/chain/spvProof.ts";
import {
  encodeMerkleProofObject,
  runMerkleProof,
  taggedLeafInput,
} from "../../src-node/crypto/merkle.ts";
import { base64UrlDecode, base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { loadVectors } from "../support/vectors.ts";

type SpvCase = {
  name: string;
  proofBase64: string;
  decoded: {
    chain: number;
    subjectInput: string;
    object: string;
    stepCount: number;
    subjectPosition: number;
    steps: { side: number; sibling: string }[];
  };
  intermediateHashes: string[];
  computedRoot: string;
  expectedBlockHash: string | null;
};

const { cases } = loadVectors<SpvCase>("spv-proofs.json");
const headers = loadVectors<{ name: string; headerBase64: string }>("block-headers.json").cases;
const payloads = loadVectors<{
  name: string;
  transactions?: [string, string][];
  minerData: string;
  coinbase: string;
  transactionsHash: string;
  outputsHash: string;
  payloadHash: string;
}>("payload-hashes.json").cases;

describe("[chain] spv-proofs.json vectors", () => {
  for (const c of cases) {
    it(`${c.name}: decodes and runs to its root`, () => {
      const p = decodeSpvProof(c.proofBase64);
      expect(p.chain).toBe(c.decoded.chain);
      expect(base64UrlEncode(p.subject)).toBe(c.decoded.subjectInput);
      expect(p.position).toBe(BigInt(c.decoded.subjectPosition));
      expect(p.steps.map((s) => ({ side: s.side, sibling: base64UrlEncode(s.sibling) }))).toEqual(
        c.decoded.steps,
      );
      expect(runSpvProof(p)).toBe(c.computedRoot);
      if (c.expectedBlockHash !== null) expect(runSpvProof(p)).toBe(c.expectedBlockHash);
      expect(decodeSpvProof(encodeSpvProof(p))).toEqual(p);
    });
  }

  it("rebuilds the same-chain proof of block 1,000,001 from its header and payload", () => {
    const c = cases.find((x) => x.expectedBlockHash !== null) as SpvCase;
    const header = decodeBlockHeaderText(
      headers.find((h) => h.name === "mainnet01 chain 0 height 1000001")?.headerBase64 as string,
    );
    const pj = payloads.find((x) => x.name.startsWith("mainnet01 chain 0 height 1000001"));
    const payload = payloadWithOutputsFromJson({
      transactions: pj?.transactions,
      minerData: pj?.minerData,
      transactionsHash: pj?.transactionsHash,
      outputsHash: pj?.outputsHash,
      payloadHash: pj?.payloadHash,
      coinbase: pj?.coinbase,
    });
    expect(payload.payloadHash).toBe(header.payloadHash);
    const steps = [
      ...payloadOutputProofSteps(payload, 0),
      ...headerProofSteps(header, HeaderLeaf.payloadHash),
    ];
    expect(base64UrlEncode(encodeMerkleProofObject(1n, steps))).toBe(c.decoded.object);
    const subject = taggedLeafInput(
      MerkleTag.transactionOutput,
      (payload.transactions[0] as { output: Uint8Array }).output,
    );
    expect(base64UrlEncode(subject)).toBe(c.decoded.subjectInput);
    const proof = { chain: 0, subject, position: 1n, steps };
    expect(runSpvProof(proof)).toBe(header.hash);
    expect(encodeSpvProof(proof)).toBe(c.proofBase64);
  });

  it("walks a header tree through its parent and adjacent leaves", () => {
    const header = decodeBlockHeaderText(headers[0]?.headerBase64 as string);
    expect(adjacentLeafIndex(header, 10)).toBe(12);
    for (const leaf of [HeaderLeaf.parent, adjacentLeafIndex(header, 15)]) {
      const subject = leaf === HeaderLeaf.parent ? header.parent : header.adjacents[2]?.hash;
      const root = runMerkleProof(
        base64UrlDecode(subject as string, "s"),
        headerProofSteps(header, leaf),
      );
      expect(base64UrlEncode(root)).toBe(header.hash);
    }
    expect(() => adjacentLeafIndex(header, 1)).toThrow();
  });

  it("rejects malformed proofs with CHAIN_BAD_SPV_PROOF", () => {
    const good = JSON.parse(Buffer.from(cases[1]?.proofBase64 as string, "base64url").toString());
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    for (const bad of [
      "not base64!",
      enc([1]),
      enc({ ...good, algorithm: "SHA256" }),
      enc({ ...good, chain: "0" }),
      enc({ ...good, subject: {} }),
      enc({ ...good, object: "AAAA" }),
      enc({ ...good, object: 5 }),
    ]) {
      try {
        decodeSpvProof(bad);
        expect.unreachable(bad);
      } catch (e) {
        expect(isNodeError(e, "CHAIN_BAD_SPV_PROOF")).toBe(true);
      }
    }
  });
});
