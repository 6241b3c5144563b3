/**
 * The set-up the e2e files against a REAL node share: one node (createNode on 127.0.0.1,
 * port 0, a temporary data folder, the UI built by globalSetup), one headless Chromium, and
 * for every test a fresh page in a context of its own (so axe may open a page beside it)
 * whose console errors and page errors are collected in `problems` (and `anotherPage()` beside it). Each data folder is
 * `data/` inside a temporary folder, so app backups (made beside the data folder) stay in it. `setUpRealNodePage`
 * registers the vitest hooks and returns live accessors; nodes started later (the same
 * folder again, or another node on an empty folder) are closed by the same hooks. Every page's
 * context holds the app's cookie of every node it may open (appCookie.ts: each node's
 * one-time address exchanged), as a user who opened the printed addresses would.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, inject } from "vitest";
import { createPactClient, type PactClient } from "../../../renderer/src/api/pactClient.ts";
import { type CreateNodeOptions, createNode, type WeftNode } from "../../../src-node/node.ts";
import { grantAppCookie, grantAppCookies } from "./appCookie.ts";
import { launchChromium, openWatchedPage } from "./browser.ts";
import { GUIDE_VIEWPORT } from "./guideScreenshot.ts";
import { nodeClientAt } from "./nodeClientAt.ts";

export type RealNodePageOptions = {
  /** The temporary data folder's name starts with `weft-e2e-<name>-`. */
  readonly name: string;
  /** Default test-singleton (ten chains, any nonce solves a block). */
  readonly network?: string;
  /** The node's mining options (default: off, one thread). */
  readonly mining?: CreateNodeOptions["mining"];
  /** Console errors the pages may log without a fault of the app (say, an expected 404). */
  readonly ignoreConsole?: (text: string) => boolean;
};

export type RealNodePage = {
  /** The node under test (the newest one after `restartNode`). */
  readonly node: WeftNode;
  readonly dataDir: string;
  /** The contract API of `node`, through the renderer's own client. */
  readonly pact: PactClient;
  readonly browser: Browser;
  /** This test's page. */
  readonly page: Page;
  /** Console and page errors of this test's pages. */
  readonly problems: string[];
  /** Closes the node and starts it again on the same data folder with the same options. */
  restartNode(): Promise<WeftNode>;
  /** Closes this test's page and opens another, watched the same way. */
  newPage(): Promise<Page>;
  /**
   * A second page open beside this test's (a second wallet, say), in a context of its own,
   * watched the same way; closed after the test.
   */
  anotherPage(): Promise<Page>;
  /**
   * Another node on an empty data folder of its own (same network, mining off), with
   * `extra` options (e.g. `p2p.peers`); closed after the file.
   */
  freshNode(extra?: Partial<CreateNodeOptions>): Promise<WeftNode>;
};

export function setUpRealNodePage(options: RealNodePageOptions): RealNodePage {
  const network = options.network ?? "test-singleton";
  let root: string | undefined;
  let dataDir: string | undefined;
  let node: WeftNode | undefined;
  let pact: PactClient | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let problems: string[] = [];
  const extraContexts: BrowserContext[] = [];
  const others: { node: WeftNode; root: string }[] = [];

  const need = <T>(x: T | undefined, what: string): T => {
    if (x === undefined) throw new Error(`${what} is not ready (used outside a test?)`);
    return x;
  };

  async function startNode(): Promise<WeftNode> {
    const n = await createNode({
      network,
      dataDir: need(dataDir, "the data folder"),
      host: "127.0.0.1",
      port: 0,
      rendererDir: inject("rendererDir"),
      mining: options.mining ?? { enabled: false, threads: 1 },
    });
    node = n;
    pact = createPactClient(nodeClientAt(n.baseUrl));
    return n;
  }

  /** A page in a new context of its own whose console and page errors go to `problems`. */
  async function watchedPage(): Promise<{ context: BrowserContext; page: Page }> {
    const opened = await openWatchedPage(
      need(browser, "the browser"),
      GUIDE_VIEWPORT,
      (text, kind) => {
        if (kind === "page" || !(options.ignoreConsole?.(text) ?? false)) problems.push(text);
      },
    );
    const open = [...(node?.listening === true ? [node] : []), ...others.map((o) => o.node)];
    await grantAppCookies(opened.context, open);
    return opened;
  }

  async function openPage(): Promise<Page> {
    const opened = await watchedPage();
    context = opened.context;
    page = opened.page;
    return opened.page;
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), `weft-e2e-${options.name}-`));
    dataDir = join(root, "data");
    await startNode();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    for (const o of others.splice(0)) {
      await o.node.close();
      rmSync(o.root, { recursive: true, force: true });
    }
    await node?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    problems = [];
    await openPage();
  });
  afterEach(async () => {
    for (const c of extraContexts.splice(0)) await c.close();
    await context?.close();
    context = undefined;
    page = undefined;
  });

  return {
    get node() {
      return need(node, "the node");
    },
    get dataDir() {
      return need(dataDir, "the data folder");
    },
    get pact() {
      return need(pact, "the node");
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
    async restartNode() {
      await need(node, "the node").close();
      return startNode();
    },
    async newPage() {
      await context?.close();
      return openPage();
    },
    async anotherPage() {
      const opened = await watchedPage();
      extraContexts.push(opened.context);
      return opened.page;
    },
    async freshNode(extra = {}) {
      const freshRoot = mkdtempSync(join(tmpdir(), `weft-e2e-${options.name}-fresh-`));
      const n = await createNode({
        network,
        dataDir: join(freshRoot, "data"),
        host: "127.0.0.1",
        port: 0,
        rendererDir: inject("rendererDir"),
        mining: { enabled: false, threads: 1 },
        ...extra,
      });
      others.push({ node: n, root: freshRoot });
      // The pages already open may open this node's app too.
      for (const c of [context, ...extraContexts]) {
        if (c !== undefined) await grantAppCookie(c, n.appCodeUrl());
      }
      return n;
    },
  };
}
