/**
 * The app's cookie for a browser context, as a user gets it (docs/node.md "The app token"):
 * the node's one-time address `…/app/?code=…` is opened (here with `fetch`, without loading
 * the app), and the cookie its 303 sets goes into the context, so that the test's own
 * `page.goto(appUrl)` opens the app and not the page that asks for the address.
 * test/e2e/crossOrigin.e2e.ts opens such an address in the browser itself.
 */
import type { BrowserContext } from "playwright-core";

/** What a node offers: a fresh one-time address (`WeftNode.appCodeUrl`). */
export type CodeSource = { appCodeUrl(): string };

/**
 * Exchanges the one-time address `codeUrl` for the app's cookie and gives it to `context`.
 * @throws when the node does not answer the exchange with its 303 and cookie.
 */
export async function grantAppCookie(context: BrowserContext, codeUrl: string): Promise<void> {
  const r = await fetch(codeUrl, { redirect: "manual" });
  const set = r.headers.get("set-cookie");
  if (r.status !== 303 || set === null) {
    throw new Error(`${codeUrl}: expected 303 with the app's cookie, got ${r.status}`);
  }
  const pair = set.split(";")[0] ?? "";
  const eq = pair.indexOf("=");
  const url = new URL(codeUrl);
  await context.addCookies([
    {
      name: pair.slice(0, eq),
      value: pair.slice(eq + 1),
      domain: url.hostname,
      path: "/app/",
      httpOnly: true,
      sameSite: "Strict",
    },
  ]);
}

/** {@link grantAppCookie} for each node, with a new code of its own. */
export async function grantAppCookies(
  context: BrowserContext,
  nodes: readonly CodeSource[],
): Promise<void> {
  for (const n of nodes) await grantAppCookie(context, n.appCodeUrl());
}
