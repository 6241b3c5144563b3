/**
 * The base of every coded error the node throws or returns.
 *
 * Each area declares a `const` table of codes and a payload union in its own
 * `errors.ts`, and a subclass of {@link NodeError} over that union. Boundaries
 * (HTTP, IPC, CLI) map codes to statuses with tables, never by matching text.
 * @module
 */

/** Every error payload has a machine-readable `code`; the rest is context. */
export type ErrorPayload = { readonly code: string };

/**
 * A coded error. `type` carries the typed payload; `message` is the human text
 * shown to users (short message first, details after).
 */
export class NodeError<T extends ErrorPayload = ErrorPayload> extends Error {
  readonly type: T;

  constructor(type: T, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.type = type;
    this.name = new.target.name;
  }

  get code(): T["code"] {
    return this.type.code;
  }

  toJSON(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** True when `e` is a NodeError whose code is one of `codes` (any code when omitted). */
export function isNodeError(e: unknown, ...codes: string[]): e is NodeError {
  return e instanceof NodeError && (codes.length === 0 || codes.includes(e.code));
}
