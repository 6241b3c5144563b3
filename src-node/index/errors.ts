/**
 * Errors of the explorer index and its API: a malformed query value, a
 * block, transaction, account or module the index does not have, and an
 * index that is closed (the node is shutting down). Statuses in
 * api/errorStatus.ts; docs/explorer-api.md lists when each is answered.
 * @module
 */
import { NodeError } from "../errors/nodeError.ts";

export const ExplorerErrorCode = {
  BadQuery: "EXPLORER_BAD_QUERY",
  NotFound: "EXPLORER_NOT_FOUND",
  Closed: "EXPLORER_CLOSED",
} as const;

export type ExplorerErrorCodeValue = (typeof ExplorerErrorCode)[keyof typeof ExplorerErrorCode];

export type ExplorerErrorType =
  /** `field` names the path or query parameter (`q`, `next`, `requestKey`, …). */
  | { code: typeof ExplorerErrorCode.BadQuery; field: string; reason: string }
  /** `what`: `block`, `transaction`, `account`, `module`; `key`: what was looked for. */
  | { code: typeof ExplorerErrorCode.NotFound; what: string; key: string }
  | { code: typeof ExplorerErrorCode.Closed };

export class ExplorerError extends NodeError<ExplorerErrorType> {}

/** An EXPLORER_BAD_QUERY error whose message is `field: reason`. */
export function badQuery(field: string, reason: string): ExplorerError {
  return new ExplorerError(
    { code: ExplorerErrorCode.BadQuery, field, reason },
    `${field}: ${reason}`,
  );
}
