/**
 * The one shape of an expected outcome that may fail: a value, or why not.
 *
 * A rejection the caller is meant to handle (bad input, a failed check, a contract
 * `enforce`) is returned as `{ok: false, error}`; a bug is thrown. `E` is a coded error,
 * or a sentence for a user when the failure is only ever shown. Browser-safe: the
 * renderer and the bridge's contract use it too (`src-node/layers.ts`).
 *
 * @example
 * ```ts
 * import { fail, ok, type Result } from "./result.ts";
 * const half = (n: number): Result<number> => (n % 2 === 0 ? ok(n / 2) : fail(`${n} is odd`));
 * ```
 * @module
 */

export type Result<T, E = string> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

/** The success of a {@link Result}. */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** The failure of a {@link Result}. */
export function fail<E>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error };
}
