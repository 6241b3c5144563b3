/**
 * The page of a paged explorer list, kept in the address (`?pages=[…]`, the cursors of the
 * pages opened after the first): a page can be linked, reloaded and reached with back and
 * forward like any other address. The cursors are the API's own; a malformed or foreign
 * `pages` value falls back to the first page.
 * @module
 */
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useCallback, useMemo } from "react";

/** The most pages an address keeps (a longer history starts again from the newest page). */
const MAX_PAGES = 200;

export type PageCursors<T> = {
  /** The cursors of the pages after the first; empty: the first (live) page. */
  readonly cursors: readonly T[];
  /** Opens the page after this one, which `cursor` starts. */
  readonly older: (cursor: T) => void;
  /** Back to the page before this one. */
  readonly newer: () => void;
};

/** Reads the address's cursors with `parse` (null: not a cursor of this list). */
export function parsePageCursors<T>(value: unknown, parse: (x: unknown) => T | null): T[] {
  if (!Array.isArray(value) || value.length > MAX_PAGES) return [];
  const out: T[] = [];
  for (const item of value) {
    const cursor = parse(item);
    if (cursor === null) return [];
    out.push(cursor);
  }
  return out;
}

export function usePageCursors<T>(parse: (x: unknown) => T | null): PageCursors<T> {
  const search = useSearch({ strict: false }) as Readonly<Record<string, unknown>>;
  const navigate = useNavigate();
  const raw = search.pages;
  // biome-ignore lint/correctness/useExhaustiveDependencies: parse is a module-level function
  const cursors = useMemo(() => parsePageCursors(raw, parse), [raw]);
  const go = useCallback(
    (next: readonly T[]) =>
      void navigate({
        to: ".",
        search: (prev: Readonly<Record<string, unknown>>) => {
          const { pages: _, ...rest } = prev;
          return next.length === 0 ? rest : { ...rest, pages: next };
        },
      } as never),
    [navigate],
  );
  return {
    cursors,
    older: (cursor) => go([...cursors, cursor].slice(-MAX_PAGES)),
    newer: () => go(cursors.slice(0, -1)),
  };
}
