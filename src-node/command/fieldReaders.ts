/**
 * Typed readers for the fields of a parsed JSON command: each takes the value
 * and the field's path, and returns the typed value or throws a
 * {@link CommandError} naming that path. Lenient where common clients differ
 * (integers as numeric strings), strict about types otherwise. Numbers come
 * as exact {@link JsonNumber}s (commands are read by the exact JSON parser)
 * or JS numbers.
 * @module
 */
import { CommandError, CommandErrorCode } from "./errors.ts";
import { JsonNumber } from "./exactJson.ts";

const INTEGER_TEXT = /^-?[0-9]+$/;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const REQUEST_KEY_TEXT = /^[a-zA-Z0-9_-]{43}$/;

/** True for the text of a request key: 43 characters of unpadded base64url. */
export function isRequestKeyText(value: unknown): value is string {
  return typeof value === "string" && REQUEST_KEY_TEXT.test(value);
}

/** `parent.key`, or `key` at the top. */
export function fieldPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

export function missingField(field: string): CommandError {
  return new CommandError(
    { code: CommandErrorCode.MissingField, field },
    `${field}: missing (required)`,
  );
}

export function badField(field: string, expected: string): CommandError {
  return new CommandError(
    { code: CommandErrorCode.BadField, field, expected },
    `${field}: expected ${expected}`,
  );
}

/** A plain JSON object (not an array, not null). */
export function readObject(value: unknown, field: string): Readonly<Record<string, unknown>> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badField(field, "an object");
  }
  return value as Readonly<Record<string, unknown>>;
}

/** The value of a required member; throws CMD_MISSING_FIELD when absent. */
export function required(obj: Readonly<Record<string, unknown>>, key: string, parent: string) {
  const field = fieldPath(parent, key);
  if (!Object.hasOwn(obj, key) || obj[key] === undefined) throw missingField(field);
  return { value: obj[key], field };
}

/** The value of an optional member (undefined when absent). */
export function optional(obj: Readonly<Record<string, unknown>>, key: string, parent: string) {
  const field = fieldPath(parent, key);
  return { value: Object.hasOwn(obj, key) ? obj[key] : undefined, field };
}

export function readString(value: unknown, field: string): string {
  if (typeof value !== "string") throw badField(field, "a string");
  return value;
}

export function readBoolean(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") throw badField(field, "true or false");
  return value;
}

export function readArray(value: unknown, field: string): readonly unknown[] {
  if (!Array.isArray(value)) throw badField(field, "an array");
  return value;
}

/** A safe integer given as a JSON number or as a numeric string (`"1500"`). */
export function readInteger(value: unknown, field: string): number {
  const n =
    typeof value === "number"
      ? value
      : value instanceof JsonNumber
        ? // As JSON.parse reads it: `1.0e3` is 1000.
          Number(value.text)
        : typeof value === "string" && INTEGER_TEXT.test(value)
          ? Number(value)
          : Number.NaN;
  if (!Number.isSafeInteger(n)) throw badField(field, "an integer");
  return n;
}

/** Hex text of exactly `bytes` bytes (either case; returned as given). */
export function readHex(value: unknown, field: string, bytes?: number): string {
  if (typeof value !== "string" || !HEX.test(value)) throw badField(field, "a hex string");
  if (bytes !== undefined && value.length !== bytes * 2) {
    throw badField(field, `${bytes} bytes of hex (${bytes * 2} characters)`);
  }
  return value;
}
