/**
 * The Content-Security-Policy of the app's pages. The renderer's index.html carries the same
 * policy in a `<meta>` tag (a test keeps the two equal); the main process also sets it as a
 * response header on every page of the app origin, and the node should send it with
 * everything it serves under `/app/` (docs/desktop.md).
 *
 * Everything comes from the app's own origin: no inline script or style, no eval, no remote
 * content, no plugins, no forms posting elsewhere.
 * @module
 */

/** The policy as written in the renderer's `<meta http-equiv="Content-Security-Policy">`. */
export const rendererCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join("; ");

/** The header form adds what a `<meta>` policy cannot express. */
export const rendererCspHeader = `${rendererCsp}; frame-ancestors 'none'`;

/**
 * The policy of the main process's own local pages (start-up and failure): static HTML
 * with an inline style sheet and no script at all.
 */
export const localPageCsp =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
