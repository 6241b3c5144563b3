/**
 * When a dapp's signing request brings the desktop window to the front (docs/dapp-signing.md,
 * "The window comes to the front"): once per burst, not once per request. A burst is a run of
 * requests each within {@link SIGN_REQUEST_QUIET_MS} of the one before; only its first takes
 * the focus, so a page asking again and again (each request withdrawn at once, within the
 * node's rate per origin) cannot keep pulling the window over what the user is doing. The
 * requests that follow still wait in the review, where the user finds them.
 * @module
 */

/** A request this long after the one before starts a new burst. */
export const SIGN_REQUEST_QUIET_MS = 10_000;

/**
 * Whether a signing request arriving at `now` starts a burst: no request arrived in the
 * `quietMs` before it (`lastRequestAt`: the previous one's arrival, null for none; a clock set
 * back counts as a new burst).
 */
export function startsSignRequestBurst(
  lastRequestAt: number | null,
  now: number,
  quietMs: number = SIGN_REQUEST_QUIET_MS,
): boolean {
  return lastRequestAt === null || now < lastRequestAt || now - lastRequestAt >= quietMs;
}
