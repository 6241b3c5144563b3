/**
 * The lexer: source text → tokens with exact spans (reference §1.1).
 *
 * Numbers (`-` immediately followed by a digit makes a negative literal), strings
 * with Haskell escapes and gaps, symbols (`'name`), atoms and dotted names,
 * `true`/`false`, brackets, and the separators `:=` `::` `:` `,`. Comments run
 * from `;` to the end of the line and may appear anywhere between tokens.
 * Malformed text yields a SyntaxError failure naming the position and what was
 * expected; the lexer never throws anything else.
 * @module
 */
import { contractFailure } from "../errors.ts";
import { type Decimal, MAX_SCALE } from "../values/decimal.ts";
import type { Span } from "./span.ts";

export type Token =
  | { readonly kind: "integer"; readonly value: bigint; readonly span: Span }
  | { readonly kind: "decimal"; readonly value: Decimal; readonly span: Span }
  | { readonly kind: "string"; readonly value: string; readonly span: Span }
  | { readonly kind: "symbol"; readonly value: string; readonly span: Span }
  | { readonly kind: "bool"; readonly value: boolean; readonly span: Span }
  | { readonly kind: "atom"; readonly parts: readonly string[]; readonly span: Span }
  | {
      readonly kind: "(" | ")" | "[" | "]" | "{" | "}" | ":" | ":=" | "::" | ",";
      readonly span: Span;
    }
  | { readonly kind: "eof"; readonly span: Span };

const SYMBOL_CHARS = "%#+-_&$@<>=^?*!|/~";
const LETTER = /\p{L}/u;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

function isIdentStart(c: string | undefined): boolean {
  if (c === undefined) return false;
  if ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z")) return true;
  if (SYMBOL_CHARS.includes(c)) return true;
  return c.charCodeAt(0) > 127 && LETTER.test(c);
}

function isIdentChar(c: string | undefined): boolean {
  return isIdentStart(c) || isDigit(c);
}

const ASCII_NAMES: Record<string, number> = {
  NUL: 0,
  SOH: 1,
  STX: 2,
  ETX: 3,
  EOT: 4,
  ENQ: 5,
  ACK: 6,
  BEL: 7,
  BS: 8,
  HT: 9,
  LF: 10,
  VT: 11,
  FF: 12,
  CR: 13,
  SO: 14,
  SI: 15,
  DLE: 16,
  DC1: 17,
  DC2: 18,
  DC3: 19,
  DC4: 20,
  NAK: 21,
  SYN: 22,
  ETB: 23,
  CAN: 24,
  EM: 25,
  SUB: 26,
  ESC: 27,
  FS: 28,
  GS: 29,
  RS: 30,
  US: 31,
  SP: 32,
  DEL: 127,
};
// Longest names first so "SOH" wins over "SO".
const ASCII_NAME_LIST = Object.keys(ASCII_NAMES).sort((a, b) => b.length - a.length);

const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  a: "\x07",
  '"': '"',
  "\\": "\\",
  "'": "'",
};

/** Tokenizes `source`; `file` names it in spans. */
export function tokenize(
  source: string,
  file: string,
  origin: { readonly line: number; readonly column: number } = { line: 1, column: 0 },
): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  // A text cut from a larger file (a stored module) keeps its original positions.
  let line = origin.line;
  let lineStart = -origin.column;
  const n = source.length;

  const spanFrom = (start: number, startLine: number, startCol: number): Span => ({
    file,
    line: startLine,
    column: startCol,
    offset: start,
    end: pos,
  });
  const here = (): Span => ({
    file,
    line,
    column: pos - lineStart,
    offset: pos,
    end: Math.min(pos + 1, n),
  });
  const fail: (message: string, span?: Span) => never = (message, span = here()) => {
    throw contractFailure("SyntaxError", message, span);
  };
  const describe = (c: string | undefined): string =>
    c === undefined ? "end of input" : c === "\n" ? "newline" : `'${c}'`;

  while (true) {
    // Skip whitespace and comments.
    while (pos < n) {
      const c = source[pos];
      if (c === "\n") {
        pos++;
        line++;
        lineStart = pos;
      } else if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v") {
        pos++;
      } else if (c === ";") {
        while (pos < n && source[pos] !== "\n") pos++;
      } else {
        break;
      }
    }
    if (pos >= n) {
      tokens.push({
        kind: "eof",
        span: { file, line, column: pos - lineStart, offset: pos, end: pos },
      });
      return tokens;
    }
    const start = pos;
    const startLine = line;
    const startCol = pos - lineStart;
    const c = source[pos] as string;
    const next = source[pos + 1];

    if (isDigit(c) || (c === "-" && isDigit(next))) {
      pos++;
      while (isDigit(source[pos])) pos++;
      const intText = source.slice(start, pos);
      if (source[pos] === "." && isDigit(source[pos + 1])) {
        pos++;
        const fracStart = pos;
        while (isDigit(source[pos])) pos++;
        const frac = source.slice(fracStart, pos);
        if (frac.length > MAX_SCALE) {
          fail(
            `decimal literal has ${frac.length} fractional digits; at most ${MAX_SCALE} are allowed`,
            spanFrom(start, startLine, startCol),
          );
        }
        tokens.push({
          kind: "decimal",
          value: { mantissa: BigInt(intText + frac), scale: frac.length },
          span: spanFrom(start, startLine, startCol),
        });
      } else {
        tokens.push({
          kind: "integer",
          value: BigInt(intText),
          span: spanFrom(start, startLine, startCol),
        });
      }
      continue;
    }

    if (c === '"') {
      pos++;
      // Runs between escapes, joined once: a string grown character by
      // character with `+=` is a rope of one V8 node (32 bytes) a character,
      // kept as long as the token's value (docstrings of cached modules).
      const parts: string[] = [];
      let run = pos;
      while (true) {
        const ch = source[pos];
        if (ch === undefined) fail("unterminated string literal: expected '\"'");
        if (ch === '"') {
          parts.push(source.slice(run, pos));
          pos++;
          break;
        }
        if (ch === "\\") {
          parts.push(source.slice(run, pos));
          pos++;
          const e = source[pos];
          if (e === undefined) fail("unterminated string literal: expected an escape");
          if (e === " " || e === "\n" || e === "\t" || e === "\r") {
            // A string gap: backslash, whitespace, backslash.
            while (pos < n && /[ \t\r\n\f\v]/.test(source[pos] as string)) {
              if (source[pos] === "\n") {
                line++;
                lineStart = pos + 1;
              }
              pos++;
            }
            if (source[pos] !== "\\") fail("string gap: expected '\\' to close the gap");
            pos++;
            run = pos;
            continue;
          }
          const simple = SIMPLE_ESCAPES[e as string];
          if (simple !== undefined) {
            parts.push(simple);
            pos++;
            run = pos;
            continue;
          }
          if (e === "&") {
            pos++;
            run = pos;
            continue;
          }
          if (isDigit(e) || e === "x" || e === "o") {
            let radix = 10;
            let digits = /[0-9]/;
            if (e === "x") {
              radix = 16;
              digits = /[0-9a-fA-F]/;
              pos++;
            } else if (e === "o") {
              radix = 8;
              digits = /[0-7]/;
              pos++;
            }
            const dStart = pos;
            while (pos < n && digits.test(source[pos] as string)) pos++;
            if (pos === dStart) fail("string escape: expected digits");
            const code = Number.parseInt(source.slice(dStart, pos), radix);
            if (!(code <= 0x10ffff)) fail("string escape: character code out of range");
            parts.push(String.fromCodePoint(code));
            run = pos;
            continue;
          }
          if (e === "^") {
            const ctl = source[pos + 1];
            if (ctl === undefined || ctl < "@" || ctl > "_")
              fail("string escape: expected a control character after '\\^'");
            parts.push(String.fromCharCode((ctl as string).charCodeAt(0) - 64));
            pos += 2;
            run = pos;
            continue;
          }
          const name = ASCII_NAME_LIST.find((nm) => source.startsWith(nm, pos));
          if (name !== undefined) {
            parts.push(String.fromCharCode(ASCII_NAMES[name] as number));
            pos += name.length;
            run = pos;
            continue;
          }
          fail(`string escape: unknown escape '\\${e}'`);
        }
        if (ch !== undefined && ch.charCodeAt(0) <= 26) {
          fail(
            `string literal: ${describe(ch)} is not allowed inside a string; use an escape or a string gap`,
          );
        }
        pos++;
      }
      const value = parts.length === 1 ? (parts[0] as string) : parts.join("");
      tokens.push({ kind: "string", value, span: spanFrom(start, startLine, startCol) });
      continue;
    }

    if (c === "'") {
      pos++;
      if (!isIdentStart(source[pos]))
        fail(`symbol: expected a name after "'", found ${describe(source[pos])}`);
      while (isIdentChar(source[pos])) pos++;
      tokens.push({
        kind: "symbol",
        value: source.slice(start + 1, pos),
        span: spanFrom(start, startLine, startCol),
      });
      continue;
    }

    if (isIdentStart(c)) {
      const parts: string[] = [];
      while (true) {
        const pStart = pos;
        while (isIdentChar(source[pos])) pos++;
        parts.push(source.slice(pStart, pos));
        if (source[pos] === "." && isIdentStart(source[pos + 1])) {
          pos++;
          continue;
        }
        break;
      }
      if (source[pos] === ".")
        fail(`name: expected a name after '.', found ${describe(source[pos + 1])}`);
      const span = spanFrom(start, startLine, startCol);
      if (parts.length > 3)
        fail("qualified name: at most three parts (namespace.module.name)", span);
      if (parts.length === 1 && (parts[0] === "true" || parts[0] === "false")) {
        tokens.push({ kind: "bool", value: parts[0] === "true", span });
      } else {
        tokens.push({ kind: "atom", parts, span });
      }
      continue;
    }

    if (c === ":") {
      if (next === "=") {
        pos += 2;
        tokens.push({ kind: ":=", span: spanFrom(start, startLine, startCol) });
      } else if (next === ":") {
        pos += 2;
        tokens.push({ kind: "::", span: spanFrom(start, startLine, startCol) });
      } else {
        pos++;
        tokens.push({ kind: ":", span: spanFrom(start, startLine, startCol) });
      }
      continue;
    }
    if (c === "(" || c === ")" || c === "[" || c === "]" || c === "{" || c === "}" || c === ",") {
      pos++;
      tokens.push({ kind: c, span: spanFrom(start, startLine, startCol) });
      continue;
    }
    fail(
      `unexpected character ${describe(c)}: expected a literal, a name, a bracket or a separator`,
    );
  }
}

/**
 * The offset of the next token at or after `pos`: skips whitespace and `;`
 * comments exactly as the lexer does. A module's hashed text runs from its `(`
 * to this point after its `)` (reference §9.3).
 */
export function skipTrivia(source: string, pos: number): number {
  let p = pos;
  while (p < source.length) {
    const c = source[p];
    if (c === "\n" || c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v") p++;
    else if (c === ";") {
      while (p < source.length && source[p] !== "\n") p++;
    } else break;
  }
  return p;
}
