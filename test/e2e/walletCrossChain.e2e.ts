/**
 * A cross-chain transfer in headless Chromium against the REAL node (test-singleton, a
 * temporary data folder): create a wallet, import sender00, send 5 from chain 0 to sender01's
 * k: account on chain 3 ("Target chain"); the review shows `coin.transfer-crosschain` and
 * `TRANSFER_XCHAIN`; the state goes "Sent on chain 0" → … → "Done" with the node mining, and
 * the balances move by exactly the amount (the fee only on chain 0: the gas station pays step
 * 2). Then the same with the node closed after step 1 and started again on the same folder:
 * the transfer resumes from wallet/pending.json by itself and reaches "Done".
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { createPactClient, type PactClient } from "../../renderer/src/api/pactClient.ts";
import { readAccounts } from "../../renderer/src/features/wallet/accounts/readAccounts.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { launchChromium, saveScreenshot } from "./support/browser.ts";

const PASSWORD = "a long password";
const ONE = 10n ** 12n;
const S0 = DEV_ACCOUNT_KEYS[0];
const S1 = DEV_ACCOUNT_KEYS[1];
if (S0 === undefined || S1 === undefined) throw new Error("no test accounts");
const FROM = `k:${S0.publicKey}`;
const TO_KEY = S1.publicKey;
const TO = `k:${TO_KEY}`;

let dataDir: string;
let node: WeftNode;
let pact: PactClient;
let browser: Browser;
let page: Page;
let problems: string[];

async function startNode(): Promise<void> {
  node = await createNode({
    network: "test-singleton",
    dataDir,
    host: "127.0.0.1",
    port: 0,
    rendererDir: inject("rendererDir"),
    mining: { enabled: false, threads: 1, account: `k:${"ef".repeat(32)}` },
  });
  pact = createPactClient({ baseUrl: node.baseUrl, fetch: (url, init) => fetch(url, init) });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "weft-e2e-xchain-"));
  await startNode();
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

const password = () => page.getByLabel("Password", { exact: true });

async function balance(chainId: number, account: string): Promise<bigint> {
  const [a] = await readAccounts(pact, "test-singleton", chainId, [account]);
  return a?.exists ? a.balance : -1n;
}

async function createWalletWithTestAccount(): Promise<void> {
  await page.goto(`${node.appUrl}#/wallet`);
  await page.getByRole("heading", { level: 1, name: "Wallet" }).waitFor();
  await page.getByRole("button", { name: "Create a wallet" }).click();
  const list = page.getByRole("list", { name: "Recovery phrase" });
  await list.waitFor();
  const phrase = (await list.getByRole("listitem").allTextContents()).map((w) => w.trim());
  await page.getByRole("button", { name: "I have written them down" }).click();
  const wordInputs = page.getByLabel(/^Word \d+$/);
  await wordInputs.first().waitFor();
  for (let i = 0; i < (await wordInputs.count()); i++) {
    const input = wordInputs.nth(i);
    const label = await page
      .locator(`label[for="${await input.getAttribute("id")}"]`)
      .textContent();
    await input.fill(phrase[Number(label?.replace("Word ", "")) - 1] ?? "");
  }
  await page.getByRole("button", { name: "Confirm words" }).click();
  await password().fill(PASSWORD);
  await page.getByLabel("Confirm", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create the wallet" }).click();
  await page.getByRole("button", { name: "Lock" }).waitFor({ timeout: 30_000 });
  await page.getByRole("button", { name: "Import a test account" }).click();
  await expect
    .poll(() => page.getByRole("region", { name: "Keys" }).textContent(), { timeout: 20_000 })
    .toContain(FROM);
}

async function unlockIfLocked(): Promise<void> {
  const unlock = page.getByRole("button", { name: "Unlock" });
  const lock = page.getByRole("button", { name: "Lock" });
  await Promise.race([unlock.waitFor(), lock.waitFor()]);
  if (await unlock.isVisible()) {
    await password().fill(PASSWORD);
    await unlock.click();
    await lock.waitFor({ timeout: 30_000 });
  }
}

/** Fills the Send form for `amount` from chain 0 to chain 3, reviews, signs and sends; the request key. */
async function sendCrossChain(amount: string): Promise<string> {
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
  const polled = await pact.poll(0, [requestKey]);
  if (!polled.ok) throw new Error(JSON.stringify(polled.error));
  const r = polled.value.get(requestKey);
  expect(r?.outcome.ok).toBe(true);
  return BigInt(r?.gas ?? 0) * 10_000n;
}

describe("[e2e] a cross-chain transfer against the real node", () => {
  it("reaches Done from chain 0 to chain 3; balances move by exactly the amount, the fee only on chain 0", async () => {
    await createWalletWithTestAccount();
    const from0 = await balance(0, FROM);
    const to3 = await balance(3, TO);
    const from3 = await balance(3, FROM);
    const requestKey = await sendCrossChain("5.0");
    node.miner.start();
    const state = page.getByTestId(`xchain-${requestKey}`).getByTestId("xchain-state");
    await expect.poll(() => state.textContent(), { timeout: 150_000, interval: 500 }).toBe("Done");
    node.miner.stop();
    await saveScreenshot(page, "wallet-xchain-done");
    const fee = await step1Fee(requestKey);
    expect(fee > 0n).toBe(true);
    expect(await balance(0, FROM)).toBe(from0 - 5n * ONE - fee);
    expect(await balance(3, TO)).toBe(to3 + 5n * ONE);
    expect(await balance(3, FROM)).toBe(from3);
    expect(problems).toEqual([]);
  }, 240_000);

  it("resumes after the node restarts between step 1 and step 2, and reaches Done", async () => {
    await page.goto(`${node.appUrl}#/wallet`);
    await unlockIfLocked();
    const to3 = await balance(3, TO);
    const requestKey = await sendCrossChain("2.5");
    // Step 1 is mined, then the node stops before the wallet can finish.
    node.miner.start();
    await expect
      .poll(
        async () => {
          const r = await pact.poll(0, [requestKey]);
          return r.ok && r.value.has(requestKey);
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true);
    node.miner.stop();
    await page.close();
    await node.close();

    await startNode();
    page = await browser.newPage();
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    node.miner.start();
    await page.goto(`${node.appUrl}#/wallet/send`);
    const state = page.getByTestId(`xchain-${requestKey}`).getByTestId("xchain-state");
    await expect.poll(() => state.textContent(), { timeout: 150_000, interval: 500 }).toBe("Done");
    node.miner.stop();
    expect(await balance(3, TO)).toBe(to3 + (5n * ONE) / 2n);
    expect(problems).toEqual([]);
  }, 300_000);
});
