/**
 * Errors of the genesis area. Genesis must always succeed: a failing genesis
 * transaction or an unreadable contract source is a broken build or a broken
 * network definition, reported with what failed.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const GenesisErrorCode = {
  TxFailed: "GENESIS_TX_FAILED",
  SourceUnreadable: "GENESIS_SOURCE_UNREADABLE",
  BadAllocation: "GENESIS_BAD_ALLOCATION",
} as const;

export type GenesisErrorType =
  | {
      code: typeof GenesisErrorCode.TxFailed;
      network: string;
      chainId: number;
      tx: string;
      message: string;
    }
  | { code: typeof GenesisErrorCode.SourceUnreadable; file: string; reason: string }
  | {
      code: typeof GenesisErrorCode.BadAllocation;
      network: string;
      account: string;
      reason: string;
    };

export class GenesisError extends NodeError<GenesisErrorType> {}
