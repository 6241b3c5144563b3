/**
 * The first hour on the app's defaults (issue 36): `npm start -- --headless` with no flags (a
 * development network, mine on demand, no reward account), driven in Chromium as a new user
 * would. The Mining switch says why it is or is not mining, and Mine on demand turned off says
 * what would make it mine, with a button that works. A cross-chain transfer typed as "1,500"
 * is reviewed and signed as 1500.0 and reaches Done by itself (mine on demand mines step 1, the
 * height the proof needs and step 2), from chain 0 to 3 and from 5 to 12; "1,5" is refused.
 * A bad peer address and a bad backup folder are said in words, their technical detail behind
 * "Details". Screenshots of the pages touched, at 1280 and 400 px, light and dark.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { readAccounts } from "../../renderer/src/features/wallet/accounts/readAccounts.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { saveScreenshot } from "./support/browser.ts";
import { setUpDefaultApp } from "./support/defaultApp.ts";
import { createWallet, importTestAccount, unlockIfLocked } from "./support/walletSetup.ts";

const ONE = 10n ** 12n;
const S0 = DEV_ACCOUNT_KEYS[0];
const S1 = DEV_ACCOUNT_KEYS[1];
if (S0 === undefined || S1 === undefined) throw new Error("no test accounts");
const FROM = `k:${S0.publicKey}`;
const TO_KEY = S1.publicKey;
const TO = `k:${TO_KEY}`;

const env = setUpDefaultApp("defaults");

/** The page at 1280 and 400 px wide, light and dark: test/e2e/artifacts/<name>-<width>-<scheme>.png. */
async function screenshots(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize();
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 800 });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await saveScreenshot(page, `${name}-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: null });
  if (viewport !== null) await page.setViewportSize(viewport);
}

async function balance(chainId: number, account: string): Promise<bigint> {
  const [a] = await readAccounts(env.pact, "development", chainId, [account]);
  return a?.exists ? a.balance : -1n;
}

async function openNodePage(page: Page): Promise<void> {
  await page.goto(`${env.app.appUrl}#/node`);
  await page.getByRole("heading", { level: 1, name: "Node" }).waitFor();
  await page.getByRole("switch", { name: "Mining" }).waitFor();
}

/** Fills the Send form from chain `from` to `to` for `amount` and opens the review. */
async function reviewCrossChain(page: Page, from: number, to: number, amount: string) {
  await page.goto(`${env.app.appUrl}#/wallet`);
  await unlockIfLocked(page);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Send" }).waitFor();
  await page.getByLabel("From", { exact: true }).selectOption({ label: `sender00 — ${FROM}` });
  await page.getByLabel("Chain", { exact: true }).fill(String(from));
  await page.getByLabel("Target chain", { exact: true }).fill(String(to));
  await page.getByLabel("Receiver", { exact: true }).fill(TO);
  await expect
    .poll(() => page.getByTestId("receiver-guard").textContent(), { timeout: 20_000 })
    .toContain(`Guard on chain ${to}: keys-all of 1 key: ${TO_KEY}`);
  await page.getByLabel("Amount", { exact: true }).fill(amount);
  await page.getByRole("button", { name: "Review" }).click();
  await page.getByRole("region", { name: "Review" }).waitFor();
}

/** The request keys of the transfers the page lists. */
async function listed(page: Page): Promise<string[]> {
  const ids: string[] = [];
  for (const row of await page.locator(".pending-transfer").all()) {
    ids.push(((await row.getAttribute("data-testid")) ?? "").replace(/^xchain-/, ""));
  }
  return ids;
}

/** Signs and sends the review; the request key of step 1 once the new transfer is listed. */
async function signAndSend(page: Page): Promise<string> {
  const before = new Set(await listed(page));
  await page.getByRole("button", { name: "Sign and send" }).click();
  let added: string | undefined;
  await expect
    .poll(
      async () => {
        added = (await listed(page)).find((k) => !before.has(k));
        return added !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return added as string;
}

describe("[e2e] the app on its defaults (npm start -- --headless, no flags)", () => {
  it("the Mining switch without a reward account says why it is not mining, and what would make it", async () => {
    const { page } = env;
    await openNodePage(page);
    const state = page.getByTestId("mining-state");
    const reason = page.getByTestId("mining-reason");
    expect(await page.getByRole("switch", { name: "Mining" }).isChecked()).toBe(false);
    await expect.poll(() => state.textContent(), { timeout: 15_000 }).toBe("On demand: idle");
    // Not "On" with nothing mined: the state and the reason, side by side, in words.
    expect(await reason.textContent()).toBe(
      "Not mining: nothing waits for a block. When a transaction or a cross-chain transfer is sent to this node, the blocks it needs are mined within seconds. The blocks pay the test account sender09, as no reward account is set.",
    );
    const describedBy =
      (await page.getByRole("switch", { name: "Mining" }).getAttribute("aria-describedby")) ?? "";
    expect(describedBy.split(" ")).toContain("mining-reason");
    expect(await page.getByTestId("reward-account").textContent()).toBe("None set");
    await screenshots(page, "defaults-node-mining");

    // Mine on demand off: nothing would mine; the reason says so and offers the switch back.
    const onDemand = page.getByRole("switch", { name: "Mine on demand" });
    await page.locator("label.switch", { has: onDemand }).click();
    await expect.poll(() => state.textContent(), { timeout: 15_000 }).toBe("Off");
    expect(await reason.textContent()).toContain(
      "Not mining: transactions sent to this node wait until Mining or Mine on demand is on",
    );
    await screenshots(page, "defaults-node-mining-off");
    await page.getByRole("button", { name: "Turn mine on demand on" }).click();
    await expect.poll(() => state.textContent(), { timeout: 15_000 }).toBe("On demand: idle");
    expect(await onDemand.isChecked()).toBe(true);
    expect(env.problems).toEqual([]);
  }, 120_000);

  it('"1,500" in Amount is signed as 1500.0, "1,5" is refused; 0 → 3 reaches Done by itself', async () => {
    const { page } = env;
    await createWallet(page, env.app);
    await importTestAccount(page, FROM);
    const from0 = await balance(0, FROM);
    const to3 = await balance(3, TO);

    // "1,5" is never read as 1.5.
    await page.goto(`${env.app.appUrl}#/wallet/send`);
    await page.getByRole("heading", { level: 1, name: "Send" }).waitFor();
    const amount = page.getByLabel("Amount", { exact: true });
    await amount.fill("1,5");
    await expect
      .poll(() => page.locator(".field-error").allTextContents())
      .toContain(
        "A comma only separates thousands (1,500 is one thousand five hundred); for a fraction use a point: 1.5.",
      );
    expect(await amount.getAttribute("aria-invalid")).toBe("true");
    await screenshots(page, "defaults-send-amount-refused");

    // "1,500" is one thousand five hundred, as balances are shown: the review says what is signed.
    await reviewCrossChain(page, 0, 3, "1,500");
    expect(await page.getByTestId("review-amount").textContent()).toBe("1,500");
    expect(await page.getByTestId("review-code").textContent()).toBe(
      `(coin.transfer-crosschain "${FROM}" "${TO}" (read-keyset "receiver-guard") "3" 1500.0)`,
    );
    expect(
      await page.getByTestId("review-capabilities").getByRole("listitem").allTextContents(),
    ).toEqual([`(coin.TRANSFER_XCHAIN "${FROM}" "${TO}" 1500.0 "3")`, "(coin.GAS)"]);
    await screenshots(page, "defaults-send-review");
    const started = Date.now();
    const requestKey = await signAndSend(page);
    // No flag, no reward account, no button: mine on demand carries every step.
    const state = page.getByTestId(`xchain-${requestKey}`).getByTestId("xchain-state");
    await expect.poll(() => state.textContent(), { timeout: 120_000, interval: 500 }).toBe("Done");
    console.log(`cross-chain 0 → 3 reached Done in ${Date.now() - started} ms`);
    expect(await page.getByTestId("mining-off").count()).toBe(0);
    await screenshots(page, "defaults-send-done");
    expect(await balance(3, TO)).toBe(to3 + 1500n * ONE);
    expect((await balance(0, FROM)) < from0 - 1500n * ONE).toBe(true);
    expect(env.problems).toEqual([]);
  }, 300_000);

  it("5 → 12 reaches Done by itself", async () => {
    const { page } = env;
    const to12 = await balance(12, TO);
    await reviewCrossChain(page, 5, 12, "2.5");
    const started = Date.now();
    const requestKey = await signAndSend(page);
    const state = page.getByTestId(`xchain-${requestKey}`).getByTestId("xchain-state");
    await expect.poll(() => state.textContent(), { timeout: 120_000, interval: 500 }).toBe("Done");
    console.log(`cross-chain 5 → 12 reached Done in ${Date.now() - started} ms`);
    expect(await balance(12, TO)).toBe(to12 + (5n * ONE) / 2n);
    expect(env.problems).toEqual([]);
  }, 240_000);

  it("a bad peer address and a bad backup folder are said in words, the detail behind Details", async () => {
    const { page } = env;
    // The node's 400 answers are expected here.
    const expected = (t: string) => /status of 4\d\d/.test(t);
    await openNodePage(page);
    const peer = page.getByRole("textbox", { name: "Add a peer" });
    await peer.fill("not a peer");
    await peer.press("Enter");
    const peerPanel = page.locator("section.panel", { has: page.locator("#peers-title") });
    const peerError = peerPanel.locator(".field-error");
    await expect
      .poll(() => peerError.textContent(), { timeout: 15_000 })
      .toBe(
        "That is not a peer address. Type the other node's address as HOST:PORT, for example 192.168.1.20:1789.",
      );
    const details = peerPanel.locator("details.error-details");
    expect(await details.locator("pre").isVisible()).toBe(false);
    await details.locator("summary").click();
    const shown = (await details.locator("pre").textContent()) ?? "";
    expect(shown).toContain("HTTP 400 P2P_BAD_PEER_ADDRESS");
    expect(shown).toContain("/app/api/peers");
    await peerPanel.scrollIntoViewIfNeeded();
    await screenshots(page, "defaults-peer-error");

    await page.goto(`${env.app.appUrl}#/backup`);
    const folder = page.getByRole("textbox", { name: "Backup folder", exact: true });
    await folder.fill("/no/such/folder/here");
    await page.getByRole("button", { name: "Save folder" }).click();
    const panel = page.getByRole("region", { name: "Where backups go" });
    await expect
      .poll(() => panel.locator(".field-error").textContent(), { timeout: 15_000 })
      .toBe(
        "This folder cannot hold backups: no such folder. Give the full path of an existing folder you may write to, for example /home/you/weft-backups.",
      );
    const text = (await panel.textContent()) ?? "";
    await panel.locator("details.error-details summary").click();
    expect(await panel.locator("details.error-details pre").textContent()).toContain(
      "HTTP 422 BACKUP_FOLDER_UNUSABLE",
    );
    // Before "Details" was opened, nothing of it was on the page's text.
    expect(text.replace(/Details[\s\S]*$/, "")).not.toMatch(/HTTP|BACKUP_|\/app\/api/);
    await panel.scrollIntoViewIfNeeded();
    await screenshots(page, "defaults-backup-error");
    expect(env.problems.filter((p) => !expected(p))).toEqual([]);
  }, 120_000);
});
