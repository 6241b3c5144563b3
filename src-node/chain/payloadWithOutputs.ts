/**
 * A block payload with its outputs, and its JSON forms (reference
 * chainweb-api.md §7.2): `PayloadWithOutputs` = {transactions: [[txB64,
 * outputB64], …], minerData, transactionsHash, outputsHash, payloadHash,
 * coinbase} and `PayloadData` = {transactions: [txB64, …], minerData,
 * transactionsHash, outputsHash, payloadHash}. Strings are unpadded base64url
 * of the raw UTF-8 JSON bytes.
 * @module
 */
import { base64UrlDecode, base64UrlEncode } from "../encoding/base64url.ts";
import { type Hash32, parseHash32 } from "../encoding/hash32.ts";
import { ChainError, ChainErrorCode } from "./errors.ts";
import { markPayloadHashed } from "./hashedHere.ts";
import { outputsHashOf, payloadHashOf, transactionsHashOf } from "./payloadHashes.ts";

/** A transaction (UTF-8 bytes of the signed command JSON) and its output (the command result JSON). */
export type PayloadTransaction = {
  readonly transaction: Uint8Array;
  readonly output: Uint8Array;
};

export type PayloadWithOutputs = {
  readonly transactions: readonly PayloadTransaction[];
  readonly minerData: Uint8Array;
  /** The coinbase command result JSON bytes. */
  readonly coinbase: Uint8Array;
  readonly transactionsHash: Hash32;
  readonly outputsHash: Hash32;
  readonly payloadHash: Hash32;
};

export type PayloadWithOutputsJson = {
  readonly transactions: readonly (readonly [string, string])[];
  readonly minerData: string;
  readonly transactionsHash: string;
  readonly outputsHash: string;
  readonly payloadHash: string;
  readonly coinbase: string;
};

export type PayloadDataJson = {
  readonly transactions: readonly string[];
  readonly minerData: string;
  readonly transactionsHash: string;
  readonly outputsHash: string;
  readonly payloadHash: string;
};

/** Computes the hashes of a payload. */
export function buildPayloadWithOutputs(parts: {
  readonly transactions: readonly PayloadTransaction[];
  readonly minerData: Uint8Array;
  readonly coinbase: Uint8Array;
}): PayloadWithOutputs {
  // A copy the caller cannot change afterwards, so that the hashes stay its own.
  const transactions = Object.freeze(
    parts.transactions.map((t) => Object.freeze({ transaction: t.transaction, output: t.output })),
  );
  const transactionsHash = transactionsHashOf(
    parts.minerData,
    transactions.map((t) => t.transaction),
  );
  const outputsHash = outputsHashOf(
    parts.coinbase,
    transactions.map((t) => t.output),
  );
  // Frozen and marked: its hashes stay those of its contents (hashedHere.ts).
  return markPayloadHashed(
    Object.freeze({
      transactions,
      minerData: parts.minerData,
      coinbase: parts.coinbase,
      transactionsHash,
      outputsHash,
      payloadHash: payloadHashOf(transactionsHash, outputsHash),
    }),
  );
}

/** The PayloadWithOutputs JSON object (key order as the reference emits it). */
export function payloadWithOutputsToJson(p: PayloadWithOutputs): PayloadWithOutputsJson {
  return {
    transactions: p.transactions.map(
      (t) => [base64UrlEncode(t.transaction), base64UrlEncode(t.output)] as const,
    ),
    minerData: base64UrlEncode(p.minerData),
    transactionsHash: p.transactionsHash,
    outputsHash: p.outputsHash,
    payloadHash: p.payloadHash,
    coinbase: base64UrlEncode(p.coinbase),
  };
}

/** The PayloadData JSON object (transactions without outputs, no coinbase). */
export function payloadDataToJson(p: PayloadWithOutputs): PayloadDataJson {
  return {
    transactions: p.transactions.map((t) => base64UrlEncode(t.transaction)),
    minerData: base64UrlEncode(p.minerData),
    transactionsHash: p.transactionsHash,
    outputsHash: p.outputsHash,
    payloadHash: p.payloadHash,
  };
}

function bad(field: string, reason: string): never {
  throw new ChainError({ code: ChainErrorCode.BadPayload, field, reason }, `${field}: ${reason}`);
}

function mismatch(field: string, expected: Hash32, actual: Hash32): never {
  throw new ChainError(
    { code: ChainErrorCode.PayloadHashMismatch, field, expected, actual },
    `${field}: the payload says ${actual}, its contents hash to ${expected}`,
  );
}

/**
 * Parses a PayloadWithOutputs JSON object and checks that its three hashes
 * are the hashes of its contents.
 * @throws {ChainError} CHAIN_BAD_PAYLOAD (shape), CHAIN_PAYLOAD_HASH_MISMATCH.
 * @throws {EncodingError} ENC_* for bad base64url, naming the field.
 */
export function payloadWithOutputsFromJson(value: unknown): PayloadWithOutputs {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    bad("payloadWithOutputs", "expected an object");
  }
  const o = value as Record<string, unknown>;
  const keys = [
    "transactions",
    "minerData",
    "transactionsHash",
    "outputsHash",
    "payloadHash",
    "coinbase",
  ];
  for (const k of Object.keys(o)) if (!keys.includes(k)) bad(k, "unknown key");
  for (const k of keys) if (!(k in o)) bad(k, "missing");
  if (!Array.isArray(o.transactions)) bad("transactions", "expected an array of pairs");
  const transactions = o.transactions.map((pair: unknown, i: number): PayloadTransaction => {
    if (!Array.isArray(pair) || pair.length !== 2)
      bad(`transactions[${i}]`, "expected [tx, output]");
    return {
      transaction: base64UrlDecode(pair[0], `transactions[${i}][0]`),
      output: base64UrlDecode(pair[1], `transactions[${i}][1]`),
    };
  });
  const built = buildPayloadWithOutputs({
    transactions,
    minerData: base64UrlDecode(o.minerData as string, "minerData"),
    coinbase: base64UrlDecode(o.coinbase as string, "coinbase"),
  });
  const stated = {
    transactionsHash: parseHash32(o.transactionsHash, "transactionsHash"),
    outputsHash: parseHash32(o.outputsHash, "outputsHash"),
    payloadHash: parseHash32(o.payloadHash, "payloadHash"),
  };
  if (stated.transactionsHash !== built.transactionsHash) {
    mismatch("transactionsHash", built.transactionsHash, stated.transactionsHash);
  }
  if (stated.outputsHash !== built.outputsHash)
    mismatch("outputsHash", built.outputsHash, stated.outputsHash);
  if (stated.payloadHash !== built.payloadHash)
    mismatch("payloadHash", built.payloadHash, stated.payloadHash);
  return built;
}
