/**
 * Every page at 400 px against the REAL node (test-singleton, blocks mined on every chain, a
 * wallet with the test account sender00 and one transfer): no page scrolls sideways, no field
 * is narrower than its content, no button's label spills out and no long value wraps into a
 * column of characters (the rules of support/narrowLayout.ts). Each page's state is checked
 * where the user meets it: the first run, the recovery phrase, restore, the locked wallet, the
 * accounts, the send form filled in and its review, and each Explorer, Backup and Node page.
 * Screenshots of each, light and dark at 400 and 1280 px, go to test/e2e/artifacts/narrow/.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { signedCommand, transferCaps } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { saveScreenshot } from "./support/browser.ts";
import { GUIDE_VIEWPORT } from "./support/guideScreenshot.ts";
import { layoutProblems, NARROW_VIEWPORT } from "./support/narrowLayout.ts";
import { setUpRealNodePage } from "./support/realNodePage.ts";
import {
  askWords,
  choosePassword,
  importTestAccount,
  openWallet,
  passwordField,
  showNewPhrase,
  typeBackWords,
} from "./support/walletSetup.ts";

const CHAINS = 10;
const S0 = DEV_ACCOUNT_KEYS[0];
const S1 = DEV_ACCOUNT_KEYS[1];
if (S0 === undefined || S1 === undefined) throw new Error("no test accounts");
const FROM = `k:${S0.publicKey}`;
const TO = `k:${S1.publicKey}`;

const env = setUpRealNodePage({
  name: "narrow",
  mining: { enabled: false, threads: 1 },
  // A 404 the page expects (an unknown transaction) is logged by the browser, not the app.
  ignoreConsole: (text) => text.includes("404 (Not Found)"),
});

async function mineRound(): Promise<void> {
  for (let c = 0; c < CHAINS; c++) await mineOn(env.node, c);
}

/** The faults of every page checked so far, as "<page>: <fault>". */
const found: string[] = [];

/** Checks the page at 400 px; with WEFT_NARROW_SHOTS=1 also saves it light/dark, narrow/wide. */
async function check(page: Page, name: string): Promise<void> {
  await page.setViewportSize(NARROW_VIEWPORT);
  // Layout settles after a resize (container queries, charts measuring their box).
  await page.waitForTimeout(150);
  for (const p of await layoutProblems(page)) found.push(`${name}: ${p}`);
  if (process.env.WEFT_NARROW_SHOTS === "1") {
    for (const [scheme, viewport] of [
      ["light", NARROW_VIEWPORT],
      ["dark", NARROW_VIEWPORT],
      ["light", GUIDE_VIEWPORT],
      ["dark", GUIDE_VIEWPORT],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await saveScreenshot(page, `narrow/${name}-${scheme}-${viewport.width}`);
      if (viewport.width === NARROW_VIEWPORT.width) {
        const height = await page.evaluate<number>("document.documentElement.scrollHeight");
        for (let y = 0, i = 0; y < height; y += 1000, i++) {
          await page.screenshot({
            path: `test/e2e/artifacts/narrow/parts/${name}-${scheme}-${i}.png`,
            fullPage: true,
            clip: { x: 0, y, width: NARROW_VIEWPORT.width, height: Math.min(1000, height - y) },
          });
        }
      }
    }
    await page.emulateMedia({ colorScheme: null });
    await page.setViewportSize(NARROW_VIEWPORT);
  }
}

async function go(page: Page, hash: string, h1: string | RegExp): Promise<void> {
  await page.goto(`${env.node.appUrl}${hash}`);
  await page.getByRole("heading", { level: 1, name: h1 }).waitFor();
}

describe("[e2e] every page at 400 px", () => {
  it("scrolls no page sideways, squeezes no field, wraps no long value into a column", async () => {
    const { page, node } = env;
    await page.setViewportSize(NARROW_VIEWPORT);
    await mineRound();
    const key = await (async () => {
      const res = await fetch(`${node.baseUrl}/chain/2/pact/api/v1/send`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          cmds: [
            signedCommand({
              code: `(coin.transfer "sender00" "${TO}" 1.5)`,
              chainId: 2,
              signers: [{ key: 0, caps: transferCaps("sender00", TO, "1.5") }],
            }),
          ],
        }),
      });
      return ((await res.json()) as { requestKeys: string[] }).requestKeys[0] as string;
    })();
    await mineRound();
    await mineRound();

    await go(page, "#/node", "Node");
    await page.getByTestId(`height-${CHAINS - 1}`).waitFor();
    await check(page, "node");

    // The wallet's first run, its phrase, restore.
    await openWallet(page, node);
    await check(page, "wallet-first-run");
    await page.getByRole("button", { name: "Restore a wallet" }).click();
    await page
      .getByRole("heading", { name: /Restore/ })
      .first()
      .waitFor();
    await check(page, "wallet-restore");
    await page.getByRole("button", { name: "Cancel" }).click();
    const phrase = await showNewPhrase(page);
    await check(page, "wallet-phrase");
    await askWords(page);
    await check(page, "wallet-words");
    await typeBackWords(page, phrase);
    await check(page, "wallet-password");
    await choosePassword(page);
    await importTestAccount(page, FROM);
    await expect
      .poll(() => page.getByTestId(`balance-${FROM}-0`).textContent(), { timeout: 20_000 })
      .not.toBe("");
    await check(page, "wallet-accounts");

    await go(page, `#/wallet/account/${FROM}`, /./);
    await check(page, "wallet-account");

    await go(page, "#/wallet/send", "Send");
    await check(page, "wallet-send-empty");
    await page.getByLabel("From", { exact: true }).selectOption({ label: `sender00 — ${FROM}` });
    await page.getByLabel("Chain", { exact: true }).fill("0");
    await page.getByLabel("Receiver", { exact: true }).fill(TO);
    await page.getByTestId("receiver-guard").waitFor({ timeout: 20_000 });
    await page.getByLabel("Amount", { exact: true }).fill("12.5");
    await check(page, "wallet-send-filled");
    await page.getByRole("button", { name: "Review" }).click();
    await page.getByRole("region", { name: "Review" }).waitFor();
    await check(page, "wallet-send-review");
    await page.getByRole("button", { name: "Prepare for others to sign" }).click();
    const prepared = (await page.getByTestId("prepared-tx").textContent()) ?? "";
    await check(page, "wallet-send-prepared");
    await page.getByRole("button", { name: "Sign and send" }).click();
    await expect
      .poll(() => page.getByTestId("transfer-status").textContent(), { timeout: 20_000 })
      .toMatch(/^Pending/);
    await check(page, "wallet-send-status");

    // A prepared transaction pasted into "Sign a transaction": its review.
    await go(page, "#/wallet/sign", /Sign/);
    await page.getByLabel("Transaction", { exact: true }).fill(prepared);
    await page.getByTestId("sign-signers").waitFor({ timeout: 20_000 });
    await check(page, "wallet-sign-review");

    for (const [hash, h1, name] of [
      ["#/wallet/multisig", /Multi-signature/, "wallet-multisig"],
      ["#/wallet/history", "History", "wallet-history"],
      ["#/wallet/dapp", /./, "wallet-dapp"],
      [`#/wallet/finish/${key}`, /./, "wallet-finish"],
      ["#/backup", "Backup", "backup"],
      ["#/explorer", "Braid", "explorer-braid"],
      ["#/explorer/chain/2", "Chain 2", "explorer-chain"],
      [`#/explorer/tx/${key}`, "Transaction", "explorer-transaction"],
      ["#/explorer/account/sender00", "Account", "explorer-account"],
      [`#/explorer/account/${FROM}`, "Account", "explorer-account-k"],
      ["#/explorer/module/coin", "Module", "explorer-module"],
      ["#/explorer/search/nothing-here", "Search", "explorer-search"],
      ["#/nowhere", "Page not found", "not-found"],
    ] as const) {
      await go(page, hash, h1);
      await page.waitForTimeout(500);
      await check(page, name);
    }
    await go(page, `#/explorer/tx/${key}`, "Transaction");
    await page.getByTestId("tx-block").click();
    await page.getByRole("heading", { level: 1, name: /^Block/ }).waitFor();
    await check(page, "explorer-block");

    // A backup in the Backup page's list.
    await go(page, "#/backup", "Backup");
    await page.getByRole("button", { name: "Back up now" }).click();
    await page.getByRole("table", { name: /Backups/ }).waitFor({ timeout: 60_000 });
    await check(page, "backup-list");

    // The locked wallet.
    await openWallet(page, node);
    await page.getByRole("button", { name: "Lock" }).click();
    await passwordField(page).waitFor();
    await check(page, "wallet-locked");
    await page.getByRole("button", { name: "I forgot my password" }).click();
    await page.getByTestId("wallet-backup-offer").waitFor();
    await check(page, "wallet-forgot");

    expect(found).toEqual([]);
    expect(env.problems).toEqual([]);
  }, 300_000);
});
