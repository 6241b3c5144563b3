/**
 * The dapps' signing request queue (src-node/api/dappSigning/signRequestQueue.ts) and its
 * token bucket per origin (originRateLimit.ts), on a clock of the test's own: one waiting
 * request per origin (the second refused naming the first), each origin's rate, the bound on
 * all waiting requests, a withdrawn request remembered as withdrawn (an answer to it refused
 * with APP_SIGN_REQUEST_WITHDRAWN, never handed to another request), and the host told of
 * each request put in front of the user, and of no refused one.
 */
import { describe, expect, it } from "vitest";
import { OriginRateLimit } from "../../src-node/api/dappSigning/originRateLimit.ts";
import {
  type AnswerRules,
  type PendingSignRequest,
  SignRequestQueue,
} from "../../src-node/api/dappSigning/signRequestQueue.ts";
import { AppError } from "../../src-node/api/errors.ts";

const rules: AnswerRules = {
  signed: () => ({ status: 200, json: { signed: true } }),
  refused: () => ({ status: 200, json: { refused: true } }),
  timedOut: () => ({ status: 200, json: { timedOut: true } }),
  closed: () => ({ status: 200, json: { closed: true } }),
};

function queue(o: { maxPending?: number; burst?: number; everyMs?: number } = {}) {
  const clock = { now: 1_000_000 };
  const told: PendingSignRequest[] = [];
  const q = new SignRequestQueue({
    timeoutMs: 60_000,
    maxPending: o.maxPending ?? 10,
    originRate: { burst: o.burst ?? 3, everyMs: o.everyMs ?? 5000 },
    now: () => clock.now,
    onRequest: (r) => told.push(r),
  });
  const ask = (origin: string | null) => {
    const r = q.ask("quicksign", origin, {}, rules);
    if (!r.ok) return r;
    // Ended requests settle their promise; nobody waits on most of them here.
    void r.answer;
    return r;
  };
  return { q, clock, told, ask };
}

function codeOf(f: () => void): string {
  try {
    f();
  } catch (e) {
    if (e instanceof AppError) return e.type.code;
    throw e;
  }
  return "no error";
}

describe("[unit] the signing request queue", () => {
  it("holds one request per origin: a second is refused naming the first; another origin is not held up", () => {
    const { q, ask, told } = queue();
    const first = ask("https://a.example");
    if (!first.ok) throw new Error("refused");
    const [pending] = q.list();
    const second = ask("https://a.example");
    expect(second).toEqual({ ok: false, refusal: { reason: "originBusy", pending } });
    // Neither hidden ("null") nor absent origins share a slot with it, nor each other.
    expect(ask("https://b.example").ok).toBe(true);
    expect(ask("null").ok).toBe(true);
    expect(ask(null).ok).toBe(true);
    expect(ask("null")).toMatchObject({ ok: false, refusal: { reason: "originBusy" } });
    expect(q.list().map((r) => r.origin)).toEqual([
      "https://a.example",
      "https://b.example",
      "null",
      null,
    ]);
    // The host heard of the four put in front of the user, not of the refused ones.
    expect(told.map((r) => r.origin)).toEqual(q.list().map((r) => r.origin));
    // Once the first is answered, its origin may ask again.
    q.answer(pending?.id as string, { answer: "refused" });
    expect(ask("https://a.example").ok).toBe(true);
  });

  it("limits each origin's rate (3 at once, then one every 5 s), other origins unaffected", () => {
    const { q, ask, clock } = queue();
    // Ask and withdraw in a loop: each request that reached the user cost a token.
    for (let i = 0; i < 3; i++) {
      const r = ask("https://flood.example");
      if (!r.ok) throw new Error(`refused at ${i}`);
      r.cancel();
    }
    expect(ask("https://flood.example")).toEqual({
      ok: false,
      refusal: { reason: "rateLimited", retryAfterMs: 5000 },
    });
    expect(ask("https://other.example").ok).toBe(true);
    clock.now += 2000;
    expect(ask("https://flood.example")).toEqual({
      ok: false,
      refusal: { reason: "rateLimited", retryAfterMs: 3000 },
    });
    clock.now += 3000;
    const again = ask("https://flood.example");
    expect(again.ok).toBe(true);
    if (again.ok) again.cancel();
    expect(ask("https://flood.example")).toMatchObject({ ok: false });
    // Only the rate-limited origin's requests were refused; one of each origin reached the list.
    expect(q.list().map((r) => r.origin)).toEqual(["https://other.example"]);
  });

  it("a request refused because its origin has one waiting costs no token", () => {
    const { ask } = queue({ burst: 1 });
    const held = ask("https://a.example");
    for (let i = 0; i < 20; i++) {
      expect(ask("https://a.example")).toMatchObject({ refusal: { reason: "originBusy" } });
    }
    if (!held.ok) throw new Error("refused");
    held.cancel();
    // The single token was spent by the held request: the next waits for the refill.
    expect(ask("https://a.example")).toMatchObject({ refusal: { reason: "rateLimited" } });
  });

  it("bounds all waiting requests: the eleventh origin is refused while ten wait", () => {
    const { q, ask } = queue({ maxPending: 10 });
    for (let i = 0; i < 10; i++) expect(ask(`https://d${i}.example`).ok).toBe(true);
    expect(ask("https://late.example")).toEqual({
      ok: false,
      refusal: { reason: "full", max: 10 },
    });
    q.answer(q.list()[0]?.id as string, { answer: "refused" });
    expect(ask("https://late.example").ok).toBe(true);
  });

  it("a withdrawn request is remembered as withdrawn: an answer to it is refused and reaches no other request", async () => {
    const { q, ask } = queue();
    const a = ask("https://a.example");
    const b = ask("https://b.example");
    if (!a.ok || !b.ok) throw new Error("refused");
    const [shown, next] = q.list();
    a.cancel();
    expect(await a.answer).toEqual({ status: 200, json: { closed: true } });
    expect(q.list()).toEqual([next]);
    expect(q.ended()).toEqual([{ id: shown?.id, reason: "withdrawn", endedAt: 1_000_000 }]);
    expect(codeOf(() => q.answer(shown?.id as string, { answer: "signed", sigs: [] }))).toBe(
      "APP_SIGN_REQUEST_WITHDRAWN",
    );
    // The next request still waits, unanswered.
    expect(q.list()).toEqual([next]);
    q.answer(next?.id as string, { answer: "signed", sigs: [] });
    expect(await b.answer).toEqual({ status: 200, json: { signed: true } });
    expect(codeOf(() => q.answer(next?.id as string, { answer: "refused" }))).toBe(
      "APP_SIGN_REQUEST_GONE",
    );
    expect(codeOf(() => q.answer("no-such-id", { answer: "refused" }))).toBe(
      "APP_SIGN_REQUEST_GONE",
    );
    expect(q.ended().map((e) => e.reason)).toEqual(["withdrawn", "signed"]);
  });

  it("remembers only the last 32 ended requests", () => {
    const { q, ask, clock } = queue({ burst: 100 });
    for (let i = 0; i < 40; i++) {
      clock.now += 1;
      const r = ask(`https://e${i}.example`);
      if (r.ok) r.cancel();
    }
    const ended = q.ended();
    expect(ended).toHaveLength(32);
    expect(ended[0]?.endedAt).toBe(1_000_009);
  });
});

describe("[unit] the token bucket per origin", () => {
  it("refills one token per period up to the burst, and forgets full buckets", () => {
    const limit = new OriginRateLimit({ burst: 2, everyMs: 1000 });
    expect([limit.take("a", 0), limit.take("a", 0), limit.take("a", 0)]).toEqual([0, 0, 1000]);
    expect(limit.take("a", 400)).toBe(600);
    expect(limit.take("a", 1000)).toBe(0);
    // Idle long enough, the bucket holds the burst again, never more.
    expect([limit.take("a", 60_000), limit.take("a", 60_000), limit.take("a", 60_000)]).toEqual([
      0, 0, 1000,
    ]);
    for (let i = 0; i < 100; i++) limit.take(`o${i}`, 100_000);
    // Past 64 origins, those whose buckets refilled are dropped.
    limit.take("late", 200_000);
    expect(limit.size).toBeLessThanOrEqual(2);
    expect(() => new OriginRateLimit({ burst: 0, everyMs: 1 })).toThrow(RangeError);
  });
});
