/**
 * Accounts and a transfer in headless Chromium against the REAL node (test-singleton, mining
 * off, a temporary data folder): create a wallet, import the test account sender00, see its
 * balance on every chain; send 12.5 to sender01's k: account on chain 0 (review shows the
 * exact capabilities), sign and send, see it pending with the offer to turn mining on, turn
 * it on, see it confirmed with its block height; both balances change by exactly the amount
 * and the fee (gas used × gas price), on the node and on the wallet's home. Then an amount
 * beyond the balance is refused before signing and "Max" fills balance minus the most gas
 * can cost.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { readAccounts } from "../../renderer/src/features/wallet/accounts/readAccounts.ts";
import { formatAmount } from "../../renderer/src/format/amount.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { saveScreenshot } from "./support/browser.ts";
import { saveGuideScreenshot } from "./support/guideScreenshot.ts";
import { setUpRealNodePage } from "./support/realNodePage.ts";
import {
  createWallet,
  importTestAccount,
  openWallet,
  unlockIfLocked,
} from "./support/walletSetup.ts";

const ONE = 10n ** 12n;
const S0 = DEV_ACCOUNT_KEYS[0];
const S1 = DEV_ACCOUNT_KEYS[1];
if (S0 === undefined || S1 === undefined) throw new Error("no test accounts");
const FROM = `k:${S0.publicKey}`;
const TO = `k:${S1.publicKey}`;

/** A real node mining and confirming on a busy machine: more than the 60 s default. */
const LONG_TEST_MS = 120_000;

const env = setUpRealNodePage({
  name: "send",
  mining: { enabled: false, threads: 1, account: `k:${"ef".repeat(32)}` },
});

async function balancesOnNode(chainId: number): Promise<bigint[]> {
  const read = await readAccounts(env.pact, "test-singleton", chainId, [FROM, TO]);
  return read.map((a) => (a.exists ? a.balance : -1n));
}

/** Creates a wallet through the first-run pages and imports sender00. */
async function createWalletWithTestAccount(page: Page): Promise<void> {
  await createWallet(page, env.node);
  await importTestAccount(page, FROM);
}

describe("[e2e] accounts and a transfer against the real node", () => {
  it(
    "shows balances, sends on one chain, confirms after mining, moves exactly amount and fee",
    async () => {
      const { page, node, pact } = env;
      await createWalletWithTestAccount(page);
      // The home lists the account's balance on every chain (10 on test-singleton).
      for (const c of [0, 9]) {
        await expect
          .poll(() => page.getByTestId(`balance-${FROM}-${c}`).textContent(), { timeout: 20_000 })
          .toBe("1,000,000");
      }
      await expect.poll(() => page.getByTestId(`total-${FROM}`).textContent()).toBe("10,000,000");
      await saveGuideScreenshot(page, "wallet-accounts", { top: true });

      const [fromBefore = 0n, toBefore = 0n] = await balancesOnNode(0);
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Send" }).waitFor();
      expect(new URL(page.url()).hash).toBe("#/wallet/send");
      await page.getByLabel("From", { exact: true }).selectOption({ label: `sender00 — ${FROM}` });
      await page.getByLabel("Chain", { exact: true }).fill("0");
      await page.getByLabel("Receiver", { exact: true }).fill(TO);
      await expect
        .poll(() => page.getByTestId("receiver-guard").textContent(), { timeout: 20_000 })
        .toContain(`keys-all of 1 key: ${S1.publicKey}`);
      await page.getByLabel("Amount", { exact: true }).fill("12.5");
      await page.getByRole("button", { name: "Review" }).click();

      await page.getByRole("region", { name: "Review" }).waitFor();
      expect(await page.getByTestId("review-network").textContent()).toBe("test-singleton");
      expect(await page.getByTestId("review-chain").textContent()).toBe("0");
      expect(await page.getByTestId("review-code").textContent()).toBe(
        `(coin.transfer "${FROM}" "${TO}" 12.5)`,
      );
      expect(
        await page.getByTestId("review-capabilities").getByRole("listitem").allTextContents(),
      ).toEqual([`(coin.TRANSFER "${FROM}" "${TO}" 12.5)`, "(coin.GAS)"]);
      expect(await page.getByTestId("review-gas").textContent()).toContain("2,500 × 0.00000001");
      await saveScreenshot(page, "wallet-send-review");
      await saveGuideScreenshot(page, "wallet-send-review");
      await page.getByRole("button", { name: "Sign and send" }).click();

      const status = page.getByTestId("transfer-status");
      await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/^Pending/);
      const requestKey = (await page.getByTestId("request-key").textContent())?.trim();
      // Leaving the Send page keeps the transfer's status: back on it, it is shown again.
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: "Explorer" })
        .click();
      await page.getByRole("heading", { level: 1, name: "Braid" }).waitFor();
      await page.goBack();
      await page.getByRole("heading", { level: 1, name: "Send" }).waitFor();
      await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/^Pending/);
      expect((await page.getByTestId("request-key").textContent())?.trim()).toBe(requestKey);
      await page.getByRole("button", { name: "Turn mining on" }).click();
      await expect
        .poll(() => status.textContent(), { timeout: 60_000 })
        .toMatch(/^Confirmed in block \d+ of chain 0$/);
      node.miner.stop();
      await saveScreenshot(page, "wallet-send-confirmed");
      await saveGuideScreenshot(page, "wallet-send-confirmed");
      expect(
        await page
          .getByRole("link", { name: "See the transaction in the explorer" })
          .getAttribute("href"),
      ).toBe(`/app/#/explorer/tx/${requestKey}`);

      // Exactly the amount and the fee, read from the node.
      const polled = await pact.poll(0, [requestKey ?? ""]);
      if (!polled.ok) throw new Error(JSON.stringify(polled.error));
      const result = polled.value.get(requestKey ?? "");
      expect(result?.outcome.ok).toBe(true);
      const fee = BigInt(result?.gas ?? 0) * 10_000n;
      expect(fee > 0n).toBe(true);
      const amount = 12n * ONE + ONE / 2n;
      expect(await balancesOnNode(0)).toEqual([fromBefore - amount - fee, toBefore + amount]);

      // And the wallet's home shows the sender's new balance.
      await openWallet(page, node);
      await unlockIfLocked(page);
      await expect
        .poll(() => page.getByTestId(`balance-${FROM}-0`).textContent(), { timeout: 20_000 })
        .toBe(formatAmount(fromBefore - amount - fee, 12));
      expect(env.problems).toEqual([]);
    },
    LONG_TEST_MS,
  );

  it("refuses an amount beyond the balance before signing; Max leaves the most gas can cost", async () => {
    const { page, node } = env;
    await page.goto(`${node.appUrl}#/wallet`);
    await unlockIfLocked(page);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Send" }).waitFor();
    await page.getByLabel("From", { exact: true }).selectOption({ label: `sender00 — ${FROM}` });
    await page.getByLabel("Chain", { exact: true }).fill("3");
    await page.getByLabel("Receiver", { exact: true }).fill(TO);
    await page.getByTestId("receiver-guard").waitFor({ timeout: 20_000 });
    await page.getByLabel("Amount", { exact: true }).fill("1000000");
    await page.getByRole("button", { name: "Review" }).click();
    await expect
      .poll(() => page.getByRole("textbox", { name: "Amount" }).getAttribute("aria-invalid"))
      .toBe("true");
    expect(await page.getByText(/are more than the balance/).count()).toBe(1);
    expect(await page.getByRole("region", { name: "Review" }).count()).toBe(0);
    await page.getByRole("button", { name: "Max" }).click();
    expect(await page.getByLabel("Amount", { exact: true }).inputValue()).toBe("999999.999975");
    await page.getByRole("button", { name: "Review" }).click();
    await page.getByRole("region", { name: "Review" }).waitFor();
    expect(await page.getByTestId("review-amount").textContent()).toBe("999,999.999975");
    expect(env.problems).toEqual([]);
  });
});
