/**
 * The reference's `Info` of a parsed expression, as the JSON text Pact 4
 * encodes it: `{"d":[length,file,line,column,bytes,lineBytes],"c":code}`.
 * Before Pact 4.9 a module reference carried an `Info` (`refInfo`): for a
 * name in top-level code, the one of the top-level form it is in (the
 * reference resolves a form's free names with the form's position), so its
 * JSON, and the `hash` of it, depend on exactly these facts: the file name as
 * the script was given (never a resolved path), the form's 0-based line, its
 * column (a tab to the next multiple of 8), its byte offsets from the file's
 * start and from the line's start, its length in bytes with the whitespace
 * and comments after it (the parser's tokens take them), and the code: that
 * many characters of the file's text from the byte offset taken as a
 * character index (the reference's `mkTextInfo`, exact for ASCII text).
 * @module
 */
import { jsonString } from "../../command/exactJson.ts";
import { skipTrivia } from "./lexer.ts";
import type { Span } from "./span.ts";

function utf8Length(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

/** `count` code points of `s` from code point `start` (empty past the end). */
function codePointSlice(s: string, start: number, count: number): string {
  let i = 0;
  let cp = 0;
  while (i < s.length && cp < start) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    cp++;
  }
  let j = i;
  let taken = 0;
  while (j < s.length && taken < count) {
    const c = s.charCodeAt(j);
    j += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    taken++;
  }
  return s.slice(i, j);
}

/** The column the reference's parser counts at `offset`: characters, a tab to the next multiple of 8. */
function deltaColumn(source: string, lineStart: number, offset: number): number {
  let col = 0;
  for (let i = lineStart; i < offset; i++) {
    const c = source.charCodeAt(i);
    if (c === 9) col += 8 - (col % 8);
    else if (!(c >= 0xdc00 && c <= 0xdfff)) col++;
  }
  return col;
}

/** The `Info` JSON of the expression at `span` in `source` (the whole file it was parsed from). */
export function refInfoJson(source: string, span: Span): string {
  const lineStart = source.lastIndexOf("\n", span.offset - 1) + 1;
  const bytes = utf8Length(source.slice(0, span.offset));
  const lineBytes = utf8Length(source.slice(lineStart, span.offset));
  // The parser's `token` takes the whitespace and comments after the form with it.
  const end = skipTrivia(source, span.end);
  const length = utf8Length(source.slice(span.offset, end));
  const code =
    bytes === span.offset && length === end - span.offset
      ? source.slice(span.offset, end)
      : codePointSlice(source, bytes, length);
  const column = deltaColumn(source, lineStart, span.offset);
  return `{"d":[${length},${jsonString(span.file)},${span.line - 1},${column},${bytes},${lineBytes}],"c":${jsonString(code)}}`;
}
