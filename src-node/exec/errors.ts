/**
 * Errors of the exec area.
 * - {@link CommandError}: one command is refused: its wire form (parsing the
 *   command, its `cmd` payload, its signatures) or a rule of the node it was
 *   sent to (network, chain, gas, time window, duplicates, gas purchase).
 *   Every one names the field it is about as a path such as
 *   `cmd.meta.gasLimit` or `sigs[1].sig`, so a boundary can show it without
 *   matching text.
 * - {@link ExecError}: execution as a whole: a batch with refused commands,
 *   a block whose payload does not execute to its outputs, private
 *   submissions, /listen time-outs, and broken assumptions.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const CommandErrorCode = {
  BadJson: "CMD_BAD_JSON",
  MissingField: "CMD_MISSING_FIELD",
  BadField: "CMD_BAD_FIELD",
  HashMismatch: "CMD_HASH_MISMATCH",
  UnsupportedScheme: "CMD_UNSUPPORTED_SCHEME",
  SigCount: "CMD_SIG_COUNT",
  BadSignature: "CMD_BAD_SIGNATURE",
  Invariant: "CMD_INVARIANT",
  WrongNetwork: "CMD_WRONG_NETWORK",
  WrongChain: "CMD_WRONG_CHAIN",
  GasLimit: "CMD_GAS_LIMIT",
  GasPriceTooLow: "CMD_GAS_PRICE_TOO_LOW",
  GasPricePrecision: "CMD_GAS_PRICE_PRECISION",
  TooManySignatures: "CMD_TOO_MANY_SIGNATURES",
  BadTtl: "CMD_BAD_TTL",
  Expired: "CMD_EXPIRED",
  FutureCreationTime: "CMD_FUTURE_CREATION_TIME",
  Duplicate: "CMD_DUPLICATE",
  BuyGasFailed: "CMD_BUY_GAS_FAILED",
  RedeemGasFailed: "CMD_REDEEM_GAS_FAILED",
} as const;

export type CommandErrorType =
  | { code: typeof CommandErrorCode.BadJson; field: string; reason: string }
  | { code: typeof CommandErrorCode.MissingField; field: string }
  | { code: typeof CommandErrorCode.BadField; field: string; expected: string }
  | { code: typeof CommandErrorCode.HashMismatch; field: string; expected: string; actual: string }
  | { code: typeof CommandErrorCode.UnsupportedScheme; field: string; scheme: string }
  | { code: typeof CommandErrorCode.SigCount; field: string; signers: number; sigs: number }
  | { code: typeof CommandErrorCode.BadSignature; field: string; index: number }
  | { code: typeof CommandErrorCode.Invariant; field: string; reason: string }
  | {
      code: typeof CommandErrorCode.WrongNetwork;
      field: string;
      expected: string;
      actual: string | null;
    }
  | { code: typeof CommandErrorCode.WrongChain; field: string; expected: string; actual: string }
  | { code: typeof CommandErrorCode.GasLimit; field: string; limit: number; actual: number }
  | { code: typeof CommandErrorCode.GasPriceTooLow; field: string; minimum: string; actual: string }
  | { code: typeof CommandErrorCode.GasPricePrecision; field: string; actual: string }
  | {
      code: typeof CommandErrorCode.TooManySignatures;
      field: string;
      limit: number;
      actual: number;
    }
  | { code: typeof CommandErrorCode.BadTtl; field: string; actual: number }
  | { code: typeof CommandErrorCode.Expired; field: string; expiredAt: number; reference: number }
  | {
      code: typeof CommandErrorCode.FutureCreationTime;
      field: string;
      actual: number;
      latest: number;
    }
  | {
      code: typeof CommandErrorCode.Duplicate;
      field: string;
      requestKey: string;
      where: "chain" | "batch" | "block";
    }
  | { code: typeof CommandErrorCode.BuyGasFailed; field: string; reason: string }
  | { code: typeof CommandErrorCode.RedeemGasFailed; field: string; reason: string };

export class CommandError extends NodeError<CommandErrorType> {
  /** The field (a path into the command) whose value was wrong. */
  get field(): string {
    return this.type.field;
  }
}

/** A broken internal assumption (a bug, never bad input), as a coded error. */
export function commandInvariant(field: string, reason: string): CommandError {
  return new CommandError(
    { code: CommandErrorCode.Invariant, field, reason },
    `${field}: invariant broken: ${reason}`,
  );
}

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
  WorkerFailed: "EXEC_WORKER_FAILED",
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
  /** The execution worker running the request stopped (it is restarted; `reason` says why). */
  | { code: typeof ExecErrorCode.WorkerFailed; reason: string }
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
