/**
 * Which dapp request the review shows (renderer/src/features/wallet/dapp/dappOnScreen.ts): the
 * request on screen stays pinned when its dapp withdraws it (shown withdrawn, the next one not
 * put in its place) until the user moves on; answering moves to the next; the review opens by
 * itself once per burst of new requests, or again after the user answered.
 */
import { describe, expect, it } from "vitest";
import {
  type DappScreen,
  EMPTY_SCREEN,
  opensReview,
  REVIEW_QUIET_MS,
  reduceDappScreen,
  shownOf,
} from "../../renderer/src/features/wallet/dapp/dappOnScreen.ts";
import type {
  DappRequest,
  DappRequestEnd,
} from "../../renderer/src/features/wallet/dapp/dappRequests.ts";

const req = (id: string, origin: string | null = `https://${id}.example`): DappRequest => ({
  id,
  kind: "quicksign",
  origin,
  receivedAt: 1,
  expiresAt: 2,
  body: {},
  text: null,
});

const polled = (
  s: DappScreen,
  requests: DappRequest[],
  ended: { id: string; reason: DappRequestEnd }[] = [],
) =>
  reduceDappScreen(s, {
    type: "polled",
    list: { version: s.list.version + 1, requests, ended },
  });

describe("[renderer] the dapp request on screen", () => {
  it("pins the oldest waiting request; a withdrawn one stays on screen as withdrawn until dismissed", () => {
    const a = req("a");
    const b = req("b");
    let s = polled(EMPTY_SCREEN, [a]);
    expect(shownOf(s)).toEqual({ request: a, ended: null, others: 0 });
    s = polled(s, [a, b]);
    expect(shownOf(s)).toEqual({ request: a, ended: null, others: 1 });
    // a's dapp withdraws it: b waits, but a stays on screen, withdrawn.
    s = polled(s, [b], [{ id: "a", reason: "withdrawn" }]);
    expect(shownOf(s)).toEqual({ request: a, ended: "withdrawn", others: 1 });
    s = polled(s, [b, req("c")], [{ id: "a", reason: "withdrawn" }]);
    expect(shownOf(s)?.request.id).toBe("a");
    s = reduceDappScreen(s, { type: "dismissed" });
    expect(shownOf(s)).toEqual({ request: b, ended: null, others: 1 });
    // A waiting request is not dismissed: it needs an answer.
    expect(reduceDappScreen(s, { type: "dismissed" })).toBe(s);
  });

  it("an answer moves to the next waiting request; the last one leaves nothing on screen", () => {
    let s = polled(EMPTY_SCREEN, [req("a"), req("b")]);
    s = reduceDappScreen(s, { type: "answered", id: "a" });
    expect(shownOf(s)?.request.id).toBe("b");
    // The node's next list agrees.
    s = polled(s, [req("b")], [{ id: "a", reason: "signed" }]);
    expect(shownOf(s)).toMatchObject({ ended: null, others: 0 });
    s = reduceDappScreen(s, { type: "answered", id: "b" });
    expect(shownOf(s)).toBe(null);
  });

  it("says why the request on screen stopped: timed out, answered elsewhere, or unknown to the node", () => {
    let s = polled(EMPTY_SCREEN, [req("a")]);
    expect(shownOf(polled(s, [], [{ id: "a", reason: "timedOut" }]))?.ended).toBe("timedOut");
    expect(shownOf(polled(s, [], [{ id: "a", reason: "refused" }]))?.ended).toBe("refused");
    s = polled(s, []);
    expect(shownOf(s)?.ended).toBe("gone");
    expect(shownOf(reduceDappScreen(s, { type: "dismissed" }))).toBe(null);
  });
});

describe("[renderer] the review opened once per burst", () => {
  it("opens for the first request, after 10 s of quiet, and after the user answered", () => {
    expect(REVIEW_QUIET_MS).toBe(10_000);
    expect(opensReview({ lastNewAt: null, answeredSince: false }, 0)).toBe(true);
    expect(opensReview({ lastNewAt: 0, answeredSince: false }, 9_999)).toBe(false);
    expect(opensReview({ lastNewAt: 0, answeredSince: false }, 10_000)).toBe(true);
    expect(opensReview({ lastNewAt: 0, answeredSince: true }, 1)).toBe(true);
    expect(opensReview({ lastNewAt: 5000, answeredSince: false }, 1)).toBe(true);
  });
});
