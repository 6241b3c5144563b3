/**
 * The app token in the desktop (docs/desktop.md §3.3): the shell makes the node's per-launch
 * secret itself, starts the node with it and with the page-load cookie turned off, and adds
 * it as `X-Weft-App-Token` to every request its windows send to the app's origin. So the
 * window reaches `/app/api/*`, while another program that loads `/app/` gets no token.
 *
 * The header name is the node's (`src-node/api/appToken.ts`), written out again here as the
 * CSP is; test/unit/electronSecurity.test.ts keeps the two equal.
 * @module
 */
import { randomBytes } from "node:crypto";
import { type AppOriginSource, isAppUrl } from "./hardening.ts";

export const APP_TOKEN_HEADER = "X-Weft-App-Token";

/** A fresh per-launch token: 32 random bytes, base64url. */
export function newDesktopAppToken(): string {
  return randomBytes(32).toString("base64url");
}

type SendHeadersDetails = {
  readonly url: string;
  readonly requestHeaders: Record<string, string>;
};

/** The part of an Electron `Session` this needs. */
export type TokenSession = {
  readonly webRequest: {
    onBeforeSendHeaders(
      listener: (
        details: SendHeadersDetails,
        callback: (response: { requestHeaders: Record<string, string> }) => void,
      ) => void,
    ): void;
  };
};

/** The request headers with the token added when `url` is on the app's origin (else unchanged). */
export function withAppToken(
  url: string,
  headers: Record<string, string>,
  appOrigin: string | null,
  token: string,
): Record<string, string> {
  if (!isAppUrl(url, appOrigin)) return headers;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== APP_TOKEN_HEADER.toLowerCase()) out[name] = value;
  }
  out[APP_TOKEN_HEADER] = token;
  return out;
}

/** Adds the token to every request of the session's windows to the app's origin. */
export function injectAppToken(session: TokenSession, appOrigin: AppOriginSource, token: string) {
  session.webRequest.onBeforeSendHeaders((details, callback) => {
    callback({
      requestHeaders: withAppToken(details.url, details.requestHeaders, appOrigin(), token),
    });
  });
}
