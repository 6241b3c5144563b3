/**
 * Errors of the `weft` command line. Every error about input names the file
 * (`<stdin>` for standard input) and, where there is one, the field, so the
 * printed message says exactly what to fix.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const CliErrorCode = {
  Usage: "CLI_USAGE",
  ReadFailed: "CLI_READ_FAILED",
  BadYaml: "CLI_BAD_YAML",
  UnknownKey: "CLI_UNKNOWN_KEY",
  MissingField: "CLI_MISSING_FIELD",
  BadField: "CLI_BAD_FIELD",
  KeyMismatch: "CLI_KEY_MISMATCH",
  NoMatchingSigner: "CLI_NO_MATCHING_SIGNER",
  BadSignature: "CLI_BAD_SIGNATURE",
  AddressMismatch: "CLI_ADDRESS_MISMATCH",
  HashMismatch: "CLI_HASH_MISMATCH",
  Conflict: "CLI_CONFLICT",
  RequestFailed: "CLI_REQUEST_FAILED",
} as const;

export type CliErrorCodeType = (typeof CliErrorCode)[keyof typeof CliErrorCode];

export type CliErrorType =
  | { code: typeof CliErrorCode.Usage; file: ""; field: "" }
  | {
      code: Exclude<CliErrorCodeType, typeof CliErrorCode.Usage>;
      /** The file the error is about; `<stdin>` for standard input. */
      file: string;
      /** The field inside the file (`publicMeta.gasLimit`, `sigs.<key>`), or "" for the whole file. */
      field: string;
    };

export class CliError extends NodeError<CliErrorType> {
  get file(): string {
    return this.type.file;
  }
  get field(): string {
    return this.type.field;
  }
}

/**
 * An input error about `file`/`field`; the message reads `file: field: text`.
 * @example cliError("CLI_MISSING_FIELD", "tx.yaml", "code", "missing: give code or codeFile")
 */
export function cliError(
  code: Exclude<CliErrorCodeType, typeof CliErrorCode.Usage>,
  file: string,
  field: string,
  text: string,
  cause?: unknown,
): CliError {
  const where = field === "" ? file : `${file}: ${field}`;
  return new CliError({ code, file, field }, `${where}: ${text}`, { cause });
}

/** A command-line usage error (wrong flags or arguments). */
export function usageError(text: string): CliError {
  return new CliError({ code: CliErrorCode.Usage, file: "", field: "" }, text);
}
