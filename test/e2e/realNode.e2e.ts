/**
 * The built UI in headless Chromium against the REAL node (createNode on 127.0.0.1, port 0,
 * network test-singleton, a temporary data folder): the app loads through /app, the pages
 * are reachable with the mouse and the keyboard, the Node page shows the node's network,
 * base URL, health and its ten chains, and the mining switch runs the built-in miner (one
 * worker thread; on test-singleton every nonce is valid) so that the chains grow, and stops
 * it again. Closing the node ends its worker threads and the UI's header stream.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { rendererCspHeader } from "../../electron/security/csp.ts";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { grantAppCookie } from "./support/appCookie.ts";
import { launchChromium, saveScreenshot } from "./support/browser.ts";
import { saveGuideScreenshot } from "./support/guideScreenshot.ts";

const KEY = "ef".repeat(32);
const CHAINS = 10;

let dataDir: string;
let node: WeftNode;
let browser: Browser;
let page: Page;
let problems: string[];
/** OS threads of this process once the node serves files (Linux), before any mining. */
let baselineThreads: number | undefined;

function osThreads(): number | undefined {
  try {
    const m = /^Threads:\s+(\d+)$/m.exec(readFileSync("/proc/self/status", "utf8"));
    return m?.[1] === undefined ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "weft-e2e-real-"));
  node = await createNode({
    network: "test-singleton",
    dataDir,
    host: "127.0.0.1",
    port: 0,
    rendererDir: inject("rendererDir"),
    mining: { enabled: false, threads: 1, account: `k:${KEY}` },
  });
  // Serving a file starts libuv's thread pool; count threads after that.
  await (await fetch(node.appUrl)).text();
  baselineThreads = osThreads();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await node?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  page = await browser.newPage();
  await grantAppCookie(page.context(), node.appCodeUrl());
  problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
});
afterEach(async () => {
  await page?.close();
});

async function openNodePage(): Promise<void> {
  await page.goto(node.appUrl);
  await page.getByRole("heading", { level: 1, name: "Node" }).waitFor();
  await page.getByTestId(`height-${CHAINS - 1}`).waitFor();
}

/** The heights of all chains as the UI shows them. */
async function shownHeights(): Promise<number[]> {
  const heights: number[] = [];
  for (let c = 0; c < CHAINS; c++) {
    heights.push(Number((await page.getByTestId(`height-${c}`).textContent())?.replace(/,/g, "")));
  }
  return heights;
}

async function shownCutHeight(): Promise<number> {
  return Number((await page.getByTestId("cut-height").textContent())?.replace(/,/g, ""));
}

describe("[e2e] renderer against the real node", () => {
  it("loads through /app and shows the network, base URL, health and all ten chains", async () => {
    // The one-time address as printed, without the slash: /app → /app/?code=… → /app/.
    const response = await page.goto(node.appCodeUrl().replace("/app/?", "/app?"));
    expect(page.url()).toBe(node.appUrl);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toBe(rendererCspHeader);
    await page.getByRole("heading", { level: 1, name: "Node" }).waitFor();
    await page.getByTestId(`height-${CHAINS - 1}`).waitFor();
    expect(await page.getByTestId("network").textContent()).toBe("test-singleton");
    expect(await page.getByTestId("base-url").textContent()).toBe(node.baseUrl);
    await expect
      .poll(() => page.getByTestId("health").textContent())
      .toBe("Healthy: Health check OK.");
    expect(await page.getByTestId("chain-count").textContent()).toBe(String(CHAINS));
    expect(await page.getByTestId("node-version").textContent()).toBe(
      JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version,
    );
    expect(await page.locator("table.chains tbody tr").count()).toBe(CHAINS);
    expect(await shownHeights()).toEqual(Array(CHAINS).fill(0));
    expect(await shownCutHeight()).toBe(cutHeight(node.blocks.cut()));
    await expect.poll(() => page.getByTestId("stream-state").textContent()).toContain("Live");
    expect(await page.getByTestId("mining-state").textContent()).toBe("Off");
    expect(await page.title()).toBe("Node · Weft");
    await saveScreenshot(page, "real-node-page");
    expect(problems).toEqual([]);
  });

  it("moves between Wallet, Explorer, Backup and Node with the keyboard and the mouse", async () => {
    await openNodePage();
    const pages = ["Wallet", "Explorer", "Backup", "Node"] as const;
    // Keyboard: Tab past the skip link to the navigation, Enter on each link.
    await page.keyboard.press("Tab");
    expect(await page.locator(":focus").textContent()).toBe("Skip to content");
    for (const [i, name] of pages.entries()) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link").first().focus();
      for (let k = 0; k < i; k++) await page.keyboard.press("Tab");
      expect(await page.locator(":focus").textContent()).toBe(name);
      await page.keyboard.press("Enter");
      // The Explorer opens on its braid.
      const heading = name === "Explorer" ? "Braid" : name;
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      await expect.poll(() => page.locator(":focus").getAttribute("id")).toBe("page-title");
      expect(await page.getByRole("link", { name }).getAttribute("aria-current")).toBe("page");
      expect(await page.title()).toBe(`${heading} · Weft`);
      expect(page.url()).toBe(`${node.appUrl}#/${name.toLowerCase()}`);
    }
    // Mouse, and the browser's history.
    await page.getByRole("link", { name: "Explorer" }).click();
    await page.getByRole("heading", { level: 1, name: "Braid" }).waitFor();
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: "Node" }).waitFor();
    await page.getByTestId(`height-${CHAINS - 1}`).waitFor();
    await page.getByRole("button", { name: "Skip to content" }).focus();
    await page.keyboard.press("Enter");
    expect(await page.locator(":focus").getAttribute("id")).toBe("main");
    expect(problems).toEqual([]);
  });

  it("turns the built-in miner on from the UI (the chains grow) and off again (they stop)", async () => {
    await openNodePage();
    await expect.poll(() => page.getByTestId("stream-state").textContent()).toContain("Live");
    const before = await shownHeights();
    const toggle = page.getByRole("switch", { name: "Mining" });
    expect(await toggle.isChecked()).toBe(false);
    // The switch's input is visually hidden inside its label: click what a person clicks.
    await page.locator("label.switch", { has: toggle }).click();
    // The node answers once its miner threads have started: slow on a busy machine.
    await expect
      .poll(() => page.getByTestId("mining-state").textContent(), { timeout: 15_000 })
      .toBe("On");
    expect(node.miner.status()).toMatchObject({ enabled: true, threads: 1 });

    // Every chain moves past where it was, live from the header stream.
    await expect
      .poll(async () => (await shownHeights()).every((h, c) => h > (before[c] ?? 0)), {
        timeout: 30_000,
      })
      .toBe(true);
    await expect
      .poll(async () => Number(await page.getByTestId("blocks-found").textContent()), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId("hash-rate").textContent(), { timeout: 10_000 })
      .not.toBe("0 H/s");
    await saveScreenshot(page, "real-node-mining");
    if (process.env.WEFT_GUIDE_SCREENSHOTS === "1") {
      // The guide's picture shows the last hour's charts drawn (polled every 10 s; the miner
      // samples its rate every 10 s): wait for both rather than picture them empty.
      await expect
        .poll(() => page.getByText("No samples yet").count(), { timeout: 60_000 })
        .toBe(0);
      await expect
        .poll(() => page.getByText(/^Blocks found per chain \([1-9]/).count(), { timeout: 30_000 })
        .toBe(1);
    }
    // The part of the page the guide's caption describes: the switch, rate and blocks found.
    await saveGuideScreenshot(page, "node-page-mining", {
      scrollTo: page.locator("label.switch", { has: toggle }),
    });

    // The log scrolls on its own, so the keyboard must reach it (axe:
    // scrollable-region-focusable): Tab from its level select lands on it.
    await page.getByTestId("log-lines").waitFor();
    await page.getByLabel("Level", { exact: true }).focus();
    const active = () =>
      page.evaluate<string | null>("document.activeElement?.getAttribute('data-testid') ?? null");
    for (let i = 0; i < 3 && (await active()) !== "log-lines"; i++)
      await page.keyboard.press("Tab");
    expect(await active()).toBe("log-lines");

    // Off with the keyboard.
    await toggle.focus();
    await page.keyboard.press("Space");
    await expect.poll(() => page.getByTestId("mining-state").textContent()).toBe("Off");
    expect(node.miner.status()).toMatchObject({ enabled: false, hashRate: 0 });
    const stopped = cutHeight(node.blocks.cut());
    expect(stopped).toBeGreaterThanOrEqual(CHAINS);
    // The UI catches up with the node, and then nothing moves any more.
    await expect.poll(() => shownCutHeight(), { timeout: 10_000 }).toBe(stopped);
    await new Promise((r) => setTimeout(r, 1500));
    expect(cutHeight(node.blocks.cut())).toBe(stopped);
    expect(await shownCutHeight()).toBe(stopped);
    expect(await page.getByTestId("hash-rate").textContent()).toBe("0 H/s");
    expect(problems).toEqual([]);
    // Its polls add up to more than the default 60 s when the machine is busy.
  }, 150_000);

  it("closing the node ends its worker threads and the UI's header stream", async () => {
    await openNodePage();
    await expect.poll(() => page.getByTestId("stream-state").textContent()).toContain("Live");
    await node.close();
    expect(node.server.server.listening).toBe(false);
    await expect
      .poll(() => page.getByTestId("stream-state").textContent(), { timeout: 15_000 })
      .toContain("reconnecting");
    if (baselineThreads !== undefined) {
      await expect
        .poll(() => osThreads(), { timeout: 10_000 })
        .toBeLessThanOrEqual(baselineThreads);
    }
  });
});
