/**
 * The Content-Security-Policy header of everything the node serves under
 * `/app/` (docs/desktop.md §3.1, §6). The desktop shell defines the same
 * value as `rendererCspHeader` in electron/security/csp.ts; src-node never
 * imports electron/, so the value is written here too and a test
 * (test/api/appRoutes.test.ts) keeps the two equal.
 *
 * Everything comes from the node's own origin: no inline script or style,
 * no eval, no remote content, no plugins, no forms, no framing.
 * @module
 */

export const APP_CSP_HEADER = [
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
  "frame-ancestors 'none'",
].join("; ");
