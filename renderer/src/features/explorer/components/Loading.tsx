/**
 * What a page shows while its data loads, when it failed, or when the node has no such
 * thing: one place, so every explorer page says these states in the same words.
 * @module
 */
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { clientErrorOf } from "../../../api/clientFailure.ts";
import { ErrorNotice } from "../../../ui/ErrorNotice.tsx";
import { Notice } from "../../../ui/Notice.tsx";

export type QueryStateProps<T> = {
  readonly query: UseQueryResult<T | null>;
  /** "the block", "the transaction" */
  readonly what: string;
  /** Said when the node answered that there is no such thing. */
  readonly notFound: ReactNode;
  readonly children: (value: T) => ReactNode;
};

export function QueryState<T>({ query, what, notFound, children }: QueryStateProps<T>) {
  if (query.data === undefined) {
    if (query.isError) {
      return (
        <ErrorNotice
          error={clientErrorOf(query.error)}
          what={what}
          onRetry={() => void query.refetch()}
        />
      );
    }
    return <p className="state">Loading {what}…</p>;
  }
  if (query.data === null) {
    return (
      <Notice tone="warning" testId="not-found">
        {notFound}
      </Notice>
    );
  }
  return <>{children(query.data)}</>;
}
