/**
 * The dapps' signing requests waiting for the user (docs/dapp-signing.md): each HTTP request
 * on the signing port is held open here until the wallet page answers it (signed or refused,
 * through `POST /app/api/wallet/sign-requests/:id`), its time runs out, its client goes away or
 * the node closes. The page learns of them by long-polling `GET /app/api/wallet/sign-requests`
 * (the list changes → a new `version`). Nothing secret passes through: requests carry what
 * the dapp sent, answers carry signatures.
 * @module
 */
import { randomBytes } from "node:crypto";
import { AppError, AppErrorCode } from "../errors.ts";

export type SignRequestKind = "sign" | "quicksign";

/** What the page sees of a waiting request. */
export type PendingSignRequest = {
  readonly id: string;
  readonly kind: SignRequestKind;
  /** The requesting page's `Origin` header; null for a program (no Origin). */
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
  | { readonly status: number; readonly json: unknown }
  | { readonly status: number; readonly text: string };

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
  /** Most requests waiting at once; more are refused (busy). */
  readonly maxPending: number;
  readonly now?: () => number;
  /** Told of every request that starts waiting (the desktop brings its window to the front). */
  readonly onRequest?: ((request: PendingSignRequest) => void) | undefined;
};

export class SignRequestQueue {
  readonly #options: SignRequestQueueOptions;
  readonly #pending = new Map<string, Entry>();
  readonly #waiters = new Set<() => void>();
  #version = 0;
  #closed = false;

  constructor(options: SignRequestQueueOptions) {
    this.#options = options;
  }

  /** Changes whenever a request arrives or ends. */
  get version(): number {
    return this.#version;
  }

  /** The waiting requests, oldest first. */
  list(): PendingSignRequest[] {
    return [...this.#pending.values()].map((e) => e.view);
  }

  /** Whether another request may wait now. */
  get full(): boolean {
    return this.#pending.size >= this.#options.maxPending;
  }

  /**
   * Holds a request until it is answered; `cancel` ends it early (its client went away; the
   * answer is then the closed one, written to nobody).
   * A closed queue answers at once with `rules.closed()`.
   */
  ask(
    kind: SignRequestKind,
    origin: string | null,
    body: unknown,
    rules: AnswerRules,
    text: string | null = null,
  ): { readonly answer: Promise<HttpAnswer>; readonly cancel: () => void } {
    if (this.#closed) {
      const cancel = () => {
        // Answered at once: nothing is waiting, so cancelling has nothing to do.
      };
      return { answer: Promise.resolve(rules.closed()), cancel };
    }
    const now = (this.#options.now ?? Date.now)();
    const id = randomBytes(12).toString("base64url");
    let settle: (a: HttpAnswer) => void = () => {
      // Replaced by the promise's resolve before anything can call it.
    };
    const answer = new Promise<HttpAnswer>((resolve) => {
      settle = resolve;
    });
    const seconds = Math.round(this.#options.timeoutMs / 1000);
    const timer = setTimeout(() => this.#end(id, rules.timedOut(seconds)), this.#options.timeoutMs);
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
    return { answer, cancel: () => this.#end(id, rules.closed()) };
  }

  /**
   * The page's answer to request `id`.
   * @throws {AppError} APP_SIGN_REQUEST_GONE (answered, timed out or abandoned meanwhile),
   *   APP_BAD_REQUEST (the answer does not fit the request; the request keeps waiting).
   */
  answer(id: string, answer: SignerAnswer): void {
    const entry = this.#pending.get(id);
    if (entry === undefined) {
      throw new AppError(
        { code: AppErrorCode.SignRequestGone, id },
        `signing request ${id} is no longer waiting: it was answered, timed out or its dapp went away`,
      );
    }
    const reply = answer.answer === "refused" ? entry.rules.refused() : entry.rules.signed(answer);
    this.#end(id, reply);
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
    for (const [id, entry] of [...this.#pending]) this.#end(id, entry.rules.closed());
    this.#changed();
  }

  /** Answers every waiting request as closed (the listener stops), the queue stays open. */
  endAll(): void {
    for (const [id, entry] of [...this.#pending]) this.#end(id, entry.rules.closed());
  }

  #end(id: string, reply: HttpAnswer): void {
    const entry = this.#pending.get(id);
    if (entry === undefined) return;
    this.#pending.delete(id);
    clearTimeout(entry.timer);
    entry.settle(reply);
    this.#changed();
  }

  #changed(): void {
    this.#version += 1;
    for (const w of [...this.#waiters]) w();
  }
}
