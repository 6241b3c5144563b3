/**
 * Accessibility scans (axe-core through @axe-core/playwright, WCAG 2.1 A and AA rules,
 * colour contrast included) of every page of the address contract, light on a wide window
 * and dark at 400 px, against the fake node; also, in both schemes, with a mining refusal
 * shown, the About dialog open and a field showing its error.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { launchChromium } from "./support/browser.ts";
import { type FakeNode, fakeHash, startFakeNode } from "./support/fakeNode.ts";

let browser: Browser;
let node: FakeNode;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  node = await startFakeNode({
    rendererDir: inject("rendererDir"),
    startHeight: 100,
    miningAccount: null,
  });
  // AxeBuilder needs a page of an explicit context.
  context = await browser.newContext();
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
  await node?.close();
});

const pages = [
  { hash: "#/node", h1: "Node", ready: "height-19" },
  { hash: "#/wallet", h1: "Wallet" },
  { hash: `#/wallet/account/k:${"ab".repeat(32)}`, h1: "Wallet account" },
  { hash: "#/wallet/dapp", h1: "Signing request" },
  { hash: "#/backup", h1: "Backup" },
  { hash: "#/explorer", h1: "Braid", ready: "braid" },
  { hash: "#/explorer/chain/3", h1: "Chain 3" },
  { hash: `#/explorer/chain/3/block/${fakeHash(3, 100)}`, h1: "Block" },
  { hash: `#/explorer/tx/${fakeHash(1, 1)}`, h1: "Transaction" },
  { hash: "#/explorer/account/alice", h1: "Account" },
  { hash: "#/explorer/module/coin", h1: "Module" },
  // The fake node finds an account for any text of three characters or more, and one exact
  // match leaves the search page at once: two characters find nothing, so the page stays.
  { hash: "#/explorer/search/ab", h1: "Search", ready: "nothing-found" },
  { hash: "#/nowhere", h1: "Page not found" },
] as const;

/** The rule violations on the page now, as "rule: target" lines. */
async function violations(): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} (${n.failureSummary ?? ""})`),
  );
}

async function open(hash: string, h1: string, ready?: string): Promise<void> {
  await page.goto(`${node.appUrl}${hash}`);
  await page.getByRole("heading", { level: 1, name: h1, exact: true }).waitFor();
  if (ready !== undefined) await page.getByTestId(ready).waitFor();
}

describe("[e2e] accessibility", () => {
  // Light on a wide window and dark at 400 px: both colour sets and both layouts, each page
  // scanned once (a scan takes seconds).
  for (const [scheme, width] of [
    ["light", 1280],
    ["dark", 400],
  ] as const) {
    it(`finds no WCAG A/AA violation on any page (${scheme}, ${width} px)`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      const found: string[] = [];
      for (const p of pages) {
        await open(p.hash, p.h1, "ready" in p ? p.ready : undefined);
        found.push(...(await violations()).map((v) => `${p.hash} ${v}`));
      }
      expect(found).toEqual([]);
    }, 300_000);
  }

  it("finds none with a refusal, a field error or the dialog open", async () => {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await open("#/node", "Node", "height-19");
      const toggle = page.getByRole("switch", { name: "Mining" });
      await page.locator("label.switch", { has: toggle }).click();
      await page.getByTestId("mining-refusal").waitFor();
      expect(await violations(), `${scheme} refusal`).toEqual([]);
      await page.getByRole("button", { name: "About" }).click();
      await page.getByRole("dialog").waitFor();
      expect(await violations(), `${scheme} dialog`).toEqual([]);
      await page.keyboard.press("Escape");
      await open("#/explorer", "Braid", "braid");
      await page.getByRole("searchbox", { name: "Search" }).fill("ab");
      await page.keyboard.press("Enter");
      await page.getByTestId("nothing-found").waitFor();
      expect(await violations(), `${scheme} nothing found`).toEqual([]);
    }
  }, 300_000);
});
