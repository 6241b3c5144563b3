/**
 * The dapps' signing requests waiting for the user (docs/dapp-signing.md): each HTTP request
 * on the signing port is held open here until the wallet page answers it (signed or refused,
 * through `POST /app/api/wallet/sign-requests/:id`), its time runs out, its client goes away
 * (the dapp withdrew it) or the node closes. The page learns of them by long-polling
 * `GET /app/api/wallet/sign-requests` (the list changes → a new `version`), and of how the
 * latest ones ended, so that it can say a request on screen was withdrawn rather than show
 * the next one in its place. Nothing secret passes through: requests carry what the dapp sent,
 * answers carry signatures.
 *
 * What a page can put in front of the user is bounded here, as MetaMask and Chainweaver bound
 * it: one waiting request per origin (a second is refused naming the first), a token bucket per
 * origin (originRateLimit.ts) and at most `maxPending` waiting in all.
 * @module
 */
import { randomBytes } from "node:crypto";
import { AppError, AppErrorCode } from "../errors.ts";
import { DEFAULT_ORIGIN_RATE, type OriginRate, OriginRateLimit } from "./originRateLimit.ts";

export type SignRequestKind = "sign" | "quicksign";

/** What the page sees of a waiting request. */
export type PendingSignRequest = {
  readonly id: string;
  readonly kind: SignRequestKind;
  /**
   * The requesting page's `Origin` header as sent: a web origin, `"null"` for a page whose
   * origin is hidden (a sandboxed frame, a `file:` page), or null without the header (a
   * program on this computer, not a browser page).
   */
  readonly origin: string | null;
  /** UNIX ms. */
  readonly receivedAt: number;
  /** UNIX ms: when it is answered with the API's timeout error. */
  readonly expiresAt: number;
  /** The request's body, checked (`/v1/sign`: as sent; `/v1/quicksign`: each command with its request key). */
  readonly body: unknown;
  /**
   * `/v1/sign`: the body's JSON text with every number as the dapp wrote it (`1.0`, large
   * integers), which the page builds the command from; null for a quicksign (its commands
   * are text already).
   */
  readonly text: string | null;
};

/** The page's answer (`POST /app/api/wallet/sign-requests/:id`), before its kind's checks. */
export type SignerAnswer =
  | { readonly answer: "refused" }
  | { readonly answer: "signed"; readonly cmd?: string; readonly sigs: readonly unknown[] };

/** What the signing port answers its client. */
export type HttpAnswer =
  | { readonly status: number; readonly json: unknown; readonly headers?: HttpHeaders }
  | { readonly status: number; readonly text: string; readonly headers?: HttpHeaders };

export type HttpHeaders = Readonly<Record<string, string>>;

/** Why a request was not put in front of the user (the signing port answers it at once). */
export type SignRequestRefusal =
  /** A request of the same origin waits already (`pending`): one at a time per origin. */
  | { readonly reason: "originBusy"; readonly pending: PendingSignRequest }
  /** The origin asked too often: its next request is welcome in `retryAfterMs`. */
  | { readonly reason: "rateLimited"; readonly retryAfterMs: number }
  /** `max` requests wait already, from all origins. */
  | { readonly reason: "full"; readonly max: number };

/** How a request stopped waiting. */
export type SignRequestEnd = "signed" | "refused" | "timedOut" | "withdrawn" | "closed";

/** A request that stopped waiting lately, as the page sees it. */
export type EndedSignRequest = {
  readonly id: string;
  readonly reason: SignRequestEnd;
  /** UNIX ms. */
  readonly endedAt: number;
};

/** How many ended requests the queue remembers (the page asks only about the one on screen). */
const ENDED_KEPT = 32;

/** How a request's kind answers each ending. */
export type AnswerRules = {
  /** @throws {AppError} APP_BAD_REQUEST when the page's answer does not fit the request. */
  signed(answer: Extract<SignerAnswer, { answer: "signed" }>): HttpAnswer;
  refused(): HttpAnswer;
  timedOut(seconds: number): HttpAnswer;
  closed(): HttpAnswer;
};

type Entry = {
  readonly view: PendingSignRequest;
  readonly rules: AnswerRules;
  readonly settle: (answer: HttpAnswer) => void;
  readonly timer: NodeJS.Timeout;
};

export type SignRequestQueueOptions = {
  /** How long a request waits for the user, ms. */
  readonly timeoutMs: number;
  /** Most requests waiting at once, from all origins; more are refused (busy). */
  readonly maxPending: number;
  /** Each origin's token bucket (default {@link DEFAULT_ORIGIN_RATE}). */
  readonly originRate?: OriginRate | undefined;
  readonly now?: () => number;
  /** Told of every request that starts waiting (the desktop brings its window to the front). */
  readonly onRequest?: ((request: PendingSignRequest) => void) | undefined;
};

export class SignRequestQueue {
  readonly #options: SignRequestQueueOptions;
  readonly #pending = new Map<string, Entry>();
  readonly #ended = new Map<string, EndedSignRequest>();
  readonly #rate: OriginRateLimit;
  readonly #waiters = new Set<() => void>();
  #version = 0;
  #closed = false;

  constructor(options: SignRequestQueueOptions) {
    this.#options = options;
    this.#rate = new OriginRateLimit(options.originRate ?? DEFAULT_ORIGIN_RATE);
  }

  /** Changes whenever a request arrives or ends. */
  get version(): number {
    return this.#version;
  }

  /** The waiting requests, oldest first. */
  list(): PendingSignRequest[] {
    return [...this.#pending.values()].map((e) => e.view);
  }

  /** The requests that stopped waiting lately (the last 32), oldest first. */
  ended(): EndedSignRequest[] {
    return [...this.#ended.values()];
  }

  /**
   * Holds a request until it is answered; `cancel` withdraws it (its client went away; the
   * answer is then the closed one, written to nobody). Refused at once, nothing shown, when
   * a request of the same origin waits, the origin asked too often, or the queue is full.
   * A closed queue answers at once with `rules.closed()`.
   */
  ask(
    kind: SignRequestKind,
    origin: string | null,
    body: unknown,
    rules: AnswerRules,
    text: string | null = null,
  ):
    | { readonly ok: true; readonly answer: Promise<HttpAnswer>; readonly cancel: () => void }
    | { readonly ok: false; readonly refusal: SignRequestRefusal } {
    if (this.#closed) {
      const cancel = () => {
        // Answered at once: nothing is waiting, so cancelling has nothing to do.
      };
      return { ok: true, answer: Promise.resolve(rules.closed()), cancel };
    }
    const now = (this.#options.now ?? Date.now)();
    // Checked in this order so that a page holding its one request learns that (409) without
    // spending its tokens; only requests that reach the user cost one.
    const same = [...this.#pending.values()].find((e) => e.view.origin === origin);
    if (same !== undefined)
      return { ok: false, refusal: { reason: "originBusy", pending: same.view } };
    if (this.#pending.size >= this.#options.maxPending) {
      return { ok: false, refusal: { reason: "full", max: this.#options.maxPending } };
    }
    // Absent and opaque origins each have one bucket: `"null"` is the header's own text.
    const wait = this.#rate.take(origin === null ? "\u0000program" : origin, now);
    if (wait > 0) return { ok: false, refusal: { reason: "rateLimited", retryAfterMs: wait } };
    const id = randomBytes(12).toString("base64url");
    let settle: (a: HttpAnswer) => void = () => {
      // Replaced by the promise's resolve before anything can call it.
    };
    const answer = new Promise<HttpAnswer>((resolve) => {
      settle = resolve;
    });
    const seconds = Math.round(this.#options.timeoutMs / 1000);
    const timer = setTimeout(
      () => this.#end(id, rules.timedOut(seconds), "timedOut"),
      this.#options.timeoutMs,
    );
    timer.unref();
    const view: PendingSignRequest = {
      id,
      kind,
      origin,
      receivedAt: now,
      expiresAt: now + this.#options.timeoutMs,
      body,
      text,
    };
    this.#pending.set(id, { view, rules, settle, timer });
    this.#changed();
    this.#options.onRequest?.(view);
    return { ok: true, answer, cancel: () => this.#end(id, rules.closed(), "withdrawn") };
  }

  /**
   * The page's answer to request `id`, the one it showed: an answer reaches that request's
   * dapp or nobody.
   * @throws {AppError} APP_SIGN_REQUEST_WITHDRAWN (its dapp withdrew it meanwhile),
   *   APP_SIGN_REQUEST_GONE (answered, timed out, the API stopped, or no such request),
   *   APP_BAD_REQUEST (the answer does not fit the request; the request keeps waiting).
   */
  answer(id: string, answer: SignerAnswer): void {
    const entry = this.#pending.get(id);
    if (entry === undefined) {
      const reason = this.#ended.get(id)?.reason ?? "unknown";
      if (reason === "withdrawn") {
        throw new AppError(
          { code: AppErrorCode.SignRequestWithdrawn, id },
          `signing request ${id} was withdrawn by its dapp (it closed its connection): nothing was sent`,
        );
      }
      const why = {
        signed: "it was signed already",
        refused: "it was refused already",
        timedOut: "it timed out",
        closed: "the signing API stopped",
        unknown: "there is no such request",
      }[reason];
      throw new AppError(
        { code: AppErrorCode.SignRequestGone, id, reason },
        `signing request ${id} is no longer waiting: ${why}`,
      );
    }
    const reply = answer.answer === "refused" ? entry.rules.refused() : entry.rules.signed(answer);
    this.#end(id, reply, answer.answer);
  }

  /**
   * Resolves once the version differs from `since`, after `ms`, or when `signal` aborts
   * (a long-poll's wait).
   */
  waitForChange(since: number, ms: number, signal?: AbortSignal): Promise<void> {
    if (since !== this.#version || this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.#waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** Answers every waiting request as closed and ends every long-poll. Idempotent. */
  close(): void {
    this.#closed = true;
    for (const [id, entry] of [...this.#pending]) this.#end(id, entry.rules.closed(), "closed");
    this.#changed();
  }

  /** Answers every waiting request as closed (the listener stops), the queue stays open. */
  endAll(): void {
    for (const [id, entry] of [...this.#pending]) this.#end(id, entry.rules.closed(), "closed");
  }

  #end(id: string, reply: HttpAnswer, reason: SignRequestEnd): void {
    const entry = this.#pending.get(id);
    if (entry === undefined) return;
    this.#pending.delete(id);
    clearTimeout(entry.timer);
    this.#ended.set(id, { id, reason, endedAt: (this.#options.now ?? Date.now)() });
    for (const old of this.#ended.keys()) {
      if (this.#ended.size <= ENDED_KEPT) break;
      this.#ended.delete(old);
    }
    entry.settle(reply);
    this.#changed();
  }

  #changed(): void {
    this.#version += 1;
    for (const w of [...this.#waiters]) w();
  }
}
