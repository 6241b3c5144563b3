/**
 * Exact JSON (command/exactJson.ts) indented for reading, as the reviews show a command's
 * data: a number keeps the text it was written with (`1.0`, every digit of a large integer),
 * which `JSON.stringify` cannot do (it would print a `JsonNumber` as an object).
 * @module
 */
import {
  isJsonObject,
  JsonNumber,
  type JsonValue,
  jsonString,
  stringifyJson,
} from "../../../src-node/command/exactJson.ts";

/** `value` with two spaces per level, members in their order. */
export function prettyJson(value: JsonValue, indent = ""): string {
  if (value instanceof JsonNumber) return value.text;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v: JsonValue) => `${inner}${prettyJson(v, inner)}`);
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  if (isJsonObject(value)) {
    const members = Object.entries(value);
    if (members.length === 0) return "{}";
    const lines = members.map(([k, v]) => `${inner}${jsonString(k)}: ${prettyJson(v, inner)}`);
    return `{\n${lines.join(",\n")}\n${indent}}`;
  }
  return stringifyJson(value);
}
