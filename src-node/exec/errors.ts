/**
 * Errors of the exec area.
 * - {@link CommandError}: one command is refused (command/errors.ts, the
 *   command model's; re-exported here for the node's code).
 * - {@link ExecError}: execution as a whole: a batch with refused commands,
 *   a block whose payload does not execute to its outputs, private
 *   submissions, /listen time-outs, and broken assumptions.
 * @module
 */
import type { CommandError } from "../command/errors.ts";
import { NodeError } from "../errors/nodeError.ts";

// The command errors moved to the command model (command/errors.ts); exec,
// mempool and api code names them through this area as before.
export {
  CommandError,
  CommandErrorCode,
  type CommandErrorType,
  commandInvariant,
} from "../command/errors.ts";

export const ExecErrorCode = {
  BatchInvalid: "EXEC_BATCH_INVALID",
  PreflightInvalid: "EXEC_PREFLIGHT_INVALID",
  BlockInvalid: "EXEC_BLOCK_INVALID",
  OutputMismatch: "EXEC_OUTPUT_MISMATCH",
  PrivateNeedsPeer: "EXEC_PRIVATE_NEEDS_PEER",
  ListenTimeout: "EXEC_LISTEN_TIMEOUT",
  ShuttingDown: "EXEC_SHUTTING_DOWN",
  CoinbaseFails: "EXEC_COINBASE_FAILS",
  GenesisFailed: "EXEC_GENESIS_FAILED",
  ReplayMismatch: "EXEC_REPLAY_MISMATCH",
  TimeLimit: "EXEC_TIME_LIMIT",
  WorkerFailed: "EXEC_WORKER_FAILED",
  StatePruned: "EXEC_STATE_PRUNED",
  Invariant: "EXEC_INVARIANT",
} as const;

export type ExecErrorCodeValue = (typeof ExecErrorCode)[keyof typeof ExecErrorCode];

export type ExecErrorType =
  /** `/send`: the commands refused, each with its index and request key (none is accepted). */
  | {
      code: typeof ExecErrorCode.BatchInvalid;
      failures: readonly { index: number; requestKey: string | null; error: CommandError }[];
    }
  /** /local?preflight=true: the metadata rules the command breaks. */
  | { code: typeof ExecErrorCode.PreflightInvalid; failures: readonly CommandError[] }
  /** A block whose command at `index` breaks a rule (`reason` says which). */
  | { code: typeof ExecErrorCode.BlockInvalid; blockHash: string; index: number; reason: string }
  /** A block whose stated outputs are not what executing it gives; `part` names the output. */
  | { code: typeof ExecErrorCode.OutputMismatch; blockHash: string; part: string }
  | { code: typeof ExecErrorCode.PrivateNeedsPeer; field: string }
  | { code: typeof ExecErrorCode.ListenTimeout; requestKey: string; timeoutMs: number }
  /** The node closed while the request waited. */
  | { code: typeof ExecErrorCode.ShuttingDown }
  /** New work for a miner whose coinbase the coin contract refuses: its reward would be lost. */
  | { code: typeof ExecErrorCode.CoinbaseFails; account: string; reason: string }
  | { code: typeof ExecErrorCode.GenesisFailed; chainId: number; reason: string }
  /** Re-executing a stored block gave other outputs than when it was accepted (a bug). */
  | {
      code: typeof ExecErrorCode.ReplayMismatch;
      blockHash: string;
      chainId: number;
      height: number;
    }
  /** A command's evaluation passed the wall-clock limit (payload building and /local only). */
  | { code: typeof ExecErrorCode.TimeLimit; limitMs: number }
  /** The execution worker running the request stopped (it is restarted; `reason` says why). */
  | { code: typeof ExecErrorCode.WorkerFailed; reason: string }
  /** /local: the state at `height` was compacted away (below the horizon at `horizonHeight`). */
  | {
      code: typeof ExecErrorCode.StatePruned;
      chainId: number;
      height: number;
      horizonHeight: number;
    }
  | { code: typeof ExecErrorCode.Invariant; reason: string };

export class ExecError extends NodeError<ExecErrorType> {}

/** A broken internal assumption of execution (a bug, never bad input). */
export function execInvariant(reason: string, cause?: unknown): ExecError {
  return new ExecError(
    { code: ExecErrorCode.Invariant, reason },
    `execution: invariant broken: ${reason}`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * `/spv` (reference chainweb-api.md §9.1): why a proof could not be made.
 * Texts start as the reference's do, so existing clients recognise them.
 */
export const SpvErrorCode = {
  BadRequestKey: "SPV_BAD_REQUEST_KEY",
  UnknownRequestKey: "SPV_UNKNOWN_REQUEST_KEY",
  BadTargetChain: "SPV_BAD_TARGET_CHAIN",
  TargetNotReached: "SPV_TARGET_NOT_REACHED",
  Unreachable: "SPV_UNREACHABLE",
} as const;

export type SpvErrorCodeValue = (typeof SpvErrorCode)[keyof typeof SpvErrorCode];

export type SpvErrorType =
  /** The request key is not 32 bytes of base64url. */
  | { code: typeof SpvErrorCode.BadRequestKey; requestKey: string }
  /** No block of the source chain's best chain holds the command. */
  | { code: typeof SpvErrorCode.UnknownRequestKey; chainId: number; requestKey: string }
  /** `targetChainId` is missing, malformed or not a chain of the network. */
  | { code: typeof SpvErrorCode.BadTargetChain; value: string }
  /** The target chain did not reach the needed height within the wait. */
  | {
      code: typeof SpvErrorCode.TargetNotReached;
      targetChainId: number;
      neededHeight: number;
      height: number;
      waitedMs: number;
    }
  /** No header of the target chain can have the command's block in its history. */
  | { code: typeof SpvErrorCode.Unreachable; sourceChainId: number; targetChainId: number };

export class SpvError extends NodeError<SpvErrorType> {}
