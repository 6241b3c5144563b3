/**
 * Errors of the store area: opening and migrating databases, a database that
 * belongs to another network or genesis, lookups of keys the block database
 * does not hold (block hashes, heights, chains), and states that are bugs.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const StoreErrorCode = {
  OpenFailed: "STORE_OPEN_FAILED",
  SchemaTooNew: "STORE_SCHEMA_TOO_NEW",
  NetworkMismatch: "STORE_NETWORK_MISMATCH",
  GenesisMismatch: "STORE_GENESIS_MISMATCH",
  Corrupt: "STORE_CORRUPT",
  InvalidBlock: "STORE_INVALID_BLOCK",
  Closed: "STORE_CLOSED",
  WriteFailed: "STORE_WRITE_FAILED",
  UnknownChain: "STORE_UNKNOWN_CHAIN",
  KeyNotFound: "STORE_KEY_NOT_FOUND",
  HeightNotFound: "STORE_HEIGHT_NOT_FOUND",
  Invariant: "STORE_INVARIANT",
} as const;

export type StoreErrorCodeValue = (typeof StoreErrorCode)[keyof typeof StoreErrorCode];

export type StoreErrorType =
  | { code: typeof StoreErrorCode.OpenFailed; path: string; reason: string }
  | { code: typeof StoreErrorCode.SchemaTooNew; path: string; version: number; supported: number }
  | { code: typeof StoreErrorCode.NetworkMismatch; path: string; expected: string; actual: string }
  | {
      code: typeof StoreErrorCode.GenesisMismatch;
      path: string;
      chainId: number;
      expected: string;
      actual: string;
    }
  | { code: typeof StoreErrorCode.Corrupt; path: string; reason: string }
  /** A stored block that a rule added since it was stored refuses (the file is not opened). */
  | {
      code: typeof StoreErrorCode.InvalidBlock;
      path: string;
      chainId: number;
      height: number;
      hash: string;
      reason: string;
    }
  | { code: typeof StoreErrorCode.Closed; path: string }
  | { code: typeof StoreErrorCode.WriteFailed; path: string; reason: string }
  | { code: typeof StoreErrorCode.UnknownChain; chainId: number }
  /** `key` is the block hash that is not found; `what` says which argument named it. */
  | { code: typeof StoreErrorCode.KeyNotFound; key: string; what: string }
  | { code: typeof StoreErrorCode.HeightNotFound; chainId: number; height: number; what: string }
  | { code: typeof StoreErrorCode.Invariant; reason: string };

export class StoreError extends NodeError<StoreErrorType> {}

/** Throws a STORE_INVARIANT error: a state the store's own writes cannot produce (a bug). */
export function storeInvariant(reason: string): never {
  throw new StoreError({ code: StoreErrorCode.Invariant, reason }, `block store: ${reason}`);
}
