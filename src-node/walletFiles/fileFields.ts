/**
 * The checks the wallet's stored files are read with, beyond `decode.ts`'s: objects with
 * exactly the members their format names (an unknown one is refused, so nothing unchecked is
 * stored or read back), text bounded in characters as JSON Schema counts them (code points: an
 * emoji is one), bounded lists, one value out of a list, lower-case hex of a size, chains and
 * request keys. Each refusal names the path of the value, as `decode.ts` says.
 * @module
 */
import { array, record, refuse, reject, string } from "./decode.ts";

/** A member name written as `.name` in a path; any other is quoted. */
const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$/;

/**
 * `path.name`, or `path["name"]` for an odd name (a forged file's), quoted as JSON, cut to 32
 * characters and with `:` escaped, so a path never holds `": "`.
 */
export function memberPath(path: string, name: string): string {
  if (PLAIN_NAME.test(name)) return `${path}.${name}`;
  const quoted = JSON.stringify(name.length > 32 ? `${name.slice(0, 32)}…` : name);
  return `${path}[${quoted.replaceAll(":", "\\u003a")}]`;
}

/**
 * An object with every member of `required`, and no member outside `required` and
 * `optional`.
 */
export function fields(
  x: unknown,
  path: string,
  required: readonly string[],
  optional: readonly string[] = [],
): Record<string, unknown> {
  const o = record(x, path);
  for (const name of Object.keys(o)) {
    if (!required.includes(name) && !optional.includes(name)) {
      refuse(memberPath(path, name), "unknown field");
    }
  }
  for (const name of required) {
    if (!Object.hasOwn(o, name)) refuse(memberPath(path, name), "missing (required)");
  }
  return o;
}

/** Code points of `s`, counted up to `limit + 1` at most (a longer text is over anyway). */
function charactersUpTo(s: string, limit: number): number {
  let n = 0;
  for (const _ of s) if (++n > limit) break;
  return n;
}

/** Text of `min` to `max` characters (code points, as JSON Schema's `maxLength`). */
export function text(x: unknown, path: string, max: number, min = 0): string {
  const s = string(x, path);
  // A code point is one or two UTF-16 units: count only when the length alone cannot tell.
  if (s.length <= max && s.length >= 2 * min) return s;
  const n = charactersUpTo(s, max);
  if (n > max || n < min) {
    reject(path, min === 0 ? `at most ${max} characters` : `${min} to ${max} characters`);
  }
  return s;
}

/** Text matching `pattern`, else refused as not `expected`. */
export function matching(x: unknown, path: string, pattern: RegExp, expected: string): string {
  const s = string(x, path);
  return pattern.test(s) ? s : reject(path, expected);
}

/** `bytes` bytes as lower-case hex. */
export function hexBytes(x: unknown, path: string, bytes: number): string {
  const s = string(x, path);
  return s.length === bytes * 2 && /^[0-9a-f]*$/.test(s)
    ? s
    : reject(path, `${bytes} bytes of lower-case hex`);
}

/** One of `values` (compared with `===`). */
export function oneOf<const T extends string | number>(
  x: unknown,
  path: string,
  values: readonly T[],
): T {
  return values.includes(x as T)
    ? (x as T)
    : reject(path, values.map((v) => JSON.stringify(v)).join(" or "));
}

/** A list of `min` to `max` items, each read by `item` at `path[i]`. */
export function listOf<T>(
  x: unknown,
  path: string,
  max: number,
  item: (x: unknown, path: string) => T,
  min = 0,
): readonly T[] {
  const list = array(x, path);
  if (list.length > max || list.length < min) {
    reject(
      path,
      min === 0 ? `at most ${max} item${max === 1 ? "" : "s"}` : `${min} to ${max} items`,
    );
  }
  return list.map((v, i) => item(v, `${path}[${i}]`));
}

/** `null`, or what `read` reads. */
export function orNull<T>(
  x: unknown,
  path: string,
  read: (x: unknown, path: string) => T,
): T | null {
  return x === null ? null : read(x, path);
}

/** A chain id: an integer 0–999. */
export function chain(x: unknown, path: string): number {
  return typeof x === "number" && Number.isInteger(x) && x >= 0 && x <= 999
    ? x
    : reject(path, "a chain (0 to 999)");
}

const REQUEST_KEY = /^[A-Za-z0-9_-]{43}$/;

/** A request key: 43 characters of unpadded base64url. */
export function requestKey(x: unknown, path: string): string {
  return matching(x, path, REQUEST_KEY, "a request key (43 base64url characters)");
}
