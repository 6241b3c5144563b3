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
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { deriveKey, seedOfPhrase } from "../../renderer/src/features/wallet/keystore/derivation.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { signedCommand, transferCaps } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { postJson } from "../support/postJson.ts";
import { launchChromium, saveScreenshot } from "./support/browser.ts";

const PASSWORD = "a long password";
let dataDir: string;
let node: WeftNode;
let browser: Browser;
let page: Page;
let problems: string[];
/** The phrase created by the first test, restored by the last. */
let phrase: string[] = [];

const keystorePath = () => join(dataDir, "test-singleton", "wallet", "keystore.json");

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "weft-e2e-wallet-"));
  node = await createNode({
    network: "test-singleton",
    dataDir,
    host: "127.0.0.1",
    port: 0,
    rendererDir: inject("rendererDir"),
    mining: { enabled: false, threads: 1, account: `k:${"ef".repeat(32)}` },
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await node?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  page = await browser.newPage();
  problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(e.message));
});
afterEach(async () => {
  await page?.close();
});

async function openWallet(): Promise<void> {
  await page.goto(`${node.appUrl}#/wallet`);
  await page.getByRole("heading", { level: 1, name: "Wallet" }).waitFor();
}

const password = () => page.getByLabel("Password", { exact: true });

describe("[e2e] wallet keys against the real node", () => {
  it("creates a wallet, confirms three words, locks, reloads, refuses a wrong password, unlocks", async () => {
    await openWallet();
    await page.getByRole("button", { name: "Create a wallet" }).click();
    const list = page.getByRole("list", { name: "Recovery phrase" });
    await list.waitFor();
    phrase = (await list.getByRole("listitem").allTextContents()).map((w) => w.trim());
    expect(phrase).toHaveLength(12);
    await page.getByRole("button", { name: "I have written them down" }).click();
    const wordInputs = page.getByLabel(/^Word \d+$/);
    await wordInputs.first().waitFor();
    expect(await wordInputs.count()).toBe(3);
    // The words are gone from the page while they are asked.
    expect(await page.getByRole("list", { name: "Recovery phrase" }).count()).toBe(0);
    for (let i = 0; i < 3; i++) {
      const input = wordInputs.nth(i);
      const label = await page
        .locator(`label[for="${await input.getAttribute("id")}"]`)
        .textContent();
      const n = Number(label?.replace("Word ", ""));
      await input.fill(phrase[n - 1] ?? "");
    }
    await page.getByRole("button", { name: "Confirm words" }).click();
    await password().fill(PASSWORD);
    await page.getByLabel("Confirm", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Create the wallet" }).click();
    await page.getByRole("button", { name: "Lock" }).waitFor({ timeout: 20_000 });
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
    await password().fill("not the password");
    await page.getByRole("button", { name: "Unlock" }).click();
    await expect
      .poll(() => page.getByTestId("unlock-problem").textContent(), { timeout: 20_000 })
      .toBe("Wrong password.");
    await password().fill(PASSWORD);
    await page.getByRole("button", { name: "Unlock" }).click();
    await page.getByRole("button", { name: "Lock" }).waitFor({ timeout: 20_000 });
    await saveScreenshot(page, "wallet-unlocked");
    expect(problems).toEqual([]);
  });

  it("imports a test account on test-singleton", async () => {
    await openWallet();
    await password().fill(PASSWORD);
    await page.getByRole("button", { name: "Unlock" }).click();
    await page.getByRole("button", { name: "Import a test account" }).click();
    const sender = DEV_ACCOUNT_KEYS[0];
    await expect
      .poll(() => page.getByRole("region", { name: "Keys" }).textContent(), { timeout: 20_000 })
      .toContain(`k:${sender?.publicKey}`);
    expect(await page.getByRole("region", { name: "Keys" }).textContent()).toContain("sender00");
    expect(readFileSync(keystorePath(), "utf8")).not.toContain(sender?.secretKey);
    expect(problems).toEqual([]);
  });

  it("imports a weft -g key file, removes it after confirming, shows the phrase with the password, changes the password", async () => {
    await openWallet();
    await password().fill(PASSWORD);
    await page.getByRole("button", { name: "Unlock" }).click();
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
    await password().fill(`${PASSWORD}!`);
    await page.getByRole("button", { name: "Unlock" }).click();
    await page.getByRole("button", { name: "Lock" }).waitFor({ timeout: 20_000 });
    expect(problems).toEqual([]);
  });

  it("restores the phrase into a fresh wallet folder and finds the funded key 1", async () => {
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

    rmSync(join(dataDir, "test-singleton", "wallet"), { recursive: true });
    await openWallet();
    await page.getByRole("button", { name: "Restore a wallet" }).click();
    await page.getByLabel("Recovery phrase").fill(phrase.slice(0, 11).concat("zzz").join(" "));
    await password().fill(PASSWORD);
    await page.getByLabel("Confirm", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Restore" }).click();
    await expect
      .poll(() => page.getByText(/is not in the English BIP39 word list/).textContent())
      .toContain('Word 12 ("zzz")');
    await page.getByLabel("Recovery phrase").fill(phrase.join("  "));
    await page.getByRole("button", { name: "Restore" }).click();
    await expect
      .poll(() => page.getByTestId("discovery").textContent(), { timeout: 30_000 })
      .toBe("Found accounts for key 1; it was added.");
    await page.getByTestId("key-p-1").waitFor();
    expect(await page.getByTestId("key-p-1").textContent()).toContain(account);
    expect(
      JSON.parse(readFileSync(keystorePath(), "utf8")).public.keys.map((k: { id: string }) => k.id),
    ).toEqual(["p-0", "p-1"]);
    await saveScreenshot(page, "wallet-restored");
    expect(problems).toEqual([]);
  });
});
