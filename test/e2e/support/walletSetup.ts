/**
 * The wallet's steps the e2e files share, driven through the page by the names users see
 * (issue 17's accessible names): open the wallet, create one (phrase shown, three words typed
 * back, password), import a test account, unlock when locked. Each step waits for its
 * outcome; the tests assert the rest.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { WeftNode } from "../../../src-node/node.ts";

/** The password the e2e wallets are created with. */
export const PASSWORD = "a long password";

/** The wallet page's own password field (not "Confirm" nor a dialog's). */
export const passwordField = (page: Page) => page.getByLabel("Password", { exact: true });

/** What the steps need of a node: where its app is (a `WeftNode`, or a headless app's process). */
export type AppAt = Pick<WeftNode, "appUrl">;

/** Opens `#/wallet` of `node`'s app and waits for its heading. */
export async function openWallet(page: Page, node: AppAt): Promise<void> {
  await page.goto(`${node.appUrl}#/wallet`);
  await page.getByRole("heading", { level: 1, name: "Wallet" }).waitFor();
}

/** From the first-run page: "Create a wallet"; the phrase's words as shown, in order. */
export async function showNewPhrase(page: Page): Promise<string[]> {
  await page.getByRole("button", { name: "Create a wallet" }).click();
  const list = page.getByRole("list", { name: "Recovery phrase" });
  await list.waitFor();
  return (await list.getByRole("listitem").allTextContents()).map((w) => w.trim());
}

/** "I have written them down"; the confirmation's word inputs once shown. */
export async function askWords(page: Page) {
  await page.getByRole("button", { name: "I have written them down" }).click();
  const inputs = page.getByLabel(/^Word \d+$/);
  await inputs.first().waitFor();
  return inputs;
}

/** Types each asked word ("Word N" gets the phrase's N-th word) and confirms them. */
export async function typeBackWords(page: Page, phrase: readonly string[]): Promise<void> {
  const inputs = page.getByLabel(/^Word \d+$/);
  for (let i = 0; i < (await inputs.count()); i++) {
    const input = inputs.nth(i);
    const label = await page
      .locator(`label[for="${await input.getAttribute("id")}"]`)
      .textContent();
    await input.fill(phrase[Number(label?.replace("Word ", "")) - 1] ?? "");
  }
  await page.getByRole("button", { name: "Confirm words" }).click();
}

/** Sets the new wallet's password (twice) and creates it; waits until it is unlocked. */
export async function choosePassword(page: Page, password = PASSWORD): Promise<void> {
  await passwordField(page).fill(password);
  await page.getByLabel("Confirm", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create the wallet" }).click();
  await page.getByRole("button", { name: "Lock" }).waitFor({ timeout: 30_000 });
}

/** Creates a wallet on `node` through the first-run pages; returns its phrase. */
export async function createWallet(
  page: Page,
  node: AppAt,
  password = PASSWORD,
): Promise<string[]> {
  await openWallet(page, node);
  const phrase = await showNewPhrase(page);
  await askWords(page);
  await typeBackWords(page, phrase);
  await choosePassword(page, password);
  return phrase;
}

/** "Import a test account" (the next of the published test keys); waits for `account`. */
export async function importTestAccount(page: Page, account: string): Promise<void> {
  await page.getByRole("button", { name: "Import a test account" }).click();
  await expect
    .poll(() => page.getByRole("region", { name: "Keys" }).textContent(), { timeout: 20_000 })
    .toContain(account);
}

/** Unlocks the wallet page when it shows the unlock form; returns once it is unlocked. */
export async function unlockIfLocked(page: Page, password = PASSWORD): Promise<void> {
  const unlock = page.getByRole("button", { name: "Unlock" });
  const lock = page.getByRole("button", { name: "Lock" });
  await Promise.race([unlock.waitFor(), lock.waitFor()]);
  if (await unlock.isVisible()) {
    await passwordField(page).fill(password);
    await unlock.click();
    await lock.waitFor({ timeout: 30_000 });
  }
}
