/**
 * The app's addresses (a contract: `#/node`, `#/wallet`, `#/wallet/account/<name>`,
 * `#/backup`, `#/explorer`, `#/explorer/chain/<c>`, `#/explorer/chain/<c>/block/<hash>`,
 * `#/explorer/tx/<requestKey>`, `#/explorer/account/<name>`, `#/explorer/module/<name>`,
 * `#/explorer/search/<text>`) in
 * headless Chromium against the fake node: each renders its page with its h1 and its
 * parameters, links carry parameters, back and forward work, unknown addresses get the
 * not-found page; the layout holds at 400 px without sideways scrolling, and the dark
 * theme follows the system. Screenshots: test/e2e/artifacts/.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { launchChromium, saveScreenshot } from "./support/browser.ts";
import { type FakeNode, fakeHash, startFakeNode } from "./support/fakeNode.ts";
import { layoutProblems } from "./support/narrowLayout.ts";

let browser: Browser;
let node: FakeNode;
let page: Page;
let problems: string[];

const KEY = "ab".repeat(32);
const REQUEST_KEY = fakeHash(7, 7);

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  node = await startFakeNode({ rendererDir: inject("rendererDir"), startHeight: 100 });
  page = await browser.newPage();
  problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
});
afterEach(async () => {
  await page?.close();
  await node?.close();
});

function h1(name: string) {
  return page.getByRole("heading", { level: 1, name, exact: true });
}

async function open(hash: string, heading: string): Promise<void> {
  await page.goto(`${node.appUrl}${hash}`);
  await h1(heading).waitFor();
}

function hashOfUrl(): string {
  return new URL(page.url()).hash;
}

/** Every address of the contract, with its heading and a parameter it must show. */
const addresses = [
  { hash: "#/node", h1: "Node", shows: null },
  { hash: "#/wallet", h1: "Wallet", shows: null },
  { hash: `#/wallet/account/k:${KEY}`, h1: "Wallet account", shows: `k:${KEY}` },
  { hash: "#/wallet/dapp", h1: "Signing request", shows: "No dapp is waiting" },
  { hash: "#/backup", h1: "Backup", shows: null },
  { hash: "#/explorer", h1: "Braid", shows: null },
  { hash: "#/explorer/chain/3", h1: "Chain 3", shows: null },
  {
    hash: `#/explorer/chain/3/block/${fakeHash(3, 99)}`,
    h1: "Block",
    shows: fakeHash(3, 99),
  },
  { hash: `#/explorer/tx/${REQUEST_KEY}`, h1: "Transaction", shows: REQUEST_KEY },
  { hash: "#/explorer/account/alice", h1: "Account", shows: "alice" },
  { hash: "#/explorer/module/free.my-module", h1: "Module", shows: "free.my-module" },
  { hash: "#/explorer/nowhere", h1: "Page not found", shows: "#/explorer/nowhere" },
] as const;

describe("[e2e] addresses and navigation", () => {
  it("renders every address of the contract with its heading, words and parameters", async () => {
    for (const a of addresses) {
      await open(a.hash, a.h1);
      expect(await page.title()).toBe(`${a.h1} · Weft`);
      const text = (await page.locator("main").textContent()) ?? "";
      // An explanation in words, not just a heading.
      expect(text.length).toBeGreaterThan(a.h1.length + 40);
      // The parameter shows once the page's data has loaded (a block's page reads the node first).
      const shows = a.shows;
      if (shows !== null) {
        await expect
          .poll(async () => (await page.locator("main").textContent()) ?? "")
          .toContain(shows);
      }
    }
    // The start address leads to the Node page.
    await page.goto(node.appUrl);
    await h1("Node").waitFor();
    expect(hashOfUrl()).toBe("#/node");
    expect(problems).toEqual([]);
  });

  it("follows links with parameters and goes back and forward through them", async () => {
    await open("#/explorer", "Braid");
    await page.getByRole("link", { name: "Chain 3", exact: true }).click();
    await h1("Chain 3").waitFor();
    expect(hashOfUrl()).toBe("#/explorer/chain/3");
    expect(await page.getByTestId("chain-height").textContent()).toBe("100");
    // The live cut moves the chain page too.
    await expect.poll(() => node.streamCount()).toBeGreaterThan(0);
    node.pushHeader(3, 101);
    await expect.poll(() => page.getByTestId("chain-height").textContent()).toBe("101");
    await page
      .getByRole("main")
      .getByRole("link", { name: /^CNHrp|…/ })
      .first()
      .click();
    await h1("Block").waitFor();
    expect(hashOfUrl()).toBe(`#/explorer/chain/3/block/${fakeHash(3, 101)}`);
    expect(await page.getByTestId("block-hash").textContent()).toBe(fakeHash(3, 101));
    await saveScreenshot(page, "explorer-block");

    await page.goBack();
    await h1("Chain 3").waitFor();
    await page.goBack();
    await h1("Braid").waitFor();
    expect(await page.getByRole("link", { name: "Explorer" }).getAttribute("aria-current")).toBe(
      "page",
    );
    await page.goForward();
    await h1("Chain 3").waitFor();
    await page.goForward();
    await h1("Block").waitFor();
    expect(await page.getByTestId("block-chain").textContent()).toBe("Chain 3");
    // Back to the chain through the block page's own link.
    await page.getByRole("link", { name: "Chain 3" }).click();
    await h1("Chain 3").waitFor();
    // Every page shares the one header stream.
    expect(node.streamCount()).toBe(1);
    expect(problems).toEqual([]);
  });

  it("searches from the one search box (/ focuses it) and says when nothing is found", async () => {
    await open("#/explorer", "Braid");
    await page.locator("main").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("/");
    const search = page.getByRole("searchbox", { name: "Search" });
    await expect
      .poll(() => page.evaluate<string>("document.activeElement?.getAttribute('type') ?? ''"))
      .toBe("search");
    await page.keyboard.type("ab");
    await page.keyboard.press("Enter");
    await h1("Search").waitFor();
    expect(hashOfUrl()).toBe("#/explorer/search/ab");
    await expect
      .poll(() => page.getByTestId("nothing-found").textContent())
      .toContain("Nothing found for “ab”");
    await saveScreenshot(page, "explorer-nothing-found");
    // One exact account opens at once, replacing the search in the history.
    await search.fill(`k:${KEY}`);
    await search.press("Enter");
    await h1("Account").waitFor();
    expect(await page.getByTestId("account-name").textContent()).toBe(`k:${KEY}`);
    await page.goBack();
    await h1("Search").waitFor();
    expect(hashOfUrl()).toBe("#/explorer/search/ab");

    await page.getByRole("searchbox", { name: "Search" }).fill(REQUEST_KEY);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await h1("Transaction").waitFor();
    expect(hashOfUrl()).toBe(`#/explorer/tx/${REQUEST_KEY}`);
    expect(await page.getByTestId("request-key").textContent()).toBe(REQUEST_KEY);
    await expect.poll(() => page.getByTestId("tx-status").textContent()).toContain("Pending");

    await page.getByRole("searchbox", { name: "Search" }).fill("coin");
    await page.keyboard.press("Enter");
    await h1("Module").waitFor();
    expect(hashOfUrl()).toBe("#/explorer/module/coin");
    // "/" typed into the search box is just a character.
    await page.getByRole("searchbox", { name: "Search" }).fill("free");
    await page.keyboard.press("/");
    expect(await page.getByRole("searchbox", { name: "Search" }).inputValue()).toBe("free/");
    expect(problems).toEqual([]);
  });

  it("copies a block hash to the clipboard and says so", async () => {
    const context = await browser.newContext({
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const own = await context.newPage();
    try {
      const hash = fakeHash(5, 42);
      await own.goto(`${node.appUrl}#/explorer/chain/5/block/${hash}`);
      await own.getByRole("heading", { level: 1, name: "Block" }).waitFor();
      await own.getByRole("button", { name: "Copy block hash" }).click();
      await own.getByText("Copied the block hash.").waitFor();
      expect(await own.evaluate<string>("navigator.clipboard.readText()")).toBe(hash);
    } finally {
      await context.close();
    }
  });

  it("says what is wrong with a bad parameter instead of failing", async () => {
    await open("#/explorer/chain/42", "No such chain");
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toContain("This network has chains 0 to 19; there is no chain 42.");
    await open("#/explorer/chain/1/block/not-a-hash", "Block");
    expect(await page.getByRole("alert").textContent()).toContain("A block hash has 43 characters");
    await open("#/wallet/account/ab", "Wallet account");
    expect(await page.getByRole("alert").textContent()).toContain("at least 3 characters");
    await open("#/wallet/account", "Page not found");
    expect(problems).toEqual([]);
  });
});

/** Whether the page scrolls sideways. */
function overflowsSideways(): Promise<boolean> {
  return page.evaluate<boolean>(
    "document.documentElement.scrollWidth > document.documentElement.clientWidth",
  );
}

describe("[e2e] layout and theme", () => {
  it("holds at 400 px: no sideways scrolling, no gap under the navigation", async () => {
    await page.setViewportSize({ width: 400, height: 860 });
    for (const a of addresses) {
      await open(a.hash, a.h1);
      if (a.hash === "#/node") await page.getByTestId("height-19").waitFor();
      expect(await overflowsSideways(), a.hash).toBe(false);
      // And the rest of the layout rules (support/narrowLayout.ts), as on a real node's pages.
      expect(await layoutProblems(page), a.hash).toEqual([]);
      const gap = await page.evaluate<number>(
        `document.querySelector("main").getBoundingClientRect().top -
         document.querySelector("nav").getBoundingClientRect().bottom`,
      );
      expect(gap, a.hash).toBe(0);
    }
    await open("#/node", "Node");
    await page.getByTestId("height-19").waitFor();
    await saveScreenshot(page, "narrow-node");
    await open("#/explorer", "Braid");
    await page.getByRole("link", { name: "Chain 19", exact: true }).waitFor();
    await page.getByTestId("braid").waitFor();
    await saveScreenshot(page, "narrow-explorer");
    await open(`#/explorer/chain/3/block/${fakeHash(3, 99)}`, "Block");
    await saveScreenshot(page, "narrow-block");
    // A node that stops answering: long URLs in the messages wrap inside their cards.
    await open("#/node", "Node");
    await node.close();
    await expect
      .poll(() => page.getByTestId("health").textContent(), { timeout: 15_000 })
      .toContain("The node does not answer.");
    expect(await overflowsSideways()).toBe(false);
    await saveScreenshot(page, "narrow-node-unreachable");
  });

  it("is laid out for a wide window", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await open("#/node", "Node");
    await page.getByTestId("height-19").waitFor();
    expect(await overflowsSideways()).toBe(false);
    // Navigation beside the page, not above it.
    const side = await page.evaluate<boolean>(
      `document.querySelector("nav").getBoundingClientRect().right <=
       document.querySelector("main").getBoundingClientRect().left`,
    );
    expect(side).toBe(true);
    await saveScreenshot(page, "wide-node-light");
    await open("#/explorer", "Braid");
    await page.getByTestId("braid").waitFor();
    await saveScreenshot(page, "wide-explorer-light");
    expect(problems).toEqual([]);
  });

  it("follows the system's dark theme", async () => {
    const background = () =>
      page.evaluate<string>("getComputedStyle(document.documentElement).backgroundColor");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });
    await open("#/node", "Node");
    await page.getByTestId("height-19").waitFor();
    const light = await background();
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(background).not.toBe(light);
    const [r, g, b] = ((await background()).match(/\d+/g) ?? []).map(Number);
    expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(150);
    await saveScreenshot(page, "wide-node-dark");
    await page.setViewportSize({ width: 400, height: 860 });
    await saveScreenshot(page, "narrow-node-dark");
    await open("#/explorer", "Braid");
    await page.getByTestId("braid").waitFor();
    await saveScreenshot(page, "narrow-explorer-dark");
    expect(problems).toEqual([]);
  });
});
