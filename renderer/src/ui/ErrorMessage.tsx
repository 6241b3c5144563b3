/**
 * The one way the app shows an error: a sentence for the user (what happened, what to do),
 * the technical detail (HTTP status, the node's code and message, URL) behind a "Details"
 * disclosure, and optional actions ("Try again", "Dismiss", …). `ErrorMessage` is the boxed
 * notice beside the thing it is about; `ErrorDetails` alone is the disclosure, for an error
 * already said in a field's own message (ui/TextField.tsx) or a status line.
 * @module
 */
import type { ReactNode } from "react";
import { errorWordsOf, type ShownError } from "../api/errorWords.ts";
import { Notice } from "./Notice.tsx";

/** "Details": the technical part of an error, closed until asked for; nothing when there is none. */
export function ErrorDetails({ details }: { readonly details: string | null }) {
  if (details === null || details === "") return null;
  return (
    <details className="error-details">
      <summary>Details</summary>
      <pre>{details}</pre>
    </details>
  );
}

export type ErrorMessageProps = {
  readonly error: ShownError;
  /** A short bold lead, e.g. "Could not load the peers." */
  readonly title?: string | undefined;
  /** Buttons under the message. */
  readonly children?: ReactNode;
  readonly id?: string | undefined;
  readonly testId?: string | undefined;
};

export function ErrorMessage({ error, title, children, id, testId }: ErrorMessageProps) {
  const words = errorWordsOf(error);
  return (
    <Notice tone="error" id={id} testId={testId}>
      <p>
        {title === undefined ? null : <strong>{title} </strong>}
        {words.text}
      </p>
      <ErrorDetails details={words.details} />
      {children === undefined ? null : <div className="notice-actions">{children}</div>}
    </Notice>
  );
}
