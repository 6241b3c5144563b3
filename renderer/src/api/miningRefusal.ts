/**
 * A refused or failed change of the built-in miner (`POST /app/api/mining`) in words, for the
 * Node page's Mining panel and the wallet's "Turn mining on" alike. Decisions use the node's
 * error code (`{code, message}` replies), not guesses from the HTTP status.
 * @module
 */
import { type ClientError, ClientErrorCode } from "./clientError.ts";
import { clientErrorDetails, clientErrorWords, type ErrorWords } from "./errorWords.ts";

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

/** The node's code of a reward account it cannot use (bad name, keys, predicate). */
export const MINING_BAD_MINER_INFO = "MINING_BAD_MINER_INFO";

export type MiningRefusal = {
  readonly kind: "forbidden" | "cannot-start" | "no-account" | "bad-account" | "failed";
  /** One short sentence, shown in bold. */
  readonly title: string;
  /** What to do, and the node's own words behind "Details". */
  readonly error: ErrorWords;
};

/**
 * A refused or failed `POST /app/api/mining`, said plainly. `status` is the miner's state the
 * page has: a "cannot start" with no account to pay (`payee` null) is the missing reward
 * account, said as what to do in the app rather than the node's command-line advice.
 */
export function miningRefusal(
  e: ClientError,
  status?: { readonly payee: string | null } | undefined,
): MiningRefusal {
  const details = clientErrorDetails(e);
  if (isForbiddenHere(e)) {
    return {
      kind: "forbidden",
      title: "Mining can be turned on and off only on the computer that runs the node.",
      error: { text: "Open the app there to change it.", details },
    };
  }
  if (e.code === ClientErrorCode.HttpStatus && e.nodeCode === MINING_CANNOT_START) {
    const noAccount = status?.payee === null || /no reward account/i.test(e.message ?? "");
    return noAccount
      ? {
          kind: "no-account",
          title: "Mining needs a reward account.",
          error: {
            text: "Choose one of your wallet's accounts, or type the account block rewards should go to, under “Reward account”; then turn Mining on.",
            details,
          },
        }
      : {
          kind: "cannot-start",
          title: "Mining did not start.",
          error: {
            text: "The node could not start its miner. Try again; if it fails again, the node's log (below) says why.",
            details,
          },
        };
  }
  if (e.code === ClientErrorCode.HttpStatus && e.nodeCode === MINING_BAD_MINER_INFO) {
    return {
      kind: "bad-account",
      title: "The reward account was not accepted.",
      error: clientErrorWords(e),
    };
  }
  return {
    kind: "failed",
    title: "The miner's setting was not changed.",
    error: clientErrorWords(e),
  };
}
