/**
 * Errors of the chain area. Every error names a `field`: the header or
 * payload field a decoder rejected, or the field a validation rule is about.
 *
 * Format errors of single values (base64url, lengths, integer ranges) come
 * from the encoding area (`ENC_*`) with the same field names; the codes here
 * are about what the values mean.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const ChainErrorCode = {
  // Decoding and the shape of a header.
  UnknownVersion: "CHAIN_UNKNOWN_VERSION",
  BadChainId: "CHAIN_BAD_CHAIN_ID",
  HeightOutOfRange: "CHAIN_HEIGHT_OUT_OF_RANGE",
  BadAdjacents: "CHAIN_BAD_ADJACENTS",
  BadHeaderObject: "CHAIN_BAD_HEADER_OBJECT",
  HashMismatch: "CHAIN_HASH_MISMATCH",
  // Header validation rules (reference chainweb-api.md §4).
  GenesisNotValidated: "CHAIN_GENESIS_NOT_VALIDATED",
  ParentUnknown: "CHAIN_PARENT_UNKNOWN",
  ParentMismatch: "CHAIN_PARENT_MISMATCH",
  AdjacentParentUnknown: "CHAIN_ADJACENT_PARENT_UNKNOWN",
  WrongHeight: "CHAIN_WRONG_HEIGHT",
  WrongChain: "CHAIN_WRONG_CHAIN",
  WrongVersion: "CHAIN_WRONG_VERSION",
  WrongAdjacentChains: "CHAIN_WRONG_ADJACENT_CHAINS",
  NotBraided: "CHAIN_NOT_BRAIDED",
  CreationTimeNotIncreasing: "CHAIN_CREATION_TIME_NOT_INCREASING",
  BlockInFuture: "CHAIN_BLOCK_IN_FUTURE",
  WrongEpochStart: "CHAIN_WRONG_EPOCH_START",
  WrongTarget: "CHAIN_WRONG_TARGET",
  WrongWeight: "CHAIN_WRONG_WEIGHT",
  BadPow: "CHAIN_BAD_POW",
  WrongPayloadHash: "CHAIN_WRONG_PAYLOAD_HASH",
  BadFeatureFlags: "CHAIN_BAD_FEATURE_FLAGS",
  // Cuts.
  InvalidCut: "CHAIN_INVALID_CUT",
  NotMonotonic: "CHAIN_NOT_MONOTONIC",
  // Payloads and miner data.
  BadPayload: "CHAIN_BAD_PAYLOAD",
  PayloadHashMismatch: "CHAIN_PAYLOAD_HASH_MISMATCH",
  BadMinerData: "CHAIN_BAD_MINER_DATA",
  // SPV proofs.
  BadSpvProof: "CHAIN_BAD_SPV_PROOF",
  // A state that is a bug (inconsistent version data, a caller breaking a precondition).
  Invariant: "CHAIN_INVARIANT",
} as const;

export type ChainErrorCodeValue = (typeof ChainErrorCode)[keyof typeof ChainErrorCode];

/** Codes of the header validation rules; their payloads carry expected and actual values. */
export type HeaderRuleCode =
  | typeof ChainErrorCode.GenesisNotValidated
  | typeof ChainErrorCode.ParentUnknown
  | typeof ChainErrorCode.ParentMismatch
  | typeof ChainErrorCode.AdjacentParentUnknown
  | typeof ChainErrorCode.WrongHeight
  | typeof ChainErrorCode.WrongChain
  | typeof ChainErrorCode.WrongVersion
  | typeof ChainErrorCode.WrongAdjacentChains
  | typeof ChainErrorCode.NotBraided
  | typeof ChainErrorCode.CreationTimeNotIncreasing
  | typeof ChainErrorCode.BlockInFuture
  | typeof ChainErrorCode.WrongEpochStart
  | typeof ChainErrorCode.WrongTarget
  | typeof ChainErrorCode.WrongWeight
  | typeof ChainErrorCode.BadPow
  | typeof ChainErrorCode.WrongPayloadHash
  | typeof ChainErrorCode.BadFeatureFlags;

export type ChainErrorType =
  | { code: typeof ChainErrorCode.UnknownVersion; field: string; value: string }
  | { code: typeof ChainErrorCode.BadChainId; field: string; chainId: number; height: number }
  | { code: typeof ChainErrorCode.HeightOutOfRange; field: string; chainId: number; height: string }
  | { code: typeof ChainErrorCode.BadAdjacents; field: string; reason: string }
  | { code: typeof ChainErrorCode.BadHeaderObject; field: string; reason: string }
  | {
      code: typeof ChainErrorCode.HashMismatch | typeof ChainErrorCode.PayloadHashMismatch;
      field: string;
      expected: string;
      actual: string;
    }
  | { code: HeaderRuleCode; field: string; expected: string; actual: string }
  | {
      code:
        | typeof ChainErrorCode.InvalidCut
        | typeof ChainErrorCode.NotMonotonic
        | typeof ChainErrorCode.BadPayload
        | typeof ChainErrorCode.BadMinerData
        | typeof ChainErrorCode.BadSpvProof
        | typeof ChainErrorCode.Invariant;
      field: string;
      reason: string;
    };

export class ChainError extends NodeError<ChainErrorType> {
  /** The field (header field, JSON key, rule subject) the error is about. */
  get field(): string {
    return this.type.field;
  }
}

/** Throws a CHAIN_INVARIANT error: the caller or the version data broke a precondition. */
export function chainInvariant(field: string, reason: string): never {
  throw new ChainError({ code: ChainErrorCode.Invariant, field, reason }, `${field}: ${reason}`);
}
