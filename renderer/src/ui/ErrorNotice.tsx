/**
 * A failed call to the node that loads something, said plainly ("Could not load …", what to
 * do, "Details"), with an optional "Try again". Built on ErrorMessage.tsx.
 * @module
 */
import type { ClientError } from "../api/clientError.ts";
import { clientErrorWords } from "../api/errorWords.ts";
import { Button } from "./Button.tsx";
import { ErrorMessage } from "./ErrorMessage.tsx";

export type ErrorNoticeProps = {
  readonly error: ClientError;
  readonly onRetry?: (() => void) | undefined;
  /** What was being loaded, e.g. "the chain heights". */
  readonly what: string;
};

export function ErrorNotice({ error, onRetry, what }: ErrorNoticeProps) {
  return (
    <ErrorMessage error={clientErrorWords(error)} title={`Could not load ${what}.`}>
      {onRetry === undefined ? undefined : (
        <Button size="sm" onPress={onRetry}>
          Try again
        </Button>
      )}
    </ErrorMessage>
  );
}
