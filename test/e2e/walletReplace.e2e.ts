/**
 * Restoring or replacing an existing wallet in headless Chromium against the REAL node
 * (test-singleton, a temporary data folder; docs/wallet.md "Replacing the wallet"). From the
 * locked page, "I forgot my password": the warning names the key the phrase cannot give back
 * (an imported test account), the backup offer backs the wallet up first, the confirmation
 * opens the restore, and the phrase with a new password replaces the wallet: the same Key 0,
 * the imported key gone, the old file kept byte for byte where the page says, the new
 * password unlocking and the old one refused. From the keys panel, "Restore or replace this
 * wallet" → "Create a new wallet" puts a new phrase's wallet in place, keeping the previous
 * file beside the first one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { saveScreenshot } from "./support/browser.ts";
import { saveGuideScreenshot } from "./support/guideScreenshot.ts";
import { setUpRealNodePage } from "./support/realNodePage.ts";
import {
  askWords,
  createWallet,
  importTestAccount,
  openWallet,
  PASSWORD,
  passwordField,
  typeBackWords,
  unlockIfLocked,
} from "./support/walletSetup.ts";

const S0 = DEV_ACCOUNT_KEYS[0];
if (S0 === undefined) throw new Error("no test accounts");
const NEW_PASSWORD = "another long password";

const env = setUpRealNodePage({ name: "replace" });

const walletDir = () => join(env.dataDir, "test-singleton", "wallet");
const keystoreText = () => readFileSync(join(walletDir(), "keystore.json"), "utf8");
const keptFiles = () =>
  readdirSync(walletDir())
    .filter((n) => n.startsWith("keystore-replaced-"))
    .sort();
const keysOf = (text: string) =>
  (JSON.parse(text) as { public: { keys: { publicKey: string; source: string }[] } }).public.keys;

describe("[e2e] restore or replace an existing wallet", () => {
  it("restores from the locked page after a forgotten password, backing up and keeping the old file", async () => {
    const { page, node } = env;
    const phrase = await createWallet(page, node);
    await importTestAccount(page, `k:${S0.publicKey}`);
    const before = keystoreText();
    const key0 = keysOf(before).find((k) => k.source === "phrase")?.publicKey;
    expect(keysOf(before).map((k) => k.source)).toEqual(["phrase", "test-account"]);

    await page.getByRole("button", { name: "Lock" }).click();
    await page.getByRole("button", { name: "I forgot my password" }).click();
    await page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
    // The warning says what is replaced and what the phrase cannot give back.
    const warning = page.getByTestId("replace-warning");
    expect(await warning.textContent()).toContain("This wallet will be replaced.");
    expect(await page.getByTestId("replace-not-from-phrase").textContent()).toContain("sender00");
    // Nothing goes on before the confirmation.
    const restore = page.getByRole("button", { name: "Restore from the recovery phrase" });
    expect(await restore.isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Create a new wallet" }).count()).toBe(0);

    // The backup offer: none holds the wallet yet; one is made here and then holds it.
    const offer = page.getByTestId("wallet-backup-offer");
    await expect
      .poll(() => offer.textContent(), { timeout: 20_000 })
      .toContain("No backup holds this wallet's file");
    await saveScreenshot(page, "wallet-forgot-password");
    await saveGuideScreenshot(page, "wallet-forgot-password", { top: true });
    await offer.getByRole("button", { name: "Back up now" }).click();
    await expect
      .poll(() => offer.textContent(), { timeout: 60_000 })
      .toContain("A backup holds this wallet's file as it is now");
    const backups = join(env.dataDir, "..", "backups");
    const [backup] = readdirSync(backups);
    expect(
      readFileSync(join(backups, backup ?? "", "wallet", "keystore.json"), "utf8"),
      "the backup holds the wallet as it was",
    ).toBe(before);

    await page
      .getByLabel("I understand that this wallet is replaced, and its file kept aside")
      .check();
    await restore.click();
    await page.getByRole("textbox", { name: "Recovery phrase" }).fill(phrase.join(" "));
    await passwordField(page).fill(NEW_PASSWORD);
    await page.getByLabel("Confirm", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Restore and replace" }).click();
    await page.getByRole("button", { name: "Lock" }).waitFor({ timeout: 30_000 });

    // Where the old file is kept, as the page says: byte for byte the wallet it replaced.
    const kept = await page.getByTestId("wallet-replaced").locator("code").textContent();
    expect(kept).toMatch(/^wallet\/keystore-replaced-.+\.json$/);
    expect(keptFiles()).toEqual([kept?.slice("wallet/".length)]);
    expect(readFileSync(join(walletDir(), "..", kept ?? ""), "utf8")).toBe(before);
    // The same phrase's Key 0; the imported key is not in the restored wallet.
    const after = keysOf(keystoreText());
    expect(after.map((k) => k.publicKey)).toEqual([key0]);
    await saveScreenshot(page, "wallet-replaced");

    // The new password opens it; the forgotten one no longer does.
    await page.getByRole("button", { name: "Lock" }).click();
    await passwordField(page).fill(PASSWORD);
    await page.getByRole("button", { name: "Unlock" }).click();
    await expect.poll(() => page.getByTestId("unlock-problem").textContent()).toContain("Wrong");
    await unlockIfLocked(page, NEW_PASSWORD);
    expect(env.problems).toEqual([]);
  }, 180_000);

  it("replaces the unlocked wallet from its keys panel with a new one; both old files are kept", async () => {
    const { page, node } = env;
    await openWallet(page, node);
    await unlockIfLocked(page, NEW_PASSWORD);
    const before = keystoreText();
    await page.getByRole("button", { name: "Restore or replace this wallet" }).click();
    await page.getByRole("heading", { name: "Restore or replace this wallet" }).waitFor();
    await page
      .getByLabel("I understand that this wallet is replaced, and its file kept aside")
      .check();
    await page.getByRole("button", { name: "Create a new wallet" }).click();
    const list = page.getByRole("list", { name: "Recovery phrase" });
    await list.waitFor();
    const words = (await list.getByRole("listitem").allTextContents()).map((w) => w.trim());
    await askWords(page);
    await typeBackWords(page, words);
    await passwordField(page).fill(PASSWORD);
    await page.getByLabel("Confirm", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Create and replace" }).click();
    await page.getByRole("button", { name: "Lock" }).waitFor({ timeout: 30_000 });
    await page.getByTestId("wallet-replaced").waitFor();

    expect(keptFiles()).toHaveLength(2);
    const newest = keptFiles().find((n) => readFileSync(join(walletDir(), n), "utf8") === before);
    expect(newest, "the replaced wallet is kept beside the first one").toBeDefined();
    expect(keysOf(keystoreText())[0]?.publicKey).not.toBe(keysOf(before)[0]?.publicKey);
    expect(env.problems).toEqual([]);
  }, 120_000);
});
