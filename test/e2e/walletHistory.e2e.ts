/**
 * The wallet's History table fits its window, from 400 px to wide, in headless Chromium against
 * the fake node (whose `pending.json` holds a history of every kind, with full `k:` names, a
 * long amount and a long failure message): neither the page nor the table's region scrolls
 * sideways, every row's links stay inside the window, a wide window shows the columns side by
 * side and a narrow one folds each row into labelled lines; both meet WCAG A/AA. Screenshots of
 * each width go to test/e2e/artifacts/.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium, saveScreenshot } from "./support/browser.ts";
import { type FakeNode, startFakeNode } from "./support/fakeNode.ts";
import { saveGuideScreenshot } from "./support/guideScreenshot.ts";

const key = (c: string) => c.repeat(43);
const account = (c: string) => `k:${c.repeat(64)}`;
const entry = (o: Record<string, unknown>) => ({
  status: "succeeded",
  chain: 0,
  targetChain: null,
  sender: account("a"),
  receiver: account("b"),
  amount: "1.5",
  gasPrice: "0.00000001",
  fee: "0.00000586",
  blockHeight: 123_456,
  message: null,
  expiresAt: null,
  ...o,
});
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const history = [
  entry({ requestKey: key("A"), kind: "transfer", createdAt: NOW }),
  entry({
    requestKey: key("B"),
    kind: "crosschain",
    targetChain: 3,
    amount: "123456789.123456789012",
    createdAt: NOW - 60_000,
  }),
  entry({
    requestKey: key("C"),
    kind: "multisig",
    sender: `w:${"Xy_9".repeat(11)}:keys-all`,
    createdAt: NOW - 120_000,
  }),
  entry({
    requestKey: key("D"),
    kind: "create-account",
    status: "failed",
    amount: null,
    blockHeight: 99,
    message: `Keyset failure (keys-all): [${"c".repeat(64)}]`,
    createdAt: NOW - 180_000,
  }),
  entry({
    requestKey: key("E"),
    kind: "added",
    status: "expired",
    fee: null,
    blockHeight: null,
    createdAt: NOW - 240_000,
  }),
];

let browser: Browser;
let node: FakeNode;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  node = await startFakeNode({
    rendererDir: inject("rendererDir"),
    walletPending: { format: "weft-pending", version: 1, transfers: [], history },
  });
  browser = await launchChromium();
  // A context of its own: axe opens a page beside it.
  page = await (await browser.newContext()).newPage();
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
});
afterAll(async () => {
  await browser?.close();
  await node?.close();
});

type Fit = {
  /** How far the page and the table's region scroll sideways (px). */
  readonly pageOverflow: number;
  readonly regionOverflow: number;
  /** Rows whose links end beyond the window's right edge. */
  readonly linksOutside: number;
  /** How a body row is laid out: `table-row` side by side, `block` folded. */
  readonly rowDisplay: string;
};

function measure(): Promise<Fit> {
  return page.evaluate<Fit>(`(() => {
    const region = document.querySelector('[aria-labelledby="history-table-caption"]');
    const rows = [...region.querySelectorAll("tbody tr")];
    return {
      pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      regionOverflow: region.scrollWidth - region.clientWidth,
      linksOutside: rows.filter((r) =>
        [...r.querySelectorAll("a")].some(
          (a) => a.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5,
        ),
      ).length,
      rowDisplay: getComputedStyle(rows[0]).display,
    };
  })()`);
}

async function axeViolations(): Promise<string[]> {
  const r = await new AxeBuilder({ page })
    .include("main")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`);
}

describe("[e2e] the History table fits its window", () => {
  it("from 400 px to 1920 px: no sideways scrolling, links in view; folded when narrow", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${node.appUrl}#/wallet/history`);
    await page.getByRole("heading", { level: 1, name: "History" }).waitFor();
    await page.getByTestId(`history-status-${key("A")}`).waitFor();
    expect(await page.getByTestId(`history-status-${key("D")}`).textContent()).toMatch(
      /^Failed: Keyset failure/,
    );
    await saveGuideScreenshot(page, "wallet-history");

    for (const width of [400, 600, 800, 1024, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      const fit = await measure();
      await saveScreenshot(page, `wallet-history-${width}`);
      expect(fit, `at ${width} px`).toMatchObject({
        pageOverflow: 0,
        regionOverflow: 0,
        linksOutside: 0,
      });
      // Wide windows show the columns side by side; narrow ones fold each row.
      expect(fit.rowDisplay, `at ${width} px`).toBe(width >= 1280 ? "table-row" : "block");
      if (width === 400 || width === 1280) {
        expect(await axeViolations(), `at ${width} px`).toEqual([]);
        // The dark colours too, at both layouts.
        await page.emulateMedia({ colorScheme: "dark" });
        await saveScreenshot(page, `wallet-history-${width}-dark`);
        expect(await axeViolations(), `dark at ${width} px`).toEqual([]);
        await page.emulateMedia({ colorScheme: "light" });
      }
    }
    // Folded, each cell says which column it is.
    await page.setViewportSize({ width: 400, height: 900 });
    const label = await page.evaluate<string>(
      `getComputedStyle(document.querySelector('[data-testid="history-status-${key("A")}"]'), "::before").content`,
    );
    expect(label).toBe('"Status"');
    expect(problems).toEqual([]);
    // Six window widths, each laid out and measured: over a minute on a loaded machine.
  }, 240_000);
});
