/**
 * The app token: a secret made for each launch of the node that every
 * `/app/api/*` request must carry (docs/desktop.md §3.3), so that neither a
 * web page nor another program reaches the UI's private routes by guessing.
 *
 * It reaches a client in one of three ways:
 * - the header `X-Weft-App-Token: <token>`: the desktop shell adds it to its
 *   window's requests; `curl` users read the token from the file
 *   `<dataDir>/<network>/app-token` (mode 0600, written while the node runs);
 * - the cookie `weft-app-token-<port>` (HttpOnly, SameSite=Strict,
 *   Path=/app/), set only in exchange for a one-time code (appCodes.ts):
 *   `/app/?code=…`, the address the node's starter prints and `weft app-url`
 *   makes. Loading `/app/` with nothing in hand hands out nothing. A client
 *   on another computer gets it only when the node runs with `--app-remote`.
 *   The desktop turns the exchange off: its window has the header. The port
 *   is part of the name because cookies ignore ports, and two nodes on one
 *   computer must not overwrite each other's.
 * @module
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { AppCodes } from "./appCodes.ts";
import { parseHostHeader } from "./hostCheck.ts";

export const APP_TOKEN_HEADER = "x-weft-app-token";
/** `dataDir/<network>/app-token`: the token while the node runs (0600), for `curl` and `weft app-url`. */
export const APP_TOKEN_FILE = "app-token";
/** `dataDir/<network>/app-address`: where this computer reaches the node (0600), for `weft app-url`. */
export const APP_ADDRESS_FILE = "app-address";
export const APP_TOKEN_COOKIE_PREFIX = "weft-app-token-";

export type AppToken = {
  /** The secret: 43 characters of base64url (32 random bytes). */
  readonly value: string;
  /**
   * Whether `/app/?code=…` exchanges a one-time code for the cookie (browsers on a
   * headless node); the desktop: false.
   */
  readonly cookieByCode: boolean;
  /**
   * Whether clients on other computers may use the app with the token (`--app-remote`):
   * exchange a code, and pass the guard of `/app/api/*` (appApi.ts).
   */
  readonly remote: boolean;
  /** The one-time codes not yet used. */
  readonly codes: AppCodes;
};

/** A fresh token (32 random bytes, base64url). */
export function newAppToken(): string {
  return randomBytes(32).toString("base64url");
}

/** A launch's token: `value` (default a fresh one), codes on, this computer only, by default. */
export function createAppToken(
  options: { value?: string | undefined; cookieByCode?: boolean; remote?: boolean } = {},
): AppToken {
  return {
    value: options.value ?? newAppToken(),
    cookieByCode: options.cookieByCode ?? true,
    remote: options.remote ?? false,
    codes: new AppCodes(),
  };
}

/** The port a request came in on (its Host's port for `inject()`, which has no socket port). */
function requestPort(request: FastifyRequest): number {
  return request.raw.socket?.localPort ?? parseHostHeader(request.headers.host ?? "")?.port ?? 80;
}

export function appTokenCookieName(request: FastifyRequest): string {
  return `${APP_TOKEN_COOKIE_PREFIX}${requestPort(request)}`;
}

/**
 * The `Set-Cookie` value that hands the token to the browser that sent `request`: for the
 * page and its API (`Path=/app/`), never to scripts (HttpOnly) nor with requests other sites
 * start (SameSite=Strict).
 */
export function appTokenCookie(request: FastifyRequest, token: AppToken): string {
  return `${appTokenCookieName(request)}=${token.value}; Path=/app/; HttpOnly; SameSite=Strict`;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the request carries the token, in the header or the cookie. */
export function carriesAppToken(request: FastifyRequest, token: AppToken): boolean {
  const header = request.headers[APP_TOKEN_HEADER];
  if (typeof header === "string" && sameSecret(header, token.value)) return true;
  const cookie = cookieValue(request.headers.cookie, appTokenCookieName(request));
  return cookie !== undefined && sameSecret(cookie, token.value);
}
