/**
 * Errors of the mempool: a chain's pool is full (the submission may be
 * retried once blocks have taken commands out).
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const MempoolErrorCode = {
  Full: "MEMPOOL_FULL",
} as const;

export type MempoolErrorCodeValue = (typeof MempoolErrorCode)[keyof typeof MempoolErrorCode];

export type MempoolErrorType = {
  code: typeof MempoolErrorCode.Full;
  chainId: number;
  limit: number;
};

export class MempoolError extends NodeError<MempoolErrorType> {}
