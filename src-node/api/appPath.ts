/**
 * The app's part of the URL space: `/app` and everything under `/app/` is
 * the node's own UI and its private routes (docs/desktop.md §3). It is
 * same-origin only (no CORS) and carries the UI's security headers.
 * @module
 */

/** The UI's address: `/app/`. */
export const APP_PREFIX = "/app/";

/** Whether a request URL (path and query) is `/app` or under `/app/`. */
export function isAppPath(url: string): boolean {
  // Every request asks this: no splitting unless the URL starts like the app's.
  if (!url.startsWith("/app")) return false;
  const rest = url.charCodeAt(4);
  return Number.isNaN(rest) || rest === 0x2f /* / */ || rest === 0x3f /* ? */;
}
