/**
 * A cross-chain transfer in headless Chromium against the REAL node (test-singleton, a
 * temporary data folder): create a wallet, import sender00, send 5 from chain 0 to sender01's
 * k: account on chain 3 ("Target chain"); the review shows `coin.transfer-crosschain` and
 * `TRANSFER_XCHAIN`; the state goes "Sent on chain 0" → … → "Done" with the node mining, and
 * the balances move by exactly the amount (the fee only on chain 0: the gas station pays step
 * 2). Then the same with the node closed after step 1 and started again on the same folder:
 * the transfer resumes from wallet/pending.json by itself and reaches "Done".
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { readAccounts } from "../../renderer/src/features/wallet/accounts/readAccounts.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { saveScreenshot } from "./support/browser.ts";
import { saveGuideScreenshot } from "./support/guideScreenshot.ts";
import { setUpRealNodePage } from "./support/realNodePage.ts";
import { createWallet, importTestAccount, unlockIfLocked } from "./support/walletSetup.ts";

const ONE = 10n ** 12n;
const S0 = DEV_ACCOUNT_KEYS[0];
const S1 = DEV_ACCOUNT_KEYS[1];
if (S0 === undefined || S1 === undefined) throw new Error("no test accounts");
const FROM = `k:${S0.publicKey}`;
const TO_KEY = S1.publicKey;
const TO = `k:${TO_KEY}`;

const env = setUpRealNodePage({
  name: "xchain",
  mining: { enabled: false, threads: 1, account: `k:${"ef".repeat(32)}` },
});

async function balance(chainId: number, account: string): Promise<bigint> {
  const [a] = await readAccounts(env.pact, "test-singleton", chainId, [account]);
  return a?.exists ? a.balance : -1n;
}

async function createWalletWithTestAccount(page: Page): Promise<void> {
  await createWallet(page, env.node);
  await importTestAccount(page, FROM);
}

/** Fills the Send form for `amount` from chain 0 to chain 3, reviews, signs and sends; the request key. */
async function sendCrossChain(page: Page, amount: string): Promise<string> {
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Send" }).waitFor();
  await page.getByLabel("From", { exact: true }).selectOption({ label: `sender00 — ${FROM}` });
  await page.getByLabel("Chain", { exact: true }).fill("0");
  await page.getByLabel("Target chain", { exact: true }).fill("3");
  await page.getByLabel("Receiver", { exact: true }).fill(TO);
  await expect
    .poll(() => page.getByTestId("receiver-guard").textContent(), { timeout: 20_000 })
    .toContain(`Guard on chain 3: keys-all of 1 key: ${TO_KEY}`);
  await page.getByLabel("Amount", { exact: true }).fill(amount);
  await page.getByRole("button", { name: "Review" }).click();
  await page.getByRole("region", { name: "Review" }).waitFor();
  expect(await page.getByTestId("review-code").textContent()).toBe(
    `(coin.transfer-crosschain "${FROM}" "${TO}" (read-keyset "receiver-guard") "3" ${amount})`,
  );
  expect(
    await page.getByTestId("review-capabilities").getByRole("listitem").allTextContents(),
  ).toEqual([`(coin.TRANSFER_XCHAIN "${FROM}" "${TO}" ${amount} "3")`, "(coin.GAS)"]);
  await page.getByRole("button", { name: "Sign and send" }).click();
  const state = page
    .getByRole("region", { name: "Cross-chain transfers" })
    .getByTestId("xchain-state");
  await expect.poll(() => state.first().textContent(), { timeout: 20_000 }).toBe("Sent on chain 0");
  // The newest transfer is listed first.
  const id =
    (await page
      .getByRole("region", { name: "Cross-chain transfers" })
      .locator(".pending-transfer")
      .first()
      .getAttribute("data-testid")) ?? "";
  return id.replace(/^xchain-/, "");
}

/** Step 1's fee (gas used × the default price) from its result on chain 0. */
async function step1Fee(requestKey: string): Promise<bigint> {
  const polled = await env.pact.poll(0, [requestKey]);
  if (!polled.ok) throw new Error(JSON.stringify(polled.error));
  const r = polled.value.get(requestKey);
  expect(r?.outcome.ok).toBe(true);
  return BigInt(r?.gas ?? 0) * 10_000n;
}

describe("[e2e] a cross-chain transfer against the real node", () => {
  it("reaches Done from chain 0 to chain 3; balances move by exactly the amount, the fee only on chain 0", async () => {
    const { page, node } = env;
    await createWalletWithTestAccount(page);
    const from0 = await balance(0, FROM);
    const to3 = await balance(3, TO);
    const from3 = await balance(3, FROM);
    const requestKey = await sendCrossChain(page, "5.0");
    node.miner.start();
    const state = page.getByTestId(`xchain-${requestKey}`).getByTestId("xchain-state");
    await expect.poll(() => state.textContent(), { timeout: 150_000, interval: 500 }).toBe("Done");
    node.miner.stop();
    await saveScreenshot(page, "wallet-xchain-done");
    await saveGuideScreenshot(page, "wallet-send-crosschain", {
      scrollTo: page.getByRole("region", { name: "Cross-chain transfers" }),
    });
    const fee = await step1Fee(requestKey);
    expect(fee > 0n).toBe(true);
    expect(await balance(0, FROM)).toBe(from0 - 5n * ONE - fee);
    expect(await balance(3, TO)).toBe(to3 + 5n * ONE);
    expect(await balance(3, FROM)).toBe(from3);
    expect(env.problems).toEqual([]);
  }, 240_000);

  it("resumes after the node restarts between step 1 and step 2, and reaches Done", async () => {
    const { page, pact } = env;
    await page.goto(`${env.node.appUrl}#/wallet`);
    await unlockIfLocked(page);
    const to3 = await balance(3, TO);
    const requestKey = await sendCrossChain(page, "2.5");
    // Step 1 is mined, then the node stops before the wallet can finish.
    env.node.miner.start();
    await expect
      .poll(
        async () => {
          const r = await pact.poll(0, [requestKey]);
          return r.ok && r.value.has(requestKey);
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true);
    env.node.miner.stop();
    await page.close();
    const node = await env.restartNode();
    const again = await env.newPage();
    node.miner.start();
    await again.goto(`${node.appUrl}#/wallet/send`);
    const state = again.getByTestId(`xchain-${requestKey}`).getByTestId("xchain-state");
    await expect.poll(() => state.textContent(), { timeout: 150_000, interval: 500 }).toBe("Done");
    node.miner.stop();
    expect(await balance(3, TO)).toBe(to3 + (5n * ONE) / 2n);
    expect(env.problems).toEqual([]);
  }, 300_000);
});
