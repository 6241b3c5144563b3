/**
 * JSON values as commands carry them, with one addition: {@link JsonNumber},
 * a number kept as its exact text. Request files say `1.0` or
 * `123456789012345678901` in data and capability arguments, and the contract
 * language tells `1.0` (decimal) from `1` (integer), so building a `cmd` must
 * not round-trip numbers through IEEE doubles.
 * @module
 */
import { commandInvariant } from "./errors.ts";

const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;

/** A JSON number held as its exact text (which is valid JSON number syntax). */
export class JsonNumber {
  readonly text: string;

  private constructor(text: string) {
    this.text = text;
  }

  /** The number, or undefined when `text` is not JSON number syntax. */
  static of(text: string): JsonNumber | undefined {
    return JSON_NUMBER.test(text) ? new JsonNumber(text) : undefined;
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

/** True for a plain JSON object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof JsonNumber)
  );
}

/**
 * Serializes like `JSON.stringify` (no whitespace, insertion key order,
 * `undefined` properties skipped) except that a {@link JsonNumber} is written
 * as its exact text.
 * @throws {CommandError} CMD_INVARIANT for a non-finite number or an undefined
 *   array element, which no JSON text can carry (a caller bug, not user input).
 */
export function stringifyJson(value: JsonValue): string {
  if (value === null) return "null";
  if (value instanceof JsonNumber) return value.text;
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw commandInvariant("json", `not a JSON number: ${value}`);
      return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((v: JsonValue | undefined) => {
      if (v === undefined) throw commandInvariant("json", "undefined array element");
      return stringifyJson(v);
    })}]`;
  }
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value as JsonObject)) {
    if (v === undefined) continue;
    parts.push(`${JSON.stringify(k)}:${stringifyJson(v)}`);
  }
  return `{${parts.join(",")}}`;
}
