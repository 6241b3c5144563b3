/**
 * Which dapp request the review shows, and when a request opens the review (docs/dapp-signing.md,
 * "The page's side"). The request on screen is pinned: it stays there until the user answers it
 * or, once it stopped waiting, moves on, so a request its dapp withdraws is shown as withdrawn
 * (its Sign off) and the next one never takes its place under the user's pointer. The review
 * opens by itself once per burst of new requests (the first after 10 s without one, or the first
 * after the user answered), so a page asking again and again does not keep pulling the user
 * back to it. Pure: `DappRequestsProvider` keeps the state.
 * @module
 */
import type { DappRequest, DappRequestEnd, DappRequests } from "./dappRequests.ts";

/** New requests within this long of the one before belong to the same burst. */
export const REVIEW_QUIET_MS = 10_000;

export type DappScreen = {
  /** The node's latest list. */
  readonly list: DappRequests;
  /** The request the page shows, waiting or not; null when none waits. */
  readonly pinned: DappRequest | null;
};

export type DappScreenEvent =
  /** A new list from the node. */
  | { readonly type: "polled"; readonly list: DappRequests }
  /** The node took this page's answer to `id`. */
  | { readonly type: "answered"; readonly id: string }
  /** The user moves on from a request that stopped waiting. */
  | { readonly type: "dismissed" };

/** Why the request on screen no longer waits: the node's reason, or `gone` when it does not know. */
export type ShownEnd = DappRequestEnd | "gone";

export type Shown = {
  readonly request: DappRequest;
  /** null while it waits. */
  readonly ended: ShownEnd | null;
  /** How many other requests wait. */
  readonly others: number;
};

export const EMPTY_SCREEN: DappScreen = {
  list: { version: 0, requests: [], ended: [] },
  pinned: null,
};

export function reduceDappScreen(s: DappScreen, e: DappScreenEvent): DappScreen {
  switch (e.type) {
    case "polled":
      return { list: e.list, pinned: s.pinned ?? e.list.requests[0] ?? null };
    case "answered": {
      const requests = s.list.requests.filter((q) => q.id !== e.id);
      const list = { ...s.list, requests };
      return { list, pinned: s.pinned?.id === e.id ? (requests[0] ?? null) : s.pinned };
    }
    case "dismissed": {
      // Only a request that stopped waiting is dismissed; a waiting one needs an answer.
      if (s.pinned !== null && s.list.requests.some((q) => q.id === s.pinned?.id)) return s;
      return { ...s, pinned: s.list.requests[0] ?? null };
    }
  }
}

/** The request on screen, whether it still waits, and how many others do. */
export function shownOf(s: DappScreen): Shown | null {
  const request = s.pinned;
  if (request === null) return null;
  const waiting = s.list.requests.some((q) => q.id === request.id);
  const ended = waiting
    ? null
    : (s.list.ended.find((x) => x.id === request.id)?.reason ?? ("gone" as const));
  const others = s.list.requests.filter((q) => q.id !== request.id).length;
  return { request, ended, others };
}

/** Where the review's bursts stand: the last new request's arrival, and an answer since. */
export type ReviewBurst = { readonly lastNewAt: number | null; readonly answeredSince: boolean };

/**
 * Whether new requests arriving at `now` open the review: the first ever, the first after the
 * user answered one, or the first after {@link REVIEW_QUIET_MS} without a new one (a clock set
 * back counts as quiet).
 */
export function opensReview(b: ReviewBurst, now: number, quietMs = REVIEW_QUIET_MS): boolean {
  return (
    b.answeredSince || b.lastNewAt === null || now < b.lastNewAt || now - b.lastNewAt >= quietMs
  );
}
