/**
 * Each party set's private chain and its running digest (docs/private.md
 * "Ordering"). A private command's parties are its sender and addressed
 * entities; every party runs every command of that set, each in the order
 * it received them. Two senders' commands may reach the parties in
 * different orders, which can split their states; the running digest shows
 * it: `d0` = 32 zero bytes, `dN` = SHA-256(`weft-private-step` ‖ `dN-1` ‖
 * request key of step N). Parties state their (steps, digest) in signed
 * envelopes and receipts; {@link compareViews} says whether another party's
 * statement agrees with this node's history.
 * @module
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { base64UrlDecode, base64UrlEncode } from "../../encoding/base64url.ts";
import type { PartyCheckResult } from "../../store/privateLedgerStore.ts";

/** A party's chain as it states it: steps so far and the digest after them. */
export type PartyView = { readonly steps: number; readonly digest: string };

/** The digest before any step. */
export const EMPTY_DIGEST = base64UrlEncode(new Uint8Array(32));

const TAG = new TextEncoder().encode("weft-private-step");

/** The party set of a command: its sender and addressed entities, sorted, once each. */
export function partiesOf(address: {
  readonly from: string;
  readonly to: readonly string[];
}): string {
  return [...new Set([address.from, ...address.to])].sort().join(",");
}

/** The digest after a step running `requestKey` on a chain whose digest was `previous`. */
export function nextDigest(previous: string, requestKey: string): string {
  const prev = base64UrlDecode(previous, "digest");
  const key = base64UrlDecode(requestKey, "requestKey");
  const bytes = new Uint8Array(TAG.length + prev.length + key.length);
  bytes.set(TAG, 0);
  bytes.set(prev, TAG.length);
  bytes.set(key, TAG.length + prev.length);
  return base64UrlEncode(sha256(bytes));
}

/**
 * Compares another party's statement with this node's history of the same
 * party set: `in-step` when its digest is this node's after as many steps
 * (it may be a step or two behind: messages cross), `behind` when it states
 * more steps than this node has (a delivery to this node failed, or the two
 * differ: only later messages tell), `diverged` when the digests differ.
 * @param digestAt this node's digest after `n` steps (n from 0 to `ourSteps`).
 */
export function compareViews(
  ourSteps: number,
  digestAt: (n: number) => string | undefined,
  theirs: PartyView,
): PartyCheckResult {
  if (theirs.steps > ourSteps) return "behind";
  return digestAt(theirs.steps) === theirs.digest ? "in-step" : "diverged";
}
