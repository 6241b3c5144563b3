/**
 * Typed readers for the fields of a YAML file (request files, key files,
 * detached transactions), each naming the file and field in its error.
 * Strings that YAML read as numbers (`chainId: 0`, a nonce, an all-digit hex
 * key) are taken as written.
 * @module
 */
import { JsonNumber } from "../command/exactJson.ts";
import { cliError } from "./errors.ts";
import { sourceOf, type YamlValue } from "./yamlValue.ts";

export type YamlMap = { readonly [key: string]: YamlValue };

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const INTEGER = /^-?[0-9]+$/;

/** `parent.key`, or `key` at the top of the file. */
export function childField(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

export function isMap(v: YamlValue | undefined): v is YamlMap {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);
}

export function readMap(v: YamlValue | undefined, file: string, field: string): YamlMap {
  if (!isMap(v)) {
    throw cliError("CLI_BAD_FIELD", file, field, "expected a mapping of keys to values");
  }
  return v;
}

/**
 * Refuses keys outside `allowed`.
 * @param hint added to the message, e.g. which command the key belongs to.
 */
export function checkKeys(
  map: YamlMap,
  allowed: readonly string[],
  file: string,
  parent: string,
  hints: Readonly<Record<string, string>> = {},
): void {
  for (const key of Object.keys(map)) {
    if (allowed.includes(key)) continue;
    const hint = hints[key] ?? `expected one of: ${allowed.join(", ")}`;
    throw cliError("CLI_UNKNOWN_KEY", file, childField(parent, key), `unknown key; ${hint}`);
  }
}

/** The value at `key`, or undefined when absent or null. */
export function member(map: YamlMap, key: string): YamlValue | undefined {
  const v = Object.hasOwn(map, key) ? map[key] : undefined;
  return v === null ? undefined : v;
}

export function missing(file: string, field: string, text = "missing (required)") {
  return cliError("CLI_MISSING_FIELD", file, field, text);
}

export function readText(v: YamlValue | undefined, file: string, field: string): string {
  if (typeof v === "string") return v;
  if (v instanceof JsonNumber) return sourceOf(v);
  if (v === undefined) throw missing(file, field);
  throw cliError("CLI_BAD_FIELD", file, field, "expected text");
}

export function readBool(v: YamlValue | undefined, file: string, field: string): boolean {
  if (typeof v === "boolean") return v;
  if (v === undefined) throw missing(file, field);
  throw cliError("CLI_BAD_FIELD", file, field, "expected true or false");
}

/** A safe integer, written as a number or as digits in a string. */
export function readInt(v: YamlValue | undefined, file: string, field: string): number {
  if (v === undefined) throw missing(file, field);
  const text = v instanceof JsonNumber ? v.text : typeof v === "string" ? v : "";
  const n = INTEGER.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw cliError("CLI_BAD_FIELD", file, field, "expected an integer");
  return n;
}

/** Hex of exactly `bytes` bytes when given; returned in lower case. */
export function readHexText(
  v: YamlValue | undefined,
  file: string,
  field: string,
  bytes?: number,
): string {
  const text = readText(v, file, field);
  if (!HEX.test(text) || text.length === 0) {
    throw cliError("CLI_BAD_FIELD", file, field, "expected hex");
  }
  if (bytes !== undefined && text.length !== bytes * 2) {
    throw cliError(
      "CLI_BAD_FIELD",
      file,
      field,
      `expected ${bytes} bytes of hex (${bytes * 2} characters), got ${text.length} characters`,
    );
  }
  return text.toLowerCase();
}

export function readList(
  v: YamlValue | undefined,
  file: string,
  field: string,
): readonly YamlValue[] {
  if (Array.isArray(v)) return v;
  if (v === undefined) throw missing(file, field);
  throw cliError("CLI_BAD_FIELD", file, field, "expected a list");
}
