/**
 * The built UI in headless Chromium against the fake node (test/e2e/support/fakeNode.ts):
 * the Node page, live chain heights, the mining switch and its refusals, keyboard-only use of
 * the Node page (skip link, navigation, the switch, a dialog that traps focus), the
 * catching-up banner, the Content-Security-Policy, and clear messages when the node is
 * unreachable.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { launchChromium, saveScreenshot } from "./support/browser.ts";
import { type FakeNode, startFakeNode } from "./support/fakeNode.ts";

let browser: Browser;
let node: FakeNode;
let page: Page;
let problems: string[];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function useNode(options: { miningAccount?: string | null } = {}): Promise<void> {
  await node?.close();
  node = await startFakeNode({ rendererDir: inject("rendererDir"), startHeight: 100, ...options });
}

/** The accessible name or text of the focused element. */
function focused(): Promise<string> {
  return page.evaluate<string>(`(() => {
    const el = document.activeElement;
    if (el === null) return "";
    const label = el.getAttribute("aria-label");
    if (label !== null) return label;
    if (el instanceof HTMLInputElement && el.labels && el.labels[0]) {
      return el.labels[0].textContent ?? "";
    }
    return el.textContent ?? "";
  })()`);
}

/** Presses Tab until the focused element's name is `name` (at most `max` times). */
async function tabTo(name: string, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focused()).trim() === name) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${JSON.stringify(name)}; last: ${await focused()}`);
}

beforeEach(async () => {
  await useNode();
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

async function openNodePage(): Promise<void> {
  await page.goto(node.appUrl);
  await page.getByRole("heading", { level: 1, name: "Node" }).waitFor();
  await page.getByTestId("height-19").waitFor();
}

describe("[e2e] renderer against a fake node", () => {
  it("shows the node's network, base URL, health and the height of all 20 chains", async () => {
    await openNodePage();
    expect(await page.getByTestId("network").textContent()).toBe("development");
    expect(await page.getByTestId("base-url").textContent()).toBe(node.baseUrl);
    await expect
      .poll(() => page.getByTestId("health").textContent())
      .toBe("Healthy: Health check OK.");
    expect(await page.getByTestId("chain-count").textContent()).toBe("20");
    expect(await page.locator("table.chains tbody tr").count()).toBe(20);
    expect(await page.getByTestId("cut-height").textContent()).toBe("2,000");
    await expect.poll(() => page.getByTestId("stream-state").textContent()).toContain("Live");
    expect(await page.title()).toBe("Node · Weft");
    await saveScreenshot(page, "node-page");
    expect(problems).toEqual([]);
  });

  it("moves a chain's height as soon as the node reports a new block", async () => {
    await openNodePage();
    await expect.poll(() => node.streamCount()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId("stream-state").textContent()).toContain("Live");
    node.pushHeader(3, 101);
    await expect.poll(() => page.getByTestId("height-3").textContent()).toBe("101");
    expect(await page.getByTestId("cut-height").textContent()).toBe("2,001");
    node.pushHeader(3, 102);
    node.pushHeader(17, 101);
    await expect.poll(() => page.getByTestId("cut-height").textContent()).toBe("2,003");
    expect(await page.getByTestId("height-17").textContent()).toBe("101");
  });

  it("turns mining on and off and shows the hash rate", async () => {
    await openNodePage();
    const toggle = page.getByRole("switch", { name: "Mining" });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    expect(await page.getByTestId("hash-rate").textContent()).toBe("0 H/s");
    // The switch's input is visually hidden inside its label: click what a person clicks.
    await page.locator("label.switch", { has: toggle }).click();
    await expect.poll(() => page.getByTestId("mining-state").textContent()).toBe("On");
    expect(await page.getByTestId("hash-rate").textContent()).toBe("1.53 MH/s");
    expect(node.miningPosts).toEqual([{ enabled: true }]);
    await saveScreenshot(page, "node-page-mining");
    await toggle.press("Space");
    await expect.poll(() => page.getByTestId("mining-state").textContent()).toBe("Off");
    expect(node.miningPosts).toEqual([{ enabled: true }, { enabled: false }]);
  });

  it("can be used with the keyboard: skip link, navigation, focus on the new page's heading", async () => {
    await openNodePage();
    await page.keyboard.press("Tab");
    expect(await page.locator(":focus").textContent()).toBe("Skip to content");
    await page.keyboard.press("Tab");
    expect(await page.locator(":focus").textContent()).toBe("About");
    await page.keyboard.press("Tab");
    expect(await page.locator(":focus").textContent()).toBe("Wallet");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Wallet" }).waitFor();
    await expect.poll(() => page.locator(":focus").getAttribute("id")).toBe("page-title");
    // Focus sits on the heading without a box drawn around it; controls do show their focus.
    expect(
      await page.evaluate<string>("getComputedStyle(document.activeElement).outlineStyle"),
    ).toBe("none");
    await page.keyboard.press("Tab");
    expect(
      await page.evaluate<string>("getComputedStyle(document.activeElement).outlineStyle"),
    ).toBe("solid");
    expect(await page.getByRole("link", { name: "Wallet" }).getAttribute("aria-current")).toBe(
      "page",
    );
    expect(await page.getByRole("link", { name: "Node" }).getAttribute("aria-current")).toBeNull();
    expect(await page.title()).toBe("Wallet · Weft");
    for (const [name, heading] of [
      ["Explorer", "Braid"],
      ["Backup", "Backup"],
    ] as const) {
      await page.getByRole("link", { name }).click();
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
    }
    await page.getByRole("link", { name: "Node" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Node" }).waitFor();
    // The skip link moves focus to the main region.
    await page.getByRole("button", { name: "Skip to content" }).focus();
    await page.keyboard.press("Enter");
    expect(await page.locator(":focus").getAttribute("id")).toBe("main");
    await page.goto(`${node.appUrl}#/nowhere`);
    await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
  });

  it("keeps a refusal to start mining visible beside the switch until dismissed", async () => {
    await useNode({ miningAccount: null });
    await openNodePage();
    expect(await page.getByTestId("reward-account").textContent()).toBe("None set");
    const toggle = page.getByRole("switch", { name: "Mining" });
    // The switch's input is visually hidden inside its label: click what a person clicks.
    await page.locator("label.switch", { has: toggle }).click();
    const refusal = page.getByTestId("mining-refusal");
    await refusal.waitFor();
    // What to do in the app, in words; the node's own text only behind "Details".
    expect(await refusal.locator("p").first().textContent()).toBe(
      "Mining needs a reward account. Choose one of your wallet's accounts, or type the account block rewards should go to, under “Reward account”; then turn Mining on.",
    );
    expect(await refusal.locator("details pre").isVisible()).toBe(false);
    expect(await refusal.locator("details pre").textContent()).toContain(
      "HTTP 409 MINING_CANNOT_START",
    );
    // Beside the switch, always: why it is not mining.
    expect(await page.getByTestId("mining-reason").textContent()).toContain(
      "Not mining: mining needs a reward account.",
    );
    expect(await refusal.getAttribute("role")).toBe("alert");
    expect(await toggle.getAttribute("aria-describedby")).toContain("mining-refusal");
    // Still there after the miner's state has been polled again twice: it does not flash.
    const polls = () => node.requests.filter((r) => r === "GET /app/api/mining").length;
    const seen = polls();
    await expect.poll(polls, { timeout: 10_000 }).toBeGreaterThanOrEqual(seen + 2);
    expect(await refusal.isVisible()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    expect(await page.getByTestId("mining-state").textContent()).toBe("Off");
    expect(node.miningPosts).toEqual([{ enabled: true }]);
    await saveScreenshot(page, "node-page-mining-refused");
    await page.getByRole("button", { name: "Dismiss" }).click();
    await refusal.waitFor({ state: "detached" });
    // Failed fetches are logged by the browser; nothing else may be.
    expect(problems.filter((p) => !p.includes("409"))).toEqual([]);
  });

  it("can be used with the keyboard alone: switch, copy buttons and a dialog that traps focus", async () => {
    await openNodePage();
    // Skip link → main; the next Tab stops are inside the page.
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate<string>("document.activeElement.id")).toBe("main");
    await tabTo("Copy base URL");
    await tabTo("Mining");
    expect(await page.evaluate<string>('document.activeElement.getAttribute("role")')).toBe(
      "switch",
    );
    await page.keyboard.press("Space");
    await expect.poll(() => page.getByTestId("mining-state").textContent()).toBe("On");
    await page.keyboard.press("Space");
    await expect.poll(() => page.getByTestId("mining-state").textContent()).toBe("Off");
    expect(node.miningPosts).toEqual([{ enabled: true }, { enabled: false }]);
    // The chain table's links and copy buttons are reachable too.
    await tabTo("0");
    await tabTo("Copy block hash");
    // Back to the header's About button: a dialog opens, holds focus, and gives it back.
    await page.keyboard.press("Shift+Tab");
    for (let i = 0; i < 60 && (await focused()) !== "About"; i++) {
      await page.keyboard.press("Shift+Tab");
    }
    expect(await focused()).toBe("About");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "About Weft" });
    await dialog.waitFor();
    const inDialog = () =>
      page.evaluate<boolean>(`document.activeElement.closest('[role="dialog"]') !== null`);
    await expect.poll(inDialog).toBe(true);
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      expect(await inDialog()).toBe(true);
    }
    await saveScreenshot(page, "node-page-about-dialog");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await focused()).toBe("About");
    expect(problems).toEqual([]);
  });

  it("loads only from its own origin under the Content-Security-Policy", async () => {
    const blocked: string[] = [];
    page.on("requestfailed", (r) => blocked.push(r.url()));
    // Records every refusal from the first byte on (an init script is not subject to the CSP).
    await page.addInitScript(`
      window.__violations = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        window.__violations.push(e.violatedDirective + " " + e.blockedURI));`);
    await openNodePage();
    // The page itself (React, the router, the accessible components, a dialog) needs nothing
    // the policy forbids: no inline <style> or script is refused.
    await page.getByRole("switch", { name: "Mining" }).waitFor();
    await page.getByRole("button", { name: "About" }).click();
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("Escape");
    expect(await page.evaluate("window.__violations")).toEqual([]);
    expect(problems).toEqual([]);
    // An inline script injected into the page must be refused (and reported) by the policy.
    const violations = await page.evaluate(`new Promise((resolve) => {
      let n = 0;
      document.addEventListener("securitypolicyviolation", () => { n += 1; });
      const s = document.createElement("script");
      s.textContent = "window.__inlineRan = true";
      document.body.append(s);
      setTimeout(() => resolve(n), 200);
    })`);
    // One report per policy: the response header and the <meta> tag both apply.
    expect(violations).toBeGreaterThanOrEqual(1);
    expect(await page.evaluate("window.__inlineRan === undefined")).toBe(true);
    expect(blocked).toEqual([]);
    expect(node.requests.every((r) => r.split(" ")[1]?.startsWith("/"))).toBe(true);
  });

  it("shows what the node catches up on in a banner, with progress and time left; Hide hides it", async () => {
    node.setCatchingUp([
      { what: "Rebuilding the explorer index", done: 250, total: 1000, etaS: 90 },
    ]);
    await openNodePage();
    const banner = page.getByRole("region", { name: "Catching up" });
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.textContent()).toContain("Rebuilding the explorer index");
    expect(await banner.textContent()).toContain("25 %, about 2 min left");
    expect(await banner.locator("progress").getAttribute("value")).toBe("250");
    await saveScreenshot(page, "node-page-catching-up");
    // Progress follows the node's status.
    node.setCatchingUp([
      { what: "Rebuilding the explorer index", done: 750, total: 1000, etaS: 20 },
    ]);
    await expect
      .poll(() => banner.textContent(), { timeout: 15_000 })
      .toContain("75 %, about 20 s left");
    // Hidden until the list of tasks changes: a new task brings it back.
    await banner.getByRole("button", { name: "Hide" }).click();
    await banner.waitFor({ state: "detached" });
    node.setCatchingUp([
      { what: "Rebuilding the explorer index", done: 900, total: 1000, etaS: 5 },
      { what: "Syncing blocks from peers", done: 0, total: 400, etaS: null },
    ]);
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.textContent()).toContain("Syncing blocks from peers");
    expect(await banner.textContent()).toContain("time left unknown");
    // Caught up: the banner goes.
    node.setCatchingUp([]);
    await banner.waitFor({ state: "detached", timeout: 15_000 });
    expect(problems).toEqual([]);
  });

  it("says clearly when the node stops answering", async () => {
    await openNodePage();
    node.setHealthy(false);
    await expect
      .poll(() => page.getByTestId("health").textContent(), { timeout: 15_000 })
      .toContain(
        "Not responding. The node is not ready: Failed health check due to service drain. Try again in a moment.",
      );
    await node.close();
    await expect
      .poll(() => page.getByTestId("health").textContent(), { timeout: 15_000 })
      .toMatch(/^Not responding\. The node does not answer\. Check that Weft is still running/);
    // The address it tried is behind "Details".
    expect(
      await page.locator('section[aria-labelledby="status-title"] details pre').textContent(),
    ).toMatch(/http:\/\/127\.0\.0\.1:\d+\/ledger\/0\.0\/development\/health-check/);
    await expect
      .poll(() => page.getByTestId("stream-state").textContent())
      .toContain("reconnecting");
    await saveScreenshot(page, "node-page-unreachable");
  });

  it("offers to try again when the node's configuration cannot be loaded", async () => {
    node.setConfigAvailable(false);
    await page.goto(node.appUrl);
    await page.getByRole("heading", { level: 1, name: "Cannot reach the Weft node" }).waitFor();
    expect(await page.getByRole("alert").textContent()).toBe(
      "The node is not ready: Starting. Try again in a moment.",
    );
    node.setConfigAvailable(true);
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("heading", { level: 1, name: "Node" }).waitFor();
  });
});
