/**
 * Errors of the command model: {@link CommandError}, one command refused.
 * The wire-form codes (parsing a command, its `cmd` payload, its signatures)
 * are raised here; the node-rule codes (network, chain, gas, time window,
 * duplicates, gas purchase) by the node's execution (exec/commandRules.ts,
 * exec/applyCommand.ts). Every one names the field it is about as a path
 * such as `cmd.meta.gasLimit` or `sigs[1].sig`, so a boundary (the HTTP API,
 * the CLI, the wallet) can show it without matching text.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const CommandErrorCode = {
  BadJson: "CMD_BAD_JSON",
  MissingField: "CMD_MISSING_FIELD",
  BadField: "CMD_BAD_FIELD",
  HashMismatch: "CMD_HASH_MISMATCH",
  UnsupportedScheme: "CMD_UNSUPPORTED_SCHEME",
  UnsupportedVerifier: "CMD_UNSUPPORTED_VERIFIER",
  SigCount: "CMD_SIG_COUNT",
  BadSignature: "CMD_BAD_SIGNATURE",
  AddressMismatch: "CMD_ADDRESS_MISMATCH",
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
  Unexecutable: "CMD_UNEXECUTABLE",
} as const;

export type CommandErrorType =
  | { code: typeof CommandErrorCode.BadJson; field: string; reason: string }
  | { code: typeof CommandErrorCode.MissingField; field: string }
  | { code: typeof CommandErrorCode.BadField; field: string; expected: string }
  | { code: typeof CommandErrorCode.HashMismatch; field: string; expected: string; actual: string }
  | { code: typeof CommandErrorCode.UnsupportedScheme; field: string; scheme: string }
  | { code: typeof CommandErrorCode.UnsupportedVerifier; field: string; names: string[] }
  | { code: typeof CommandErrorCode.SigCount; field: string; signers: number; sigs: number }
  | { code: typeof CommandErrorCode.BadSignature; field: string; index: number }
  | {
      code: typeof CommandErrorCode.AddressMismatch;
      field: string;
      index: number;
      pubKey: string;
      addr: string;
    }
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
  | { code: typeof CommandErrorCode.RedeemGasFailed; field: string; reason: string }
  /** Executing it threw (past the time limit, or a bug): left out of the block, out of the mempool. */
  | { code: typeof CommandErrorCode.Unexecutable; field: string; reason: string };

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
