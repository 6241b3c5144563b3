/**
 * Small decoders for JSON from outside: each checks one shape and names the path of the first
 * value that does not fit. Parsers built from them return values, never throw. The wallet's
 * file formats (this folder) are written with them, and so are the renderer's parsers of the
 * node's answers (they import them through `renderer/src/api/decode.ts`), so one failure
 * mechanism serves both.
 *
 * A failure's reason is `<path>: <what was expected>`; a path is a name followed by `.member`
 * and `[index]` parts and never holds `": "` (`fileFields.ts` quotes odd member names), so
 * the node can tell the field from the reason (api/parsedBody.ts).
 * @module
 */
import type { Result } from "../errors/result.ts";

/** A decode outcome: the value, or the reason (with the JSON path) it was rejected. */
export type Decoded<T> = Result<T>;

/** Raised inside a decoder and caught by {@link decode}; never escapes this module's callers. */
class DecodeFailure {
  readonly reason: string;
  constructor(reason: string) {
    this.reason = reason;
  }
}

/** Runs `f` on `raw`, turning the first failed check into a `Decoded` failure. */
export function decode<T>(raw: unknown, f: (raw: unknown) => T): Decoded<T> {
  try {
    return { ok: true, value: f(raw) };
  } catch (e) {
    if (e instanceof DecodeFailure) return { ok: false, error: e.reason };
    throw e;
  }
}

/** Fails the surrounding {@link decode}: `path: reason`. */
export function refuse(path: string, reason: string): never {
  throw new DecodeFailure(`${path}: ${reason}`);
}

/** Fails the surrounding {@link decode} with `path: expected <expected>`. */
export function reject(path: string, expected: string): never {
  return refuse(path, `expected ${expected}`);
}

export function record(x: unknown, path: string): Record<string, unknown> {
  if (typeof x === "object" && x !== null && !Array.isArray(x)) return x as Record<string, unknown>;
  return reject(path, "an object");
}

export function array(x: unknown, path: string): readonly unknown[] {
  return Array.isArray(x) ? x : reject(path, "an array");
}

export function string(x: unknown, path: string): string {
  return typeof x === "string" ? x : reject(path, "a string");
}

export function boolean(x: unknown, path: string): boolean {
  return typeof x === "boolean" ? x : reject(path, "true or false");
}

/** A safe integer >= 0. */
export function natural(x: unknown, path: string): number {
  return typeof x === "number" && Number.isSafeInteger(x) && x >= 0
    ? x
    : reject(path, "an integer >= 0");
}
