/**
 * One-time codes that open the app in a browser (docs/node.md "The app
 * token"): the address the node prints, `http://127.0.0.1:PORT/app/?code=…`,
 * carries one; opening it exchanges the code for the app token's cookie
 * (api/routes/appUiRoutes.ts). A code works once, and only until it expires
 * (when it has a lifetime) or the node stops: it lives only in this node's
 * memory, so a restarted node knows none of the old ones, and the address
 * left in a browser's history or a terminal opens nothing a second time.
 *
 * Codes are made by whoever already holds the token: the process that
 * started the node (the headless launcher, `weft node`) and `weft app-url`,
 * which reads the token file only the data folder's owner can read and asks
 * the node for a code (`POST /app/api/app-code`).
 * @module
 */
import { createHash, randomBytes } from "node:crypto";

/** The query parameter of `/app/` that carries a code. */
export const APP_CODE_PARAM = "code";

/** How long a code made for `weft app-url` works: long enough to paste it into a browser. */
export const APP_CODE_LIFETIME_MS = 5 * 60_000;

/** Codes not yet used, at most: making one more forgets the oldest. */
const MAX_PENDING = 64;

export type IssuedCode = {
  /** 32 characters of base64url (24 random bytes). */
  readonly code: string;
  /** ms since the UNIX epoch; null: until it is used or the node stops. */
  readonly expiresAt: number | null;
};

/** Codes are kept by their SHA-256, so a lookup's timing says nothing about a code. */
function keyOf(code: string): string {
  return createHash("sha256").update(code).digest("hex");
}

export class AppCodes {
  readonly #now: () => number;
  /** Code key → expiry (ms since the epoch, or null), oldest first. */
  readonly #pending = new Map<string, number | null>();

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * A new code.
   * @param lifetimeMs how long it works; null: until it is used or the node stops.
   */
  issue(lifetimeMs: number | null): IssuedCode {
    this.#forgetExpired();
    while (this.#pending.size >= MAX_PENDING) {
      const oldest = this.#pending.keys().next().value;
      if (oldest === undefined) break;
      this.#pending.delete(oldest);
    }
    const code = randomBytes(24).toString("base64url");
    const expiresAt = lifetimeMs === null ? null : this.#now() + lifetimeMs;
    this.#pending.set(keyOf(code), expiresAt);
    return { code, expiresAt };
  }

  /** Uses `code` up: true when it was made here, not used before and not expired. */
  redeem(code: string): boolean {
    if (!/^[A-Za-z0-9_-]{32}$/.test(code)) return false;
    const key = keyOf(code);
    if (!this.#pending.has(key)) return false;
    const expiresAt = this.#pending.get(key) ?? null;
    this.#pending.delete(key);
    return expiresAt === null || this.#now() < expiresAt;
  }

  /** Codes not yet used nor expired. */
  get pending(): number {
    this.#forgetExpired();
    return this.#pending.size;
  }

  #forgetExpired(): void {
    const now = this.#now();
    for (const [key, expiresAt] of this.#pending) {
      if (expiresAt !== null && now >= expiresAt) this.#pending.delete(key);
    }
  }
}
