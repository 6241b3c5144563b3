/**
 * Values of a command's JSON (capability arguments) as the reviews show what is signed, at any
 * depth: a string in double quotes (escaped as JSON, so a line break shows as `\n`), a number
 * as it was written (`2.50` stays `2.50`, every digit of a large integer kept), Pact's exact
 * number forms `{"int": 7}` and `{"decimal": "2.50"}` as the number they stand for, lists as
 * `[a, b]` and objects as `{"key": value}`. `JSON.stringify` would print an exact number as
 * the object holding it (`{"text":"2.50"}`).
 * @module
 */
import {
  isJsonObject,
  JsonNumber,
  type JsonValue,
  jsonNumber,
  jsonString,
} from "../../../src-node/command/exactJson.ts";

const INTEGER = /^-?[0-9]+$/;
const DECIMAL = /^-?[0-9]+(?:\.[0-9]+)?$/;

/**
 * The number an exact-number value stands for, as text: a JSON number as written, `{"int": n}`
 * (n an integer, as a number or a string) and `{"decimal": "d"}`; null for anything else.
 */
export function exactNumberText(v: JsonValue): string | null {
  if (v instanceof JsonNumber) return v.text;
  if (typeof v === "number") return jsonNumber(v);
  if (!isJsonObject(v)) return null;
  const keys = Object.keys(v);
  if (keys.length !== 1) return null;
  if (keys[0] === "int") {
    const i = v.int;
    const text = i instanceof JsonNumber ? i.text : typeof i === "number" ? jsonNumber(i) : i;
    return typeof text === "string" && INTEGER.test(text) ? text : null;
  }
  if (keys[0] === "decimal") {
    return typeof v.decimal === "string" && DECIMAL.test(v.decimal) ? v.decimal : null;
  }
  return null;
}

/** `v` as the reviews show it (see the module's description). */
export function pactValueText(v: JsonValue): string {
  const n = exactNumberText(v);
  if (n !== null) return n;
  if (typeof v === "string") return jsonString(v);
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (Array.isArray(v)) return `[${v.map((x: JsonValue) => pactValueText(x)).join(", ")}]`;
  if (isJsonObject(v)) {
    const members = Object.entries(v).map(([k, x]) => `${jsonString(k)}: ${pactValueText(x)}`);
    return `{${members.join(", ")}}`;
  }
  return String(v);
}
