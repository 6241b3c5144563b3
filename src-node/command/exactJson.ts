/**
 * Exact JSON, the one JSON model of commands and contract data: values whose
 * numbers keep their exact text ({@link JsonNumber}), a parser that keeps it
 * ({@link parseJsonExact}) and a serializer that writes it back
 * ({@link stringifyJson}). Request files say `1.0` or
 * `123456789012345678901` in data and capability arguments, and the contract
 * language tells `1.0` (decimal) from `1` (integer) and needs every digit, so
 * neither reading nor building a `cmd` may round-trip numbers through IEEE
 * doubles.
 *
 * Strings are written as the reference's JSON encoder (aeson) writes them:
 * `\"`, `\\`, `\n`, `\r`, `\t`, other control characters as `\u00XX`, a lone
 * surrogate as `\uXXXX` (it has no UTF-8 form), everything else as is. The
 * same function writes contract JSON (contract/values/json.ts), so the bytes
 * a block commits to have one writer.
 *
 * Pure: no Node built-ins; the browser uses it as is.
 * @module
 */
import type { Result } from "../errors/result.ts";
import { commandInvariant } from "./errors.ts";

const JSON_NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;

/** A JSON number held as its exact text (which is valid JSON number syntax). */
export class JsonNumber {
  readonly text: string;

  private constructor(text: string) {
    this.text = text;
  }

  /** The number, or undefined when `text` is not JSON number syntax. */
  static of(text: string): JsonNumber | undefined {
    return JSON_NUMBER_TEXT.test(text) ? new JsonNumber(text) : undefined;
  }

  /**
   * The number of text the exact parser has just matched as JSON number
   * syntax (checking it again would cost every number of every row read).
   * @internal
   */
  static matched(text: string): JsonNumber {
    return new JsonNumber(text);
  }
}

/** A JSON value; numbers are JS numbers or exact {@link JsonNumber}s. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonNumber
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** A JSON object (not null, not an array, not a {@link JsonNumber}). */
export type JsonObject = { readonly [key: string]: JsonValue };

/** True for a plain JSON object; undefined (a missing member) is none. */
export function isJsonObject(value: unknown): value is JsonObject {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof JsonNumber) &&
    !(value instanceof RawJson)
  );
}

/**
 * One JSON value already written as text by a serializer of this code base
 * (contract values, a command result read back from storage), embedded as is
 * by {@link stringifyJson}, as `JSON.rawJSON` would. Never built from input
 * that was not written or checked as JSON.
 */
export class RawJson {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

/** What {@link stringifyJson} writes: JSON values, raw JSON parts, `undefined` members skipped. */
export type JsonWritable =
  | JsonValue
  | RawJson
  | readonly JsonWritable[]
  | { readonly [key: string]: JsonWritable | undefined };

/**
 * Whether {@link jsonString} may change a character of `s`: a quote, a
 * backslash, a control character, or a surrogate (only lone ones change).
 */
function needsEscape(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** A JSON string literal, escaped as aeson escapes (see the module comment). */
export function jsonString(s: string): string {
  // Keys, account names and hashes need no escape: one scan, no per-character concatenation.
  if (!needsEscape(s)) return `"${s}"`;
  // Runs between escapes, joined once: a string grown by `+=` is a rope, one
  // V8 node (32 bytes) per piece, kept until something reads it flat; a
  // module's code written character by character held some 13,000 of them.
  const parts: string[] = ['"'];
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let escaped: string;
    if (c === 0x22) escaped = '\\"';
    else if (c === 0x5c) escaped = "\\\\";
    else if (c === 0x0a) escaped = "\\n";
    else if (c === 0x0d) escaped = "\\r";
    else if (c === 0x09) escaped = "\\t";
    else if (c < 0x20) escaped = `\\u${c.toString(16).padStart(4, "0")}`;
    else if (isHigh(c) && isLow(s.charCodeAt(i + 1))) {
      i++; // a pair is written as is
      continue;
    } else if (isHigh(c) || isLow(c)) escaped = `\\u${c.toString(16)}`;
    else continue;
    parts.push(s.slice(run, i), escaped);
    run = i + 1;
  }
  parts.push(s.slice(run), '"');
  return parts.join("");
}

/**
 * A finite number's JSON text (`String(n)`, which is what `JSON.stringify`
 * writes for one, without its generic entry: writers of fixed shapes call it
 * for every integer of every /local answer).
 * @throws {CommandError} CMD_INVARIANT for a non-finite number (a caller bug).
 */
export function jsonNumber(n: number): string {
  if (!Number.isFinite(n)) throw commandInvariant("json", `not a JSON number: ${n}`);
  return String(n);
}

/**
 * Serializes without whitespace, members in insertion order, `undefined`
 * members skipped; a {@link JsonNumber} or {@link RawJson} is written as its
 * exact text.
 * @throws {CommandError} CMD_INVARIANT for a non-finite number or an undefined
 *   array element, which no JSON text can carry (a caller bug, not user input).
 */
export function stringifyJson(value: JsonWritable): string {
  if (value === null) return "null";
  if (value instanceof JsonNumber || value instanceof RawJson) return value.text;
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return jsonString(value);
    case "number":
      return jsonNumber(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((v: JsonWritable | undefined) => {
      if (v === undefined) throw commandInvariant("json", "undefined array element");
      return stringifyJson(v);
    })}]`;
  }
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value as { readonly [key: string]: JsonWritable })) {
    if (v === undefined) continue;
    parts.push(`${jsonString(k)}:${stringifyJson(v)}`);
  }
  return `{${parts.join(",")}}`;
}

// ---------------------------------------------------------------------------
// Exact parsing

const BAD: unique symbol = Symbol("bad");

/**
 * The parser's objects: their prototype is an empty object without a
 * prototype, so no member name (`__proto__`, `constructor`, `toString`)
 * reaches Object.prototype, while V8 keeps them in its fast object layout
 * (`Object.create(null)` objects are dictionaries: every command's fields
 * would be read through hash lookups).
 */
const ParsedObject = function ParsedObject() {
  // Only its prototype matters.
} as unknown as new () => object;
ParsedObject.prototype = Object.create(null);
/** Objects and arrays nest at most this deep (bounds the parser's recursion). */
const MAX_DEPTH = 512;
/** A number's text is bounded (100,000 characters), as decimals are. */
const MAX_NUMBER_LENGTH = 100_000;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Where the longest JSON number starting at `pos` ends (`-?(0|[1-9]\d*)`,
 * then `\.\d+` and `[eE][+-]?\d+` when complete), or -1 when none starts
 * there. Scanned by character codes: a regular expression's match object
 * per number was most of what reading a command allocated.
 */
function numberEnd(text: string, pos: number): number {
  let i = pos;
  if (text.charCodeAt(i) === 0x2d /* - */) i++;
  const first = text.charCodeAt(i);
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) {
    i++;
    while (isDigit(text.charCodeAt(i))) i++;
  } else return -1;
  if (text.charCodeAt(i) === 0x2e /* . */ && isDigit(text.charCodeAt(i + 1))) {
    i += 2;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    let j = i + 1;
    const sign = text.charCodeAt(j);
    if (sign === 0x2b || sign === 0x2d) j++;
    if (isDigit(text.charCodeAt(j))) {
      j++;
      while (isDigit(text.charCodeAt(j))) j++;
      i = j;
    }
  }
  return i;
}
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * The parser of {@link readJsonExact}: a class rather than closures, since
 * every command is read through it (tsx names each closure it makes).
 */
class ExactJsonParser {
  readonly text: string;
  pos = 0;
  /** Why parsing stopped (set with the first failure). */
  reason = "";

  constructor(text: string) {
    this.text = text;
  }

  fail(what: string): typeof BAD {
    if (this.reason === "") {
      this.reason =
        this.pos >= this.text.length
          ? `unexpected end of JSON input (${what})`
          : `unexpected character at position ${this.pos} (${what})`;
    }
    return BAD;
  }

  ws(): void {
    const text = this.text;
    let pos = this.pos;
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      pos++;
    }
    this.pos = pos;
  }

  value(depth: number): JsonValue | typeof BAD {
    if (depth > MAX_DEPTH) return this.fail(`nested deeper than ${MAX_DEPTH}`);
    this.ws();
    const text = this.text;
    const c = text[this.pos];
    if (c === "{") {
      this.pos++;
      const out = new ParsedObject() as { [k: string]: JsonValue };
      this.ws();
      if (text[this.pos] === "}") {
        this.pos++;
        return out;
      }
      while (true) {
        this.ws();
        if (text[this.pos] !== '"') return this.fail("expected a member name");
        const k = this.str();
        if (k === null) return this.fail("bad string");
        this.ws();
        if (text[this.pos] !== ":") return this.fail("expected ':'");
        this.pos++;
        const v = this.value(depth + 1);
        if (v === BAD) return BAD;
        // A null-prototype object: "__proto__" is an own key like any other.
        out[k] = v;
        this.ws();
        if (text[this.pos] === ",") {
          this.pos++;
          continue;
        }
        if (text[this.pos] === "}") {
          this.pos++;
          return out;
        }
        return this.fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      this.pos++;
      const out: JsonValue[] = [];
      this.ws();
      if (text[this.pos] === "]") {
        this.pos++;
        return out;
      }
      while (true) {
        const v = this.value(depth + 1);
        if (v === BAD) return BAD;
        out.push(v);
        this.ws();
        if (text[this.pos] === ",") {
          this.pos++;
          continue;
        }
        if (text[this.pos] === "]") {
          this.pos++;
          return out;
        }
        return this.fail("expected ',' or ']'");
      }
    }
    if (c === '"') {
      const s = this.str();
      return s === null ? this.fail("bad string") : s;
    }
    if (text.startsWith("true", this.pos)) {
      this.pos += 4;
      return true;
    }
    if (text.startsWith("false", this.pos)) {
      this.pos += 5;
      return false;
    }
    if (text.startsWith("null", this.pos)) {
      this.pos += 4;
      return null;
    }
    const start = this.pos;
    const end = numberEnd(text, start);
    if (end < 0) return this.fail("expected a JSON value");
    if (end - start > MAX_NUMBER_LENGTH) return this.fail("number too long");
    this.pos = end;
    return JsonNumber.matched(text.slice(start, end));
  }

  /** A string at `pos` (its opening quote); null when malformed. */
  str(): string | null {
    const text = this.text;
    const start = this.pos + 1;
    // Most strings have no escape and no control character: one slice.
    const close = text.indexOf('"', start);
    if (close < 0) return null;
    let plain = true;
    for (let i = start; i < close; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c || c < 0x20) {
        plain = false;
        break;
      }
    }
    if (plain) {
      this.pos = close + 1;
      return text.slice(start, close);
    }
    // Runs between escapes, joined once (not `+=`: see jsonString).
    const parts: string[] = [];
    let run = start;
    let pos = start;
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        parts.push(text.slice(run, pos));
        this.pos = pos + 1;
        return parts.join("");
      }
      if (c === 0x5c) {
        const e = text[pos + 1];
        const simple = e === undefined ? undefined : SIMPLE_ESCAPES[e];
        if (simple !== undefined) {
          parts.push(text.slice(run, pos), simple);
          pos += 2;
          run = pos;
          continue;
        }
        if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) {
          parts.push(
            text.slice(run, pos),
            String.fromCharCode(Number.parseInt(text.slice(pos + 2, pos + 6), 16)),
          );
          pos += 6;
          run = pos;
          continue;
        }
        this.pos = pos;
        return null;
      }
      if (c < 0x20) {
        this.pos = pos;
        return null;
      }
      pos++;
    }
    this.pos = pos;
    return null;
  }
}

/** What {@link readJsonExact} gives: the value, or why the text is not JSON. */
export type ExactJsonRead = Result<JsonValue>;

/**
 * Parses JSON text keeping every number's text ({@link JsonNumber}); repeated
 * keys: the last wins (as aeson and `JSON.parse`). Objects have no prototype.
 */
export function readJsonExact(text: string): ExactJsonRead {
  const p = new ExactJsonParser(text);
  const v = p.value(0);
  if (v === BAD) return { ok: false, error: p.reason };
  p.ws();
  if (p.pos !== text.length) {
    p.fail("text after the JSON value");
    return { ok: false, error: p.reason };
  }
  return { ok: true, value: v };
}

/**
 * The members of a JSON object text, each value as its exact text
 * ({@link RawJson}, checked to be JSON), in order; null when `text` is not
 * one JSON object. For reading back what a serializer wrote, part by part,
 * without re-writing the parts.
 */
export function readJsonMembers(text: string): Map<string, RawJson> | null {
  const p = new ExactJsonParser(text);
  const out = new Map<string, RawJson>();
  p.ws();
  if (text[p.pos] !== "{") return null;
  p.pos++;
  p.ws();
  if (text[p.pos] === "}") {
    p.pos++;
  } else {
    while (true) {
      p.ws();
      if (text[p.pos] !== '"') return null;
      const k = p.str();
      if (k === null) return null;
      p.ws();
      if (text[p.pos] !== ":") return null;
      p.pos++;
      p.ws();
      const start = p.pos;
      if (p.value(1) === BAD) return null;
      out.set(k, new RawJson(text.slice(start, p.pos)));
      p.ws();
      if (text[p.pos] === ",") {
        p.pos++;
        continue;
      }
      if (text[p.pos] !== "}") return null;
      p.pos++;
      break;
    }
  }
  p.ws();
  return p.pos === text.length ? out : null;
}

/** {@link readJsonExact}'s value, or null for text that is not JSON. */
export function parseJsonExact(text: string): JsonValue | null {
  // Not through readJsonExact: every stored row is read here, so no result object.
  const p = new ExactJsonParser(text);
  const v = p.value(0);
  if (v === BAD) return null;
  p.ws();
  return p.pos === text.length ? v : null;
}
