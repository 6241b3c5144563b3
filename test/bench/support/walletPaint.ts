/**
 * The wallet page's first paint after unlock, in headless Chromium (Debian's, through
 * playwright-core) against a real node serving the built UI: the page is loaded locked, the
 * password typed, and the page itself times from pressing Unlock (a click inside the page,
 * so no round trip of the driver is counted) to the frame that shows
 * - `home`: the wallet home (the accounts' balance table), and
 * - `balances`: every balance of every account on every chain (no cell still "…").
 * A frame counts as painted when a task queued from its animation frame callback runs, i.e.
 * after the browser rendered it. The unlock itself (scrypt in the vault worker) is inside
 * both times. Each round reloads the page: a cold start of the worker and the query cache.
 */
import type { Browser, Page } from "playwright-core";
import type { WeftNode } from "../../../src-node/node.ts";
import { launchChromium } from "../../e2e/support/browser.ts";

export type PaintTimes = { readonly home: number; readonly balances: number };

/** Runs in the page: resolves with the two times (ms) once both frames are painted. */
function measureScript(accounts: readonly string[], chains: readonly number[]): string {
  return `new Promise((resolve, reject) => {
    const accounts = ${JSON.stringify(accounts)};
    const chains = ${JSON.stringify(chains)};
    const cell = (a, c) => document.querySelector('[data-testid="balance-' + a + '-' + c + '"]');
    const homeShown = () => cell(accounts[0], chains[0]) !== null;
    const allRead = () =>
      accounts.every((a) => chains.every((c) => { const e = cell(a, c); return e !== null && e.textContent !== "…"; }));
    const painted = () =>
      new Promise((done) => requestAnimationFrame(() => setTimeout(() => done(performance.now()), 0)));
    const button = [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Unlock");
    if (button === undefined) return reject(new Error("no Unlock button"));
    const times = {};
    let stage = 0;
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error("no paint within 120 s (stage " + stage + ")")); }, 120000);
    const check = () => {
      if (stage === 0 && homeShown()) {
        stage = 1;
        painted().then((t) => { times.home = t - t0; if (times.balances !== undefined) finish(); });
      }
      if (stage === 1 && allRead()) {
        stage = 2;
        observer.disconnect();
        painted().then((t) => { times.balances = t - t0; if (times.home !== undefined) finish(); });
      }
    };
    const finish = () => { clearTimeout(timer); resolve(times); };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    const t0 = performance.now();
    button.click();
  })`;
}

async function openLocked(page: Page, url: string, first: boolean): Promise<void> {
  if (first) await page.goto(url);
  else await page.reload();
  await page.getByRole("button", { name: "Unlock" }).waitFor({ timeout: 60_000 });
}

/**
 * `rounds` cold unlocks of the wallet page of `node` (whose keystore holds `accounts`, sealed
 * with `password`); the times of each round.
 */
export async function measureWalletPaint(
  node: WeftNode,
  password: string,
  accounts: readonly string[],
  chains: readonly number[],
  rounds: number,
): Promise<PaintTimes[]> {
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    // The one-time address, as the node's starter prints it: the browser gets the app's cookie.
    await page.goto(node.appCodeUrl());
    const url = `${node.appUrl}#/wallet`;
    const out: PaintTimes[] = [];
    for (let i = 0; i < rounds; i++) {
      await openLocked(page, url, i === 0);
      await page.getByLabel("Password", { exact: true }).fill(password);
      out.push(await page.evaluate<PaintTimes>(measureScript(accounts, chains)));
    }
    return out;
  } finally {
    await browser?.close();
  }
}
