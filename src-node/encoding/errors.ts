/**
 * Errors of the encoding area: every decoder names the field it was decoding.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const EncodingErrorCode = {
  BadBase64Url: "ENC_BAD_BASE64URL",
  BadHex: "ENC_BAD_HEX",
  BadLength: "ENC_BAD_LENGTH",
  OutOfRange: "ENC_OUT_OF_RANGE",
  BadType: "ENC_BAD_TYPE",
} as const;

export type EncodingErrorType =
  | { code: typeof EncodingErrorCode.BadBase64Url; field: string }
  | { code: typeof EncodingErrorCode.BadHex; field: string }
  | { code: typeof EncodingErrorCode.BadLength; field: string; expected: number; actual: number }
  | { code: typeof EncodingErrorCode.OutOfRange; field: string; value: string }
  | { code: typeof EncodingErrorCode.BadType; field: string; expected: string };

export class EncodingError extends NodeError<EncodingErrorType> {
  /** The field (argument, JSON key, header part) whose value was wrong. */
  get field(): string {
    return this.type.field;
  }
}
