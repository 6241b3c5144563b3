/**
 * The SPV proof format of `/spv` (reference chainweb-api.md §9.1): base64url
 * (unpadded) of the UTF-8 JSON `{"chain": <target chain>, "object": <b64
 * merkle-log proof object>, "subject": {"input": <b64 tagged subject>},
 * "algorithm": "SHA512t_256"}`. Running a proof hashes the subject as an
 * input leaf, H(0x00 ‖ input), and applies the steps; the result must be a
 * block hash on the target chain.
 * @module
 */

import {
  decodeMerkleProofObject,
  encodeMerkleProofObject,
  type MerkleProofStep,
  merkleLeaf,
  runMerkleProof,
} from "../crypto/merkle.ts";
import { base64UrlDecode, base64UrlEncode, base64UrlEncodeText } from "../encoding/base64url.ts";
import { type Hash32, hash32FromBytes } from "../encoding/hash32.ts";
import { ChainError, ChainErrorCode } from "./errors.ts";

export type SpvProof = {
  /** The chain whose block hash the proof reaches. */
  readonly chain: number;
  /** The subject bytes as hashed: 2-byte tag ‖ value (an output: 0x0014 ‖ JSON). */
  readonly subject: Uint8Array;
  /** Informational position of the subject in its first tree. */
  readonly position: bigint;
  readonly steps: readonly MerkleProofStep[];
};

function bad(reason: string): never {
  throw new ChainError(
    { code: ChainErrorCode.BadSpvProof, field: "proof", reason },
    `proof: ${reason}`,
  );
}

/** The `/spv` text of a proof (keys in the order chain, object, subject, algorithm). */
export function encodeSpvProof(proof: SpvProof): string {
  return base64UrlEncodeText(
    JSON.stringify({
      chain: proof.chain,
      object: base64UrlEncode(encodeMerkleProofObject(proof.position, proof.steps)),
      subject: { input: base64UrlEncode(proof.subject) },
      algorithm: "SHA512t_256",
    }),
  );
}

/**
 * Decodes `/spv` proof text (in any key order).
 * @throws {ChainError} CHAIN_BAD_SPV_PROOF for anything malformed.
 */
export function decodeSpvProof(text: string): SpvProof {
  let json: unknown;
  try {
    json = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(base64UrlDecode(text, "proof")),
    );
  } catch {
    bad("not base64url of UTF-8 JSON");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) bad("not a JSON object");
  const o = json as Record<string, unknown>;
  if (o.algorithm !== "SHA512t_256") bad("algorithm must be SHA512t_256");
  if (
    typeof o.chain !== "number" ||
    !Number.isInteger(o.chain) ||
    o.chain < 0 ||
    o.chain > 0xffffffff
  ) {
    bad("chain must be a chain id");
  }
  const subject = o.subject as Record<string, unknown> | null | undefined;
  if (typeof subject !== "object" || subject === null || typeof subject.input !== "string") {
    bad("subject.input must be a base64url string");
  }
  if (typeof o.object !== "string") bad("object must be a base64url string");
  try {
    const { position, steps } = decodeMerkleProofObject(base64UrlDecode(o.object, "object"));
    return { chain: o.chain, subject: base64UrlDecode(subject.input, "subject"), position, steps };
  } catch (e) {
    if (e instanceof ChainError) throw e;
    return bad(`object or subject do not decode: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The root a proof reaches (a block hash on `proof.chain` if the proof is valid). */
export function runSpvProof(proof: SpvProof): Hash32 {
  return hash32FromBytes(runMerkleProof(merkleLeaf(null, proof.subject), proof.steps));
}
