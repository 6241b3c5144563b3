/**
 * The binary header (318 bytes for degree-3 graphs, reference chainweb-api.md
 * §1.1) and the work header (the same without the trailing 32-byte hash, 286
 * bytes). All integers little-endian; adjacent parents sorted by chain id.
 *
 * Decoding checks lengths, ranges, the version, chain, height and adjacent
 * chain ids (headerShape.ts) and, unless told not to, that the trailing hash
 * is the block hash of the fields. Decoding a work header computes the hash.
 * @module
 */
import { EncodingError, EncodingErrorCode } from "../encoding/errors.ts";
import { type Hash32, hash32Bytes, hash32FromBytes } from "../encoding/hash32.ts";
import {
  readI64,
  readU16,
  readU32,
  readU64,
  readU256,
  writeI64,
  writeU16,
  writeU32,
  writeU64,
  writeU256,
} from "../encoding/littleEndian.ts";
import { blockHashOfBytes } from "./blockHash.ts";
import {
  ADJACENT_ENTRY_SIZE,
  type AdjacentParent,
  type BlockHeader,
  headerSizeForDegree,
  type UnhashedBlockHeader,
} from "./blockHeader.ts";
import { ChainError, ChainErrorCode } from "./errors.ts";
import { checkHeaderShape, MAX_HEADER_NUMBER } from "./headerShape.ts";

export type DecodeHeaderOptions = {
  /**
   * Recompute the block hash and reject a header whose trailing hash differs
   * (default true). Only data the node wrote itself may skip it.
   */
  readonly verifyHash?: boolean;
};

function workSize(adjacentCount: number): number {
  return headerSizeForDegree(adjacentCount) - 32;
}

/** Writes the work header (every field but the hash). */
export function encodeWorkHeader(header: UnhashedBlockHeader): Uint8Array {
  const n = header.adjacents.length;
  const out = new Uint8Array(workSize(n));
  writeU64(out, 0, header.featureFlags, "featureFlags");
  writeI64(out, 8, BigInt(header.creationTime), "creationTime");
  out.set(hash32Bytes(header.parent), 16);
  writeU16(out, 48, n, "adjacents");
  let o = 50;
  for (const a of header.adjacents) {
    writeU32(out, o, a.chainId, "adjacents");
    out.set(hash32Bytes(a.hash), o + 4);
    o += ADJACENT_ENTRY_SIZE;
  }
  writeU256(out, o, header.target, "target");
  out.set(hash32Bytes(header.payloadHash), o + 32);
  writeU32(out, o + 64, header.chainId, "chainId");
  writeU256(out, o + 68, header.weight, "weight");
  writeU64(out, o + 100, BigInt(header.height), "height");
  writeU32(out, o + 108, header.versionCode, "versionCode");
  writeI64(out, o + 112, BigInt(header.epochStart), "epochStart");
  writeU64(out, o + 120, header.nonce, "nonce");
  return out;
}

/** Writes the full binary header (work header ‖ block hash). */
export function encodeBlockHeader(header: BlockHeader): Uint8Array {
  const work = encodeWorkHeader(header);
  const out = new Uint8Array(work.length + 32);
  out.set(work, 0);
  out.set(hash32Bytes(header.hash), work.length);
  return out;
}

function time(bytes: Uint8Array, offset: number, field: string): number {
  const v = readI64(bytes, offset, field);
  if (v < 0n || v > BigInt(MAX_HEADER_NUMBER)) {
    throw new EncodingError(
      { code: EncodingErrorCode.OutOfRange, field, value: v.toString() },
      `${field}: ${v} µs is outside [0, 2^53 − 1]`,
    );
  }
  return Number(v);
}

function hashAt(bytes: Uint8Array, offset: number): Hash32 {
  return hash32FromBytes(bytes.slice(offset, offset + 32));
}

function requireBytes(bytes: unknown, field: string): asserts bytes is Uint8Array {
  if (!(bytes instanceof Uint8Array)) {
    throw new EncodingError(
      { code: EncodingErrorCode.BadType, field, expected: "bytes" },
      `${field}: expected bytes`,
    );
  }
}

/** Reads the fields of a work header of exactly `bytes.length` bytes (plus hash when `withHash`). */
function decodeFields(
  bytes: Uint8Array,
  withHash: boolean,
  field: string,
): { header: UnhashedBlockHeader; storedHash: Hash32 | undefined } {
  if (bytes.length < 50) {
    throw new EncodingError(
      {
        code: EncodingErrorCode.BadLength,
        field,
        expected: headerSizeForDegree(3) - (withHash ? 0 : 32),
        actual: bytes.length,
      },
      `${field}: ${bytes.length} bytes is too short for a header`,
    );
  }
  const n = readU16(bytes, 48, "adjacents");
  const expected = withHash ? headerSizeForDegree(n) : workSize(n);
  if (bytes.length !== expected) {
    throw new EncodingError(
      { code: EncodingErrorCode.BadLength, field, expected, actual: bytes.length },
      `${field}: a header with ${n} adjacent parents is ${expected} bytes, got ${bytes.length}`,
    );
  }
  const adjacents: AdjacentParent[] = [];
  let o = 50;
  for (let i = 0; i < n; i++) {
    adjacents.push({ chainId: readU32(bytes, o, "adjacents"), hash: hashAt(bytes, o + 4) });
    o += ADJACENT_ENTRY_SIZE;
  }
  const heightBig = readU64(bytes, o + 100, "height");
  const chainId = readU32(bytes, o + 64, "chainId");
  if (heightBig > BigInt(MAX_HEADER_NUMBER)) {
    throw new ChainError(
      { code: ChainErrorCode.HeightOutOfRange, field: "height", chainId, height: `${heightBig}` },
      `height: ${heightBig} is above 2^53 − 1`,
    );
  }
  const header: UnhashedBlockHeader = {
    featureFlags: readU64(bytes, 0, "featureFlags"),
    creationTime: time(bytes, 8, "creationTime"),
    parent: hashAt(bytes, 16),
    adjacents,
    target: readU256(bytes, o, "target"),
    payloadHash: hashAt(bytes, o + 32),
    chainId,
    weight: readU256(bytes, o + 68, "weight"),
    height: Number(heightBig),
    versionCode: readU32(bytes, o + 108, "versionCode"),
    epochStart: time(bytes, o + 112, "epochStart"),
    nonce: readU64(bytes, o + 120, "nonce"),
  };
  checkHeaderShape(header);
  return { header, storedHash: withHash ? hashAt(bytes, o + 128) : undefined };
}

/**
 * Decodes a binary header.
 * @param bytes the 318 (208 + 36·degree + 2) header bytes.
 * @throws {EncodingError} ENC_BAD_TYPE, ENC_BAD_LENGTH (field `header`), ENC_OUT_OF_RANGE.
 * @throws {ChainError} CHAIN_UNKNOWN_VERSION, CHAIN_BAD_CHAIN_ID,
 *   CHAIN_HEIGHT_OUT_OF_RANGE, CHAIN_BAD_ADJACENTS, CHAIN_HASH_MISMATCH.
 */
export function decodeBlockHeader(
  bytes: Uint8Array,
  options: DecodeHeaderOptions = {},
): BlockHeader {
  requireBytes(bytes, "header");
  const { header, storedHash } = decodeFields(bytes, true, "header");
  const hash = storedHash as Hash32;
  if (options.verifyHash !== false) {
    const computed = blockHashOfBytes(bytes);
    if (computed !== hash) {
      throw new ChainError(
        { code: ChainErrorCode.HashMismatch, field: "hash", expected: computed, actual: hash },
        `hash: the header says ${hash}, its fields hash to ${computed}`,
      );
    }
  }
  return { ...header, hash };
}

/**
 * Decodes a work header (286 bytes for degree 3, e.g. a solved mining
 * submission) and computes its block hash.
 * @throws as {@link decodeBlockHeader}, with field `workHeader` for length errors.
 */
export function decodeWorkHeader(bytes: Uint8Array): BlockHeader {
  requireBytes(bytes, "workHeader");
  const { header } = decodeFields(bytes, false, "workHeader");
  return { ...header, hash: blockHashOfBytes(bytes) };
}
