/**
 * The JSON object form of a header (the spec's "Block header" table; reference
 * chainweb-api.md §1.2), with keys in the reference's emission order:
 * nonce (decimal string), creationTime, parent, adjacents ({"chainId": hash}),
 * target and weight (base64url of 32-byte little-endian numbers), payloadHash,
 * chainId, height, ledgerVersion (the network NAME), epochStart, featureFlags,
 * hash.
 *
 * `featureFlags` is a JSON number when it fits in 2^53 − 1, else a decimal
 * string (old reference headers carry nonce bytes there).
 * @module
 */
import { base64UrlDecode, base64UrlEncode } from "../encoding/base64url.ts";
import { EncodingError, EncodingErrorCode } from "../encoding/errors.ts";
import { type Hash32, parseHash32 } from "../encoding/hash32.ts";
import { u256FromBytes, u256ToBytes } from "../encoding/littleEndian.ts";
import { computeBlockHash } from "./blockHash.ts";
import type { AdjacentParent, BlockHeader, UnhashedBlockHeader } from "./blockHeader.ts";
import type { DecodeHeaderOptions } from "./blockHeaderBinary.ts";
import { ChainError, ChainErrorCode } from "./errors.ts";
import { markHeaderHashed } from "./hashedHere.ts";
import { checkHeaderShape, MAX_HEADER_NUMBER } from "./headerShape.ts";
import { versionByCode, versionByName } from "./versions.ts";

export type BlockHeaderObject = {
  readonly nonce: string;
  readonly creationTime: number;
  readonly parent: string;
  readonly adjacents: Readonly<Record<string, string>>;
  readonly target: string;
  readonly payloadHash: string;
  readonly chainId: number;
  readonly weight: string;
  readonly height: number;
  readonly ledgerVersion: string;
  readonly epochStart: number;
  readonly featureFlags: number | string;
  readonly hash: string;
};

const KEYS = [
  "nonce",
  "creationTime",
  "parent",
  "adjacents",
  "target",
  "payloadHash",
  "chainId",
  "weight",
  "height",
  "ledgerVersion",
  "epochStart",
  "featureFlags",
  "hash",
] as const;

/** The object form of a header, keys in the spec's order. */
export function blockHeaderToObject(header: BlockHeader): BlockHeaderObject {
  const adjacents: Record<string, string> = {};
  for (const a of header.adjacents) adjacents[String(a.chainId)] = a.hash;
  return {
    nonce: header.nonce.toString(),
    creationTime: header.creationTime,
    parent: header.parent,
    adjacents,
    target: base64UrlEncode(u256ToBytes(header.target, "target")),
    payloadHash: header.payloadHash,
    chainId: header.chainId,
    weight: base64UrlEncode(u256ToBytes(header.weight, "weight")),
    height: header.height,
    ledgerVersion: versionByCode(header.versionCode).name,
    epochStart: header.epochStart,
    featureFlags:
      header.featureFlags <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(header.featureFlags)
        : header.featureFlags.toString(),
    hash: header.hash,
  };
}

function badObject(field: string, reason: string): never {
  throw new ChainError(
    { code: ChainErrorCode.BadHeaderObject, field, reason },
    `${field}: ${reason}`,
  );
}

function badType(field: string, expected: string): never {
  throw new EncodingError(
    { code: EncodingErrorCode.BadType, field, expected },
    `${field}: expected ${expected}`,
  );
}

function outOfRange(field: string, value: string): never {
  throw new EncodingError(
    { code: EncodingErrorCode.OutOfRange, field, value },
    `${field}: ${value} is out of range`,
  );
}

function safeCount(value: unknown, field: string, max = MAX_HEADER_NUMBER): number {
  if (typeof value !== "number") badType(field, "an integer");
  if (!Number.isSafeInteger(value) || value < 0 || value > max) outOfRange(field, `${value}`);
  return value;
}

const DECIMAL_U64 = /^(0|[1-9][0-9]{0,19})$/;

function u64Decimal(value: unknown, field: string): bigint {
  if (typeof value !== "string") badType(field, "a decimal string");
  if (!DECIMAL_U64.test(value)) badType(field, "a decimal string");
  const v = BigInt(value);
  if (v >= 1n << 64n) outOfRange(field, value);
  return v;
}

function u256Text(value: unknown, field: string): bigint {
  if (typeof value !== "string") badType(field, "a base64url string");
  const bytes = base64UrlDecode(value, field);
  if (bytes.length !== 32) {
    throw new EncodingError(
      { code: EncodingErrorCode.BadLength, field, expected: 32, actual: bytes.length },
      `${field}: a 256-bit number is 32 bytes, got ${bytes.length}`,
    );
  }
  return u256FromBytes(bytes, field);
}

const CHAIN_KEY = /^(0|[1-9][0-9]{0,9})$/;

function adjacentsOf(value: unknown): AdjacentParent[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    badType("adjacents", "an object of chain id → hash");
  }
  const out: AdjacentParent[] = [];
  for (const [key, hash] of Object.entries(value)) {
    if (!CHAIN_KEY.test(key) || Number(key) > 0xffffffff) {
      badObject("adjacents", `${JSON.stringify(key)} is not a chain id`);
    }
    out.push({ chainId: Number(key), hash: parseHash32(hash, `adjacents.${key}`) });
  }
  return out.sort((a, b) => a.chainId - b.chainId);
}

/**
 * Decodes the object form (e.g. parsed JSON). Unknown or missing keys are
 * rejected; the hash is checked unless `verifyHash` is false.
 * @throws {ChainError} CHAIN_BAD_HEADER_OBJECT (missing/unknown key), and the
 *   codes of {@link checkHeaderShape}, CHAIN_HASH_MISMATCH.
 * @throws {EncodingError} ENC_BAD_TYPE, ENC_OUT_OF_RANGE, ENC_BAD_LENGTH,
 *   ENC_BAD_BASE64URL naming the key.
 */
export function blockHeaderFromObject(
  value: unknown,
  options: DecodeHeaderOptions = {},
): BlockHeader {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    badType("header", "a header object");
  }
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!(KEYS as readonly string[]).includes(k)) badObject(k, "unknown key");
  }
  for (const k of KEYS) if (!(k in o)) badObject(k, "missing");
  if (typeof o.ledgerVersion !== "string") badType("ledgerVersion", "a network name");
  let featureFlags: bigint;
  if (typeof o.featureFlags === "string") featureFlags = u64Decimal(o.featureFlags, "featureFlags");
  else featureFlags = BigInt(safeCount(o.featureFlags, "featureFlags"));
  const header: UnhashedBlockHeader = {
    featureFlags,
    creationTime: safeCount(o.creationTime, "creationTime"),
    parent: parseHash32(o.parent, "parent"),
    adjacents: adjacentsOf(o.adjacents),
    target: u256Text(o.target, "target"),
    payloadHash: parseHash32(o.payloadHash, "payloadHash"),
    chainId: safeCount(o.chainId, "chainId", 0xffffffff),
    weight: u256Text(o.weight, "weight"),
    height: safeCount(o.height, "height"),
    versionCode: versionByName(o.ledgerVersion, "ledgerVersion").code,
    epochStart: safeCount(o.epochStart, "epochStart"),
    nonce: u64Decimal(o.nonce, "nonce"),
  };
  checkHeaderShape(header);
  const hash: Hash32 = parseHash32(o.hash, "hash");
  if (options.verifyHash === false) return { ...header, hash };
  const computed = computeBlockHash(header);
  if (computed !== hash) {
    throw new ChainError(
      { code: ChainErrorCode.HashMismatch, field: "hash", expected: computed, actual: hash },
      `hash: the header says ${hash}, its fields hash to ${computed}`,
    );
  }
  return markHeaderHashed({ ...header, hash });
}
