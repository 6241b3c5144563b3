/**
 * The page `/app/` shows to a browser that holds neither the app token's
 * cookie nor a one-time code that works (api/routes/appUiRoutes.ts): it says,
 * in words, where the address that opens the app is found, and hands out
 * nothing. Its look is the app's (the colours and type of
 * renderer/src/ui/tokens.css, light or dark as the system is), from its own
 * stylesheet `/app/locked.css`: the app's Content-Security-Policy allows no
 * inline style.
 * @module
 */

/** Why the page is shown. */
export type LockedReason =
  /** `/app/` without a code, on a node that hands out the cookie for one. */
  | "no-code"
  /** A code that is unknown, used already or expired. */
  | "code-refused"
  /** A client on another computer, on a node without `--app-remote`. */
  | "not-this-computer"
  /** A node whose host hands out no cookie at all (the desktop app's). */
  | "desktop";

export const LOCKED_PAGE_CSS_PATH = "/app/locked.css";

export type LockedPageInput = {
  readonly reason: LockedReason;
  /** The port the request came in on (the SSH tunnel's example). */
  readonly port: number;
  /** `weft app-url` with this node's options, shown only to this computer; else a generic one. */
  readonly appUrlCommand: string;
};

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const LEADS: Record<LockedReason, string> = {
  "no-code":
    "Weft opens from the address the node printed when it started: it ends in " +
    "<code>/app/?code=…</code>. The code in it lets this browser in once; after that the " +
    "browser remembers it until the node stops.",
  "code-refused":
    "The address you opened carries a code that no longer works: each code opens the app " +
    "once, and a code from <code>weft app-url</code> only for a few minutes. A node that " +
    "was stopped or restarted has forgotten its codes. Get a new address as below.",
  "not-this-computer":
    "This node opens the app only for the computer it runs on. This browser is on another " +
    "computer, so no address lets it in.",
  desktop:
    "This node belongs to the Weft desktop app, which opens the app in its own window. " +
    "Use the desktop app's window; nothing here opens it in a browser.",
};

/** The page's HTML (UTF-8). */
export function lockedPageHtml(input: LockedPageInput): string {
  const command = escapeHtml(input.appUrlCommand);
  const port = String(input.port);
  const where =
    input.reason === "desktop"
      ? ""
      : input.reason === "not-this-computer"
        ? `<h2>From another computer</h2>
<ul>
<li>Reach the node through an SSH tunnel, so that your browser is on the node's computer as
far as it knows: <code>ssh -N -L ${port}:127.0.0.1:${port} you@server</code>, then run
<code>weft app-url</code> on the server and open the address it prints here.</li>
<li>Or start the node with <code>--app-remote</code>, which lets other computers in with an
address from <code>weft app-url</code>. Read the risks in the node's documentation
(<code>docs/node.md</code>, "The app token") first: on a network you do not control, anyone
who sees the address or the traffic can drive the node.</li>
</ul>`
        : `<h2>Where to find the address</h2>
<ul>
<li>In the terminal where you started the node (<code>npm start -- --headless</code> or
<code>weft node</code>): the line <code>UI: http://127.0.0.1:${port}/app/?code=…</code>.</li>
<li>A new one, on the computer the node runs on: <code>${command}</code> prints a fresh
address that works once, within five minutes. From the Weft folder, without
<code>npm link</code>: <code>npx ${command}</code>. It reads the node's token file, which
only the owner of the node's data folder can read.</li>
</ul>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Weft: open the app from its address</title>
<link rel="stylesheet" href="${LOCKED_PAGE_CSS_PATH}">
</head>
<body>
<main>
<h1>Open Weft from its address</h1>
<p>${LEADS[input.reason]}</p>
${where}
<p class="note">Nothing on this page gives access to the node: only the address with its
code does, or the desktop app's window.</p>
</main>
</body>
</html>
`;
}

/** The page's stylesheet: the app's tokens (renderer/src/ui/tokens.css) for this one page. */
export const LOCKED_PAGE_CSS = `:root {
  color-scheme: light dark;
  --font-sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif;
  --font-mono: ui-monospace, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  --color-bg: #f4f5f7;
  --color-surface: #ffffff;
  --color-surface-sunken: #eef0f3;
  --color-text: #1a1d21;
  --color-text-muted: #59616d;
  --color-border: #d7dbe1;
}
@media (prefers-color-scheme: dark) {
  :root {
    --color-bg: #111316;
    --color-surface: #1b1e23;
    --color-surface-sunken: #15171b;
    --color-text: #e7e9ec;
    --color-text-muted: #a2aab5;
    --color-border: #343941;
  }
}
* { box-sizing: border-box; }
html {
  font-family: var(--font-sans);
  font-size: 1rem;
  line-height: 1.5;
  background: var(--color-bg);
  color: var(--color-text);
}
body { margin: 0; padding: 3rem 1rem; }
main {
  max-width: 40rem;
  margin: 0 auto;
  padding: 1.5rem 2rem;
  background: var(--color-surface);
  border: 1px solid var(--color-border);
  border-radius: 12px;
}
h1 { font-size: 1.75rem; line-height: 1.25; font-weight: 650; margin: 0 0 1rem; }
h2 { font-size: 1.125rem; line-height: 1.25; font-weight: 650; margin: 1.5rem 0 0.5rem; }
p, li { margin: 0 0 0.75rem; }
ul { padding-left: 1.25rem; }
code {
  font-family: var(--font-mono);
  font-size: 0.875em;
  overflow-wrap: anywhere;
  background: var(--color-surface-sunken);
  padding: 0 0.25rem;
  border-radius: 4px;
}
.note { color: var(--color-text-muted); font-size: 0.875rem; margin-top: 1.5rem; }
`;
