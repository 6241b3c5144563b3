/**
 * The Node page's plain logic: what the stream state, the health check and a refused mining
 * change say to the user. Decisions use the node's error code (`{code, message}` replies),
 * not guesses from the HTTP status.
 * @module
 */
import { type ClientError, ClientErrorCode, describeClientError } from "../../api/clientError.ts";
import type { StreamState } from "../../api/headerStream.ts";

export const streamText: Record<StreamState, string> = {
  connecting: "Connecting to live updates…",
  open: "Live: new blocks appear as they are added.",
  reconnecting: "Live updates interrupted; reconnecting…",
  closed: "Live updates stopped.",
};

/** The node's code of the mining route's "not from this computer" refusal. */
export const MINING_FORBIDDEN = "MINING_FORBIDDEN";
/** The node's code of "the miner cannot start" (no reward account, a thread did not start). */
export const MINING_CANNOT_START = "MINING_CANNOT_START";

/**
 * Whether the node refused the app API because the request does not come from this
 * computer's own app: the mining route's own code, or any `APP_*` refusal of the app API's
 * guard (403).
 */
export function isForbiddenHere(e: ClientError): boolean {
  if (e.code !== ClientErrorCode.HttpStatus || e.nodeCode === null) return false;
  return e.nodeCode === MINING_FORBIDDEN || (e.nodeCode.startsWith("APP_") && e.status === 403);
}

export type MiningRefusal = {
  readonly kind: "forbidden" | "cannot-start" | "failed";
  /** One short sentence, shown in bold. */
  readonly title: string;
  /** What the node said and, where useful, what to do. */
  readonly detail: string;
};

/** A refused or failed `POST /app/api/mining`, said plainly. */
export function miningRefusal(e: ClientError): MiningRefusal {
  if (isForbiddenHere(e)) {
    return {
      kind: "forbidden",
      title: "Mining can be turned on and off only on the computer that runs the node.",
      detail: e.code === ClientErrorCode.HttpStatus && e.message !== null ? e.message : "",
    };
  }
  if (e.code === ClientErrorCode.HttpStatus && e.nodeCode === MINING_CANNOT_START) {
    // The node's message repeats the title ("mining cannot start: …"); keep the reason.
    const reason = (e.message ?? "").replace(/^mining cannot start:\s*/i, "");
    return {
      kind: "cannot-start",
      title: "Mining did not start.",
      detail:
        reason === ""
          ? "The node cannot start its miner."
          : `${reason.charAt(0).toUpperCase()}${reason.slice(1)}`,
    };
  }
  return {
    kind: "failed",
    title: "The miner's setting was not changed.",
    detail: describeClientError(e),
  };
}

export type HealthView =
  | { readonly kind: "checking" }
  | { readonly kind: "healthy"; readonly text: string }
  | { readonly kind: "down"; readonly text: string };

/** The health line from the last health-check reply (`text`) or failure (`error`). */
export function healthView(text: string | undefined, error: ClientError | null): HealthView {
  if (error !== null) return { kind: "down", text: describeClientError(error) };
  if (text === undefined) return { kind: "checking" };
  return { kind: "healthy", text: text.trim() || "the node answers" };
}
