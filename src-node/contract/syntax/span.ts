/**
 * Source spans. Every token, parse node and term carries one.
 *
 * `line` is 1-based and `column` 0-based (the reference renders positions as
 * `file:line:col` that way); `offset`/`end` are UTF-16 code-unit offsets into the
 * source string, so `source.slice(offset, end)` is the exact text of the node
 * (module hashes in part 2 hash such slices).
 * @module
 */
export type Span = {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly end: number;
};

/** The span from the start of `a` to the end of `b`. */
export function joinSpans(a: Span, b: Span): Span {
  return { file: a.file, line: a.line, column: a.column, offset: a.offset, end: b.end };
}
