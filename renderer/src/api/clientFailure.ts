/**
 * The bridge between the client's `ClientResult` values and the query library, which wants
 * failures thrown: `unwrap` throws a `ClientFailure` carrying the `ClientError`, and
 * `clientErrorOf` gets it back for the UI to render.
 * @module
 */
import { type ClientError, ClientErrorCode, type ClientResult } from "./clientError.ts";

export class ClientFailure extends Error {
  readonly clientError: ClientError;
  constructor(clientError: ClientError) {
    super(clientError.code);
    this.name = "ClientFailure";
    this.clientError = clientError;
  }
}

/** The value of a successful call; throws a {@link ClientFailure} otherwise. */
export async function unwrap<T>(call: Promise<ClientResult<T>>): Promise<T> {
  const r = await call;
  if (r.ok) return r.value;
  throw new ClientFailure(r.error);
}

/** The client error behind a thrown value (a bug elsewhere is shown as an unreadable reply). */
export function clientErrorOf(e: unknown): ClientError {
  if (e instanceof ClientFailure) return e.clientError;
  return {
    code: ClientErrorCode.BadResponse,
    url: "",
    reason: e instanceof Error ? e.message : String(e),
  };
}

/** Whether a failed call is worth repeating at once: not for 4xx answers, which would repeat. */
export function isRetryable(e: unknown): boolean {
  const c = clientErrorOf(e);
  return !(c.code === ClientErrorCode.HttpStatus && c.status >= 400 && c.status < 500);
}
