/**
 * A failed call to the node, said plainly, with an optional "Try again".
 * @module
 */
import { type ClientError, describeClientError } from "../api/clientError.ts";

export type ErrorNoticeProps = {
  readonly error: ClientError;
  readonly onRetry?: (() => void) | undefined;
  /** What was being loaded, e.g. "the chain heights". */
  readonly what: string;
};

export function ErrorNotice({ error, onRetry, what }: ErrorNoticeProps) {
  return (
    <div className="notice notice-error" role="alert">
      <p>
        <strong>Could not load {what}.</strong> {describeClientError(error)}
      </p>
      {onRetry === undefined ? null : (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
