/**
 * The main process's own pages, shown before the node's UI exists: "starting" while the
 * node opens its databases, and the start-up failure page with the reason and the log
 * file's path. They are static HTML loaded as `data:` URLs, with no script and no preload
 * (they need no bridge), under their own strict policy.
 * @module
 */
import { localPageCsp } from "./security/csp.ts";

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const style = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; padding: 2.5rem; line-height: 1.5; }
  main { max-width: 44rem; }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  pre, code { font-family: ui-monospace, monospace; }
  pre { white-space: pre-wrap; word-break: break-word; padding: .75rem; border: 1px solid #8886; border-radius: 6px; }
  .code { opacity: .75; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(localPageCsp)}">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/** A `data:` URL for `html`. */
export function dataUrl(html: string): string {
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

/** The page shown while the node starts. */
export function startingPage(appName: string): string {
  return page(
    `${appName} is starting`,
    `<h1 role="status">Starting the ${escapeHtml(appName)} node…</h1>
<p>Opening the databases and the chains. This takes a few seconds.</p>`,
  );
}

export type StartupFailure = {
  readonly appName: string;
  /** The reason, as shown to the user (the error's message). */
  readonly reason: string;
  /** The error code, when the failure carried one. */
  readonly code: string | null;
  /** Where the full details were logged. */
  readonly logFile: string;
};

/** The page shown when the node could not start: the reason and the log file's path. */
export function startupFailurePage(failure: StartupFailure): string {
  const code =
    failure.code === null
      ? ""
      : `<p class="code">Error code: <code>${escapeHtml(failure.code)}</code></p>`;
  return page(
    `${failure.appName} could not start`,
    `<h1>The ${escapeHtml(failure.appName)} node could not start</h1>
<p role="alert">${escapeHtml(failure.reason)}</p>
${code}
<p>The details are in the log file:</p>
<pre>${escapeHtml(failure.logFile)}</pre>
<p>Fix the cause and start ${escapeHtml(failure.appName)} again.</p>`,
  );
}
