/**
 * Errors of the mining area: malformed work, bad search arguments, worker
 * messages that do not match `protocol.ts`, failed worker threads.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const MiningErrorCode = {
  BadWork: "MINING_BAD_WORK",
  BadArgument: "MINING_BAD_ARGUMENT",
  BadMessage: "MINING_BAD_MESSAGE",
  BadSolution: "MINING_BAD_SOLUTION",
  WorkerFailed: "MINING_WORKER_FAILED",
  PoolClosed: "MINING_POOL_CLOSED",
} as const;

export type MiningErrorType =
  | { code: typeof MiningErrorCode.BadWork; field: string; expected: number; actual: number }
  | { code: typeof MiningErrorCode.BadArgument; field: string; value: string }
  | {
      code: typeof MiningErrorCode.BadMessage;
      direction: "toWorker" | "fromWorker";
      reason: string;
    }
  | { code: typeof MiningErrorCode.BadSolution; workId: string; reason: string }
  | { code: typeof MiningErrorCode.WorkerFailed; thread: number; reason: string }
  | { code: typeof MiningErrorCode.PoolClosed };

export class MiningError extends NodeError<MiningErrorType> {}
