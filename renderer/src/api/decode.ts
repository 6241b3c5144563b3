/**
 * Small decoders for JSON from the node: each checks one shape and names the path of the
 * first value that does not fit. Parsers built from them return values, never throw.
 * @module
 */

import type { Result } from "../../../src-node/errors/result.ts";

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

/** Fails the surrounding {@link decode} with `reason`. */
export function reject(path: string, expected: string): never {
  throw new DecodeFailure(`${path}: expected ${expected}`);
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

/** A finite number >= 0. */
export function nonNegative(x: unknown, path: string): number {
  return typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : reject(path, "a number >= 0");
}

const HASH = /^[A-Za-z0-9_-]{43}$/;

/** A block hash: 43 characters of unpadded base64url. */
export function blockHash(x: unknown, path: string): string {
  const s = string(x, path);
  return HASH.test(s) ? s : reject(path, "a 43-character base64url hash");
}

/** A chain id: a decimal integer 0–999 given as a number or a string key. */
export function chainId(x: unknown, path: string): number {
  if (typeof x === "string" && /^(0|[1-9][0-9]{0,2})$/.test(x)) return Number(x);
  if (typeof x === "number" && Number.isInteger(x) && x >= 0 && x < 1000) return x;
  return reject(path, "a chain id");
}
