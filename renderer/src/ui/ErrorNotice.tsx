/**
 * A failed call to the node, said plainly, with an optional "Try again".
 * @module
 */
import { type ClientError, describeClientError } from "../api/clientError.ts";
import { Button } from "./Button.tsx";
import { Notice } from "./Notice.tsx";

export type ErrorNoticeProps = {
  readonly error: ClientError;
  readonly onRetry?: (() => void) | undefined;
  /** What was being loaded, e.g. "the chain heights". */
  readonly what: string;
};

export function ErrorNotice({ error, onRetry, what }: ErrorNoticeProps) {
  return (
    <Notice tone="error">
      <p>
        <strong>Could not load {what}.</strong> {describeClientError(error)}
      </p>
      {onRetry === undefined ? null : (
        <Button size="sm" onPress={onRetry}>
          Try again
        </Button>
      )}
    </Notice>
  );
}
