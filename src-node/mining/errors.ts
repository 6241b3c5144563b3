/**
 * Errors of the mining area: malformed work, bad search arguments, worker
 * messages that do not match `protocol.ts`, failed worker threads; and, for
 * the mining API and the miners built on it: bad miner information, unknown
 * or altered work, failed proof of work, bad creation times, no work to give,
 * too many update streams, and a node the stand-alone miner cannot talk to;
 * and for the app-private miner control route a miner that cannot start
 * (the route's guard has the APP_* codes, api/errors.ts).
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
  BadMinerInfo: "MINING_BAD_MINER_INFO",
  BadChain: "MINING_BAD_CHAIN",
  UnknownPayload: "MINING_UNKNOWN_PAYLOAD",
  ChangedWork: "MINING_CHANGED_WORK",
  PowAboveTarget: "MINING_POW_ABOVE_TARGET",
  StaleCreationTime: "MINING_STALE_CREATION_TIME",
  FutureCreationTime: "MINING_FUTURE_CREATION_TIME",
  NoWork: "MINING_NO_WORK",
  TooManyStreams: "MINING_TOO_MANY_STREAMS",
  CannotStart: "MINING_CANNOT_START",
  NodeRequestFailed: "MINING_NODE_REQUEST_FAILED",
} as const;

export type MiningErrorCodeValue = (typeof MiningErrorCode)[keyof typeof MiningErrorCode];

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
  | { code: typeof MiningErrorCode.PoolClosed }
  /** `field` is the miner-information key (`account`, `predicate`, `public-keys[1]`, …). */
  | { code: typeof MiningErrorCode.BadMinerInfo; field: string; reason: string }
  /** `value` is the chain as given (query text, or the decoded chain bytes). */
  | { code: typeof MiningErrorCode.BadChain; field: string; value: string }
  | { code: typeof MiningErrorCode.UnknownPayload; payloadHash: string }
  /** `offset` in the 286-byte work header; `field` the header field it belongs to. */
  | { code: typeof MiningErrorCode.ChangedWork; offset: number; field: string }
  | { code: typeof MiningErrorCode.PowAboveTarget; blockHash: string }
  | { code: typeof MiningErrorCode.StaleCreationTime; creationTime: number; latestParent: number }
  | { code: typeof MiningErrorCode.FutureCreationTime; creationTime: number; now: number }
  | { code: typeof MiningErrorCode.NoWork; reason: string }
  | { code: typeof MiningErrorCode.TooManyStreams; limit: number }
  | { code: typeof MiningErrorCode.CannotStart; reason: string }
  /** `status` is the HTTP status, or 0 when the node could not be reached. */
  | { code: typeof MiningErrorCode.NodeRequestFailed; url: string; status: number; reason: string };

export class MiningError extends NodeError<MiningErrorType> {}
