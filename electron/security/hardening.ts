/**
 * Session and web-contents guards (Electron security checklist):
 * - every permission request and check is denied;
 * - requests leave only for the app's own origin (the node on loopback) or the main
 *   process's local `data:` pages: no remote content;
 * - app pages get the strict Content-Security-Policy header;
 * - navigation, redirects, new windows, `<webview>` and downloads are refused unless they
 *   stay on the app origin.
 *
 * The app origin is only known once the node listens, so it is read through a function;
 * before that it is null and nothing but local pages may load.
 * @module
 */
import { rendererCspHeader } from "./csp.ts";

/** Returns the origin of the app's pages (`http://127.0.0.1:PORT`), or null before start-up. */
export type AppOriginSource = () => string | null;

export type GuardLog = { warn(message: string, fields?: Record<string, unknown>): void };

/** True when `url` is on the app's origin (blob: URLs of that origin included). */
export function isAppUrl(url: string, appOrigin: string | null): boolean {
  if (appOrigin === null) return false;
  try {
    return new URL(url).origin === appOrigin;
  } catch {
    return false;
  }
}

/** True for requests the app's windows may make: the app origin and local data: pages. */
export function isAllowedRequest(url: string, appOrigin: string | null): boolean {
  return url.startsWith("data:") || url.startsWith("devtools:") || isAppUrl(url, appOrigin);
}

/** The response headers with the app's CSP set (replacing any other policy). */
export function withCspHeader(
  headers: Record<string, string[]> | undefined,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== "content-security-policy") out[name] = value;
  }
  out["Content-Security-Policy"] = [rendererCspHeader];
  return out;
}

type RequestDetails = { readonly url: string };
type HeadersDetails = {
  readonly url: string;
  readonly responseHeaders?: Record<string, string[]>;
};

/** The parts of an Electron `Session` the guards use. */
export type GuardableSession = {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void;
  readonly webRequest: {
    onBeforeRequest(
      listener: (
        details: RequestDetails,
        callback: (response: { cancel: boolean }) => void,
      ) => void,
    ): void;
    onHeadersReceived(
      listener: (
        details: HeadersDetails,
        callback: (response: { responseHeaders: Record<string, string[]> }) => void,
      ) => void,
    ): void;
  };
  on(event: "will-download", listener: (event: { preventDefault(): void }) => void): unknown;
};

/** Applies the session-wide guards. Call once, before any window loads. */
export function hardenSession(
  session: GuardableSession,
  appOrigin: AppOriginSource,
  log: GuardLog,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log.warn("Denied a permission request", { permission });
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAllowedRequest(details.url, appOrigin());
    if (!allowed) log.warn("Blocked a request off the app origin", { url: details.url });
    callback({ cancel: !allowed });
  });
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = details.responseHeaders ?? {};
    callback({
      responseHeaders: isAppUrl(details.url, appOrigin()) ? withCspHeader(headers) : headers,
    });
  });
  session.on("will-download", (event) => {
    log.warn("Blocked a download");
    event.preventDefault();
  });
}

type NavigationEvent = { readonly url: string; preventDefault(): void };

/** The parts of Electron's `WebContents` the guards use. */
export type GuardableContents = {
  on(event: "will-navigate", listener: (event: NavigationEvent) => void): unknown;
  on(event: "will-redirect", listener: (event: NavigationEvent) => void): unknown;
  on(event: "will-frame-navigate", listener: (event: NavigationEvent) => void): unknown;
  on(event: "will-attach-webview", listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { readonly url: string }) => { action: "deny" }): void;
};

/** Applies the per-window guards: navigation stays on the app origin; no new windows. */
export function hardenContents(
  contents: GuardableContents,
  appOrigin: AppOriginSource,
  log: GuardLog,
): void {
  const stayOnApp = (kind: string) => (event: NavigationEvent) => {
    if (isAppUrl(event.url, appOrigin())) return;
    log.warn(`Blocked ${kind} off the app origin`, { url: event.url });
    event.preventDefault();
  };
  contents.on("will-navigate", stayOnApp("a navigation"));
  contents.on("will-frame-navigate", stayOnApp("a frame navigation"));
  contents.on("will-redirect", stayOnApp("a redirect"));
  contents.on("will-attach-webview", (event) => {
    log.warn("Blocked a <webview>");
    event.preventDefault();
  });
  contents.setWindowOpenHandler((details) => {
    log.warn("Blocked a new window", { url: details.url });
    return { action: "deny" };
  });
}
