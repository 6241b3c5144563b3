/**
 * The app on its defaults for end-to-end tests (issue 36): `npm start -- --headless` as a real
 * process with no option but where its data goes (a temporary folder), a free port and the
 * UI built for this run: the development network, mine on demand, no reward account. One
 * process and one headless Chromium per file; every test gets a fresh page in a context of
 * its own (1280 × 720, the system's colour scheme), its console and page errors collected in
 * `problems`, holding the app's cookie: the first page's from the address the launcher printed,
 * later ones' from a new address made as `weft app-url` makes it (appCookie.ts).
 * `setUpDefaultApp` registers the vitest hooks and returns live accessors.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, inject } from "vitest";
import { createPactClient, type PactClient } from "../../../renderer/src/api/pactClient.ts";
import { requestAppUrl } from "../../../src-node/cli/appUrl.ts";
import { grantAppCookie } from "./appCookie.ts";
import { launchChromium, openWatchedPage } from "./browser.ts";
import { GUIDE_VIEWPORT } from "./guideScreenshot.ts";
import { compileLauncher, type HeadlessProcess, startHeadless } from "./headlessProcess.ts";
import { nodeClientAt } from "./nodeClientAt.ts";

export type DefaultApp = {
  /** The running app (`appUrl`, `baseUrl`, its output). */
  readonly app: HeadlessProcess;
  readonly dataDir: string;
  /** The contract API of the app's node, through the renderer's own client. */
  readonly pact: PactClient;
  readonly browser: Browser;
  /** This test's page. */
  readonly page: Page;
  /** Console and page errors of this test's pages. */
  readonly problems: string[];
};

export function setUpDefaultApp(name: string): DefaultApp {
  let root: string | undefined;
  let app: HeadlessProcess | undefined;
  /** The one-time address the launcher printed, until a page used it. */
  let codeUrl: string | undefined;
  let pact: PactClient | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let problems: string[] = [];
  const need = <T>(x: T | undefined, what: string): T => {
    if (x === undefined) throw new Error(`${what} is not ready (used outside a test?)`);
    return x;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), `weft-e2e-${name}-`));
    await compileLauncher();
    // No --network, no mining flag: what `npm start -- --headless` runs.
    app = await startHeadless([
      "--data-dir",
      join(root, "data"),
      "--port",
      "0",
      "--renderer-dir",
      inject("rendererDir"),
    ]);
    codeUrl = app.codeUrl;
    const baseUrl = app.baseUrl;
    pact = createPactClient(nodeClientAt(baseUrl));
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    if (app !== undefined) {
      await app.stop().catch(() => app?.kill());
    }
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    problems = [];
    const opened = await openWatchedPage(need(browser, "the browser"), GUIDE_VIEWPORT, (text) =>
      problems.push(text),
    );
    context = opened.context;
    page = opened.page;
    // The printed address works once: the first page's; later pages get new ones.
    const printed = codeUrl;
    codeUrl = undefined;
    const dataDir = join(need(root, "the data folder"), "data");
    const url = printed ?? (await requestAppUrl({ dataDir, network: "development" })).url;
    await grantAppCookie(opened.context, url);
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
    page = undefined;
  });

  return {
    get app() {
      return need(app, "the app");
    },
    get dataDir() {
      return join(need(root, "the data folder"), "data");
    },
    get pact() {
      return need(pact, "the app");
    },
    get browser() {
      return need(browser, "the browser");
    },
    get page() {
      return need(page, "the page");
    },
    get problems() {
      return problems;
    },
  };
}
