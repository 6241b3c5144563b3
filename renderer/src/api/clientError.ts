/**
 * How a call to the node can fail, as values the UI renders (in words: errorWords.ts). Codes
 * are listed in docs/desktop.md.
 * @module
 */

import type { Result } from "../../../src-node/errors/result.ts";

export const ClientErrorCode = {
  Unreachable: "CLIENT_UNREACHABLE",
  Timeout: "CLIENT_TIMEOUT",
  HttpStatus: "CLIENT_HTTP_STATUS",
  BadResponse: "CLIENT_BAD_RESPONSE",
} as const;

export type ClientError =
  | {
      readonly code: typeof ClientErrorCode.Unreachable;
      readonly url: string;
      readonly detail: string;
    }
  | { readonly code: typeof ClientErrorCode.Timeout; readonly url: string; readonly ms: number }
  | {
      readonly code: typeof ClientErrorCode.HttpStatus;
      readonly url: string;
      readonly status: number;
      /** The node's error code when it sent `{code, message}` JSON (e.g. `MINING_CANNOT_START`). */
      readonly nodeCode: string | null;
      /** The node's own message when it sent one (`{code, message}` JSON or plain text). */
      readonly message: string | null;
    }
  | {
      readonly code: typeof ClientErrorCode.BadResponse;
      readonly url: string;
      readonly reason: string;
    };

export type ClientResult<T> = Result<T, ClientError>;
