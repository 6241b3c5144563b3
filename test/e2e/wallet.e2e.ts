/**
 * The wallet's keys in headless Chromium against the REAL node (test-singleton, a temporary
 * data folder): create a wallet (phrase shown as a list, three words typed back, password),
 * lock, reload, a wrong password's message, unlock; the keystore file on disk is 0600 and
 * holds no two words of the phrase in a row; "Import a test account"; "Import a key" from a
 * `weft -g` key file and its removal; "Show recovery phrase" (password asked again); "Change
 * password"; then key 1 of the same phrase is
 * funded by a transfer from sender00 (mined), the wallet's file is removed (a fresh wallet
 * folder), and restoring the phrase finds key 1 through account discovery.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deriveKey, seedOfPhrase } from "../../renderer/src/features/wallet/keystore/derivation.ts";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { signedCommand, transferCaps } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { postJson } from "../support/postJson.ts";
import { saveScreenshot } from "./support/browser.ts";
import { saveGuideScreenshot } from "./support/guideScreenshot.ts";
import { setUpRealNodePage } from "./support/realNodePage.ts";
import {
  askWords,
  choosePassword,
  importTestAccount,
  openWallet,
  PASSWORD,
  passwordField,
  showNewPhrase,
  typeBackWords,
  unlockIfLocked,
} from "./support/walletSetup.ts";

/** A real node mining and confirming on a busy machine: more than the 60 s default. */
const LONG_TEST_MS = 120_000;

const env = setUpRealNodePage({
  name: "wallet",
  mining: { enabled: false, threads: 1, account: `k:${"ef".repeat(32)}` },
});
/** The phrase created by the first test, restored by the last. */
let phrase: string[] = [];

const keystorePath = (dataDir = env.dataDir) =>
  join(dataDir, "test-singleton", "wallet", "keystore.json");

describe("[e2e] wallet keys against the real node", () => {
  it(
    "creates a wallet, confirms three words, locks, reloads, refuses a wrong password, unlocks",
    async () => {
      const { page, node } = env;
      await openWallet(page, node);
      await saveGuideScreenshot(page, "wallet-first-run");
      phrase = await showNewPhrase(page);
      expect(phrase).toHaveLength(12);
      await saveGuideScreenshot(page, "wallet-create-phrase");
      const wordInputs = await askWords(page);
      expect(await wordInputs.count()).toBe(3);
      // The words are gone from the page while they are asked.
      expect(await page.getByRole("list", { name: "Recovery phrase" }).count()).toBe(0);
      await typeBackWords(page, phrase);
      await choosePassword(page);
      const key0 = deriveKey(seedOfPhrase(phrase.join(" ")), 0).publicKey;
      await page.getByTestId("key-p-0").waitFor();
      expect(await page.getByTestId("key-p-0").textContent()).toContain(`k:${key0}`);

      // On disk: 0600, encrypted (no two words of the phrase in a row, no secret key).
      const text = readFileSync(keystorePath(), "utf8");
      expect(statSync(keystorePath()).mode & 0o777).toBe(0o600);
      for (let i = 0; i + 1 < phrase.length; i++) {
        expect(text).not.toContain(`${phrase[i]} ${phrase[i + 1]}`);
      }
      expect(text).not.toContain(deriveKey(seedOfPhrase(phrase.join(" ")), 0).secretKey);
      expect(JSON.parse(text).public.keys[0].publicKey).toBe(key0);

      await page.getByRole("button", { name: "Lock" }).click();
      await page.getByRole("button", { name: "Unlock" }).waitFor();
      await page.reload();
      await page.getByRole("button", { name: "Unlock" }).waitFor();
      await saveGuideScreenshot(page, "wallet-unlock");
      await passwordField(page).fill("not the password");
      await page.getByRole("button", { name: "Unlock" }).click();
      await expect
        .poll(() => page.getByTestId("unlock-problem").textContent(), { timeout: 20_000 })
        .toBe("Wrong password.");
      await passwordField(page).fill(PASSWORD);
      await page.getByRole("button", { name: "Unlock" }).click();
      await page.getByRole("button", { name: "Lock" }).waitFor({ timeout: 20_000 });
      await saveScreenshot(page, "wallet-unlocked");
      expect(env.problems).toEqual([]);
    },
    LONG_TEST_MS,
  );

  it("says a fresh backup is due, links to the Backup page, and stops saying it once a backup holds the wallet", async () => {
    const { page, node } = env;
    await openWallet(page, node);
    const notice = page.getByTestId("wallet-backup-due");
    // Shown while locked too: the keystore is what a backup must hold.
    await expect
      .poll(() => notice.textContent(), { timeout: 20_000 })
      .toContain("A fresh backup is due");
    await unlockIfLocked(page);
    await notice.getByRole("link", { name: "Back up on the Backup page" }).click();
    await page.getByRole("heading", { level: 1, name: "Backup" }).waitFor();
    expect(new URL(page.url()).hash).toBe("#/backup");
    await page.getByTestId("backup-due").waitFor();
    await page.getByTestId("backup-estimate").waitFor();
    await page.getByRole("button", { name: "Back up now" }).click();
    await page
      .getByTestId("backup-status")
      .filter({ hasText: "verified" })
      .waitFor({ timeout: 60_000 });
    await saveGuideScreenshot(page, "backup-page");
    // Back on the wallet (still unlocked: moving between pages keeps it so), no notice.
    await page.getByRole("link", { name: "Wallet", exact: true }).click();
    await page.getByRole("button", { name: "Lock" }).waitFor();
    await page.getByRole("region", { name: "Keys" }).waitFor();
    await expect.poll(() => notice.count(), { timeout: 20_000 }).toBe(0);
    expect(env.problems).toEqual([]);
  });

  it("imports a test account on test-singleton; the changed keys make a backup due again", async () => {
    const { page, node } = env;
    await openWallet(page, node);
    await unlockIfLocked(page);
    expect(await page.getByTestId("wallet-backup-due").count()).toBe(0);
    const sender = DEV_ACCOUNT_KEYS[0];
    await importTestAccount(page, `k:${sender?.publicKey}`);
    expect(await page.getByRole("region", { name: "Keys" }).textContent()).toContain("sender00");
    expect(readFileSync(keystorePath(), "utf8")).not.toContain(sender?.secretKey);
    await page.getByTestId("wallet-backup-due").waitFor({ timeout: 20_000 });
    expect(env.problems).toEqual([]);
  });

  it(
    "imports a weft -g key file, removes it after confirming, shows the phrase with the password, changes the password",
    async () => {
      const { page, node } = env;
      await openWallet(page, node);
      await unlockIfLocked(page);
      const keys = page.getByRole("region", { name: "Keys" });
      await page.getByRole("button", { name: "Import a key" }).click();
      const imported = DEV_ACCOUNT_KEYS[5];
      await page
        .getByLabel("Or a key file")
        .fill(`public: ${imported?.publicKey}\nsecret: ${imported?.secretKey}\n`);
      await page.getByLabel("Label").fill("my key");
      await page.getByRole("button", { name: "Import", exact: true }).click();
      await expect.poll(() => keys.textContent(), { timeout: 20_000 }).toContain("my key");
      await page.getByRole("button", { name: "Remove my key" }).click();
      await page.getByRole("button", { name: "Remove the key" }).click();
      await expect.poll(() => keys.textContent(), { timeout: 20_000 }).not.toContain("my key");
      expect(readFileSync(keystorePath(), "utf8")).not.toContain(imported?.publicKey);

      await page.getByRole("button", { name: "Show recovery phrase" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Password", { exact: true }).fill("wrong password");
      await dialog.getByRole("button", { name: "Show" }).click();
      await expect
        .poll(() => dialog.getByRole("alert").textContent(), { timeout: 20_000 })
        .toBe("Wrong password.");
      await dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await dialog.getByRole("button", { name: "Show" }).click();
      const shown = dialog.getByRole("list", { name: "Recovery phrase" }).getByRole("listitem");
      await shown.first().waitFor({ timeout: 20_000 });
      expect((await shown.allTextContents()).map((w) => w.trim())).toEqual(phrase);
      await dialog.getByRole("button", { name: "Close" }).click();

      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByLabel("Current password").fill(PASSWORD);
      await page.getByLabel("New password").fill(`${PASSWORD}!`);
      await page.getByLabel("Confirm", { exact: true }).fill(`${PASSWORD}!`);
      await page.getByRole("dialog").getByRole("button", { name: "Change password" }).click();
      await page.getByRole("dialog").waitFor({ state: "detached", timeout: 20_000 });
      await page.getByRole("button", { name: "Lock" }).click();
      await passwordField(page).fill(`${PASSWORD}!`);
      await page.getByRole("button", { name: "Unlock" }).click();
      await page.getByRole("button", { name: "Lock" }).waitFor({ timeout: 20_000 });
      expect(env.problems).toEqual([]);
    },
    LONG_TEST_MS,
  );

  it(
    "restores the phrase on a second node with an empty data folder and finds the funded key 1",
    async () => {
      const { node } = env;
      const key1 = deriveKey(seedOfPhrase(phrase.join(" ")), 1).publicKey;
      const account = `k:${key1}`;
      const api = `${node.baseUrl}/chain/0/pact/api/v1`;
      const transfer = signedCommand({
        code: `(coin.transfer-create "sender00" "${account}" (read-keyset "ks") 5.0)`,
        data: { ks: { keys: [key1], pred: "keys-all" } },
        signers: [{ key: 0, caps: transferCaps("sender00", account, "5.0") }],
      });
      const sent = await postJson(`${api}/send`, { cmds: [transfer] });
      expect(sent.status, sent.text).toBe(200);
      await mineOn(node, 0);
      const polled = JSON.parse(
        (await postJson(`${api}/poll`, { requestKeys: [transfer.hash] })).text,
      );
      expect(polled[transfer.hash]?.result?.status).toBe("success");

      // Another computer: a node on an empty data folder that learns the chains from the
      // first one (its peer), and a wallet page that has never seen this wallet.
      const fresh = await env.freshNode({
        p2p: { peers: [new URL(node.origin).host] },
        peerPollIntervalMs: 200,
      });
      const target = cutHeight(node.blocks.cut());
      await expect
        .poll(() => cutHeight(fresh.blocks.cut()), { timeout: 60_000, interval: 200 })
        .toBeGreaterThanOrEqual(target);
      const freshDir = fresh.options.dataDir;
      const page = await env.newPage();
      await openWallet(page, fresh);
      await page.getByRole("button", { name: "Restore a wallet" }).click();
      await page.getByLabel("Recovery phrase").fill(phrase.slice(0, 11).concat("zzz").join(" "));
      await passwordField(page).fill(PASSWORD);
      await page.getByLabel("Confirm", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Restore" }).click();
      await expect
        .poll(() => page.getByText(/is not in the English BIP39 word list/).textContent())
        .toContain('Word 12 ("zzz")');
      await page.getByLabel("Recovery phrase").fill(phrase.join("  "));
      await saveGuideScreenshot(page, "wallet-restore");
      await page.getByRole("button", { name: "Restore" }).click();
      await expect
        .poll(() => page.getByTestId("discovery").textContent(), { timeout: 30_000 })
        .toBe("Found accounts for key 1; it was added.");
      await page.getByTestId("key-p-1").waitFor();
      expect(await page.getByTestId("key-p-1").textContent()).toContain(account);
      expect(
        JSON.parse(readFileSync(keystorePath(freshDir), "utf8")).public.keys.map(
          (k: { id: string }) => k.id,
        ),
      ).toEqual(["p-0", "p-1"]);
      // A restored wallet has no backup on this computer yet.
      await page.getByTestId("wallet-backup-due").waitFor({ timeout: 20_000 });
      await saveScreenshot(page, "wallet-restored");
      expect(env.problems).toEqual([]);
    },
    LONG_TEST_MS,
  );
});
