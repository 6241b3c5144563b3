/**
 * Errors of the exec area. So far: the command wire model (parsing a
 * submitted command, its `cmd` payload and its signatures). Every error names
 * the field it is about as a path such as `cmd.meta.gasLimit` or `sigs[1].sig`,
 * so a boundary can show it without matching text.
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
} as const;

export type CommandErrorType =
  | { code: typeof CommandErrorCode.BadJson; field: string; reason: string }
  | { code: typeof CommandErrorCode.MissingField; field: string }
  | { code: typeof CommandErrorCode.BadField; field: string; expected: string }
  | { code: typeof CommandErrorCode.HashMismatch; field: string; expected: string; actual: string }
  | { code: typeof CommandErrorCode.UnsupportedScheme; field: string; scheme: string }
  | { code: typeof CommandErrorCode.SigCount; field: string; signers: number; sigs: number }
  | { code: typeof CommandErrorCode.BadSignature; field: string; index: number }
  | { code: typeof CommandErrorCode.Invariant; field: string; reason: string };

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
