/**
 * A 2-of-2 multi-signature transfer in headless Chromium, signed in two wallets with two data
 * folders: node A (test-singleton, mining) holds wallet A (sender00 imported), node B (its own
 * data folder, not mining, not connected) holds wallet B (a fresh phrase's Key 0). Wallet A
 * creates a keys-all account of sender00's key and B's key on chain 0 (paid by sender00), funds
 * it with a plain Send, prepares a transfer from it and signs with its key; the SigData goes to
 * wallet B, which signs on "Sign a transaction" and saves the file; wallet A opens it on "Sign a
 * transaction" with every signature present and sends it. The balances move by exactly the
 * amount and the fee; History lists the transfer as succeeded (and the account creation), and
 * its CSV export holds it; a transaction made elsewhere is added by its request key.
 */
import { readFileSync } from "node:fs";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { PactClient } from "../../renderer/src/api/pactClient.ts";
import { readAccounts } from "../../renderer/src/features/wallet/accounts/readAccounts.ts";
import { commandModel } from "../../src-node/command/commandModel.ts";
import { JsonNumber } from "../../src-node/command/exactJson.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import type { WeftNode } from "../../src-node/node.ts";
import { saveScreenshot } from "./support/browser.ts";
import { saveGuideScreenshot } from "./support/guideScreenshot.ts";
import { setUpRealNodePage } from "./support/realNodePage.ts";
import { createWallet, importTestAccount } from "./support/walletSetup.ts";

const ONE = 10n ** 12n;
const S0 = DEV_ACCOUNT_KEYS[0];
const S1 = DEV_ACCOUNT_KEYS[1];
if (S0 === undefined || S1 === undefined) throw new Error("no test accounts");
const FROM = `k:${S0.publicKey}`;
const TO = `k:${S1.publicKey}`;

/** Node A: mining, wallet A's; node B (`freshNode`): its own data folder, wallet B's. */
const real = setUpRealNodePage({
  name: "multisig",
  mining: { enabled: true, threads: 1, account: `k:${"ef".repeat(32)}` },
});
let nodeA: WeftNode;
let nodeB: WeftNode;
let pact: PactClient;

beforeAll(async () => {
  nodeA = real.node;
  nodeB = await real.freshNode();
  pact = real.pact;
});

/** Creates a wallet on `node` in `page`; its Key 0's public key. */
async function createWalletKey(page: Page, node: WeftNode): Promise<string> {
  await createWallet(page, node);
  const keys = page.getByRole("region", { name: "Keys" });
  await expect.poll(() => keys.textContent(), { timeout: 20_000 }).toMatch(/k:[0-9a-f]{64}/);
  const key = /k:([0-9a-f]{64})/.exec((await keys.textContent()) ?? "")?.[1];
  if (key === undefined) throw new Error("no Key 0");
  return key;
}

/** WCAG A/AA violations on the page now (every page meets them, test/e2e/accessibility.e2e.ts). */
async function axeViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`);
}

async function balance(account: string): Promise<bigint> {
  const [a] = await readAccounts(pact, "test-singleton", 0, [account]);
  return a?.exists ? a.balance : -1n;
}

describe("[e2e] a 2-of-2 multi-signature account, signed in two wallets", () => {
  it("creates it, funds it, signs a transfer here and there, sends it; History and its CSV list it", async () => {
    const a = real.page;
    const b = await real.anotherPage();
    const problems = real.problems;
    await createWallet(a, nodeA);
    await importTestAccount(a, FROM);
    const keyB = await createWalletKey(b, nodeB);

    // Wallet A: the account of sender00's key and B's key, keys-all, on chain 0.
    await a.getByRole("button", { name: "Multi-signature" }).click();
    await a.getByRole("heading", { level: 1, name: "Multi-signature accounts" }).waitFor();
    expect(new URL(a.url()).hash).toBe("#/wallet/multisig");
    await a.getByLabel("Public keys").fill(keyB);
    await a.getByRole("checkbox", { name: /^sender00/ }).check();
    await a.getByLabel("Who signs").selectOption("keys-all");
    await a.getByLabel("Chains", { exact: true }).fill("0");
    await a.getByLabel("Paid by").selectOption({ label: `sender00 — ${FROM}` });
    const name = (await a.getByTestId("multisig-name").textContent()) ?? "";
    expect(name).toMatch(/^w:[A-Za-z0-9_-]{43}:keys-all$/);
    // Nothing is signed before the review: network, chain, code, guard, payer, gas.
    await a.getByRole("button", { name: "Review" }).click();
    const createReview = a.getByTestId("multisig-create-review");
    await createReview.waitFor();
    expect(await createReview.textContent()).toContain(`(coin.create-account "${name}"`);
    expect(await createReview.textContent()).toContain(
      `keys-all of ${[S0.publicKey, keyB].sort().join(", ")}`,
    );
    expect(await a.getByTestId("multisig-create-outcomes").count()).toBe(0);
    await a.getByRole("button", { name: "Create the account" }).click();
    const outcomes = a.getByTestId("multisig-create-outcomes");
    await expect
      .poll(() => outcomes.textContent(), { timeout: 30_000 })
      .toMatch(/Chain 0: (Sent, waiting for a block|Created in block)/);
    // The status follows the transaction to its block.
    await expect
      .poll(() => outcomes.textContent(), { timeout: 90_000 })
      .toMatch(/^Chain 0: Created in block \d+$/);
    await expect.poll(() => balance(name), { timeout: 90_000 }).toBe(0n);
    const [onChain] = await readAccounts(pact, "test-singleton", 0, [name]);
    expect(onChain?.exists && onChain.guard).toEqual({
      kind: "keyset",
      keys: [S0.publicKey, keyB].sort(),
      pred: "keys-all",
    });

    // Funded with a plain transfer from sender00.
    await a.goto(`${nodeA.appUrl}#/wallet/send`);
    await a.getByLabel("From", { exact: true }).selectOption({ label: `sender00 — ${FROM}` });
    await a.getByLabel("Chain", { exact: true }).fill("0");
    await a.getByLabel("Receiver", { exact: true }).fill(name);
    await a.getByTestId("receiver-guard").waitFor({ timeout: 20_000 });
    await a.getByLabel("Amount", { exact: true }).fill("10");
    await a.getByRole("button", { name: "Review" }).click();
    await a.getByRole("button", { name: "Sign and send" }).click();
    await expect
      .poll(() => a.getByTestId("transfer-status").textContent(), { timeout: 90_000 })
      .toMatch(/^Confirmed in block/);
    expect(await balance(name)).toBe(10n * ONE);

    // Wallet A prepares 2.5 to sender01 and signs with sender00's key.
    await a.goto(`${nodeA.appUrl}#/wallet/multisig`);
    const transfer = a.getByRole("region", { name: "Send from a multi-signature account" });
    await transfer.waitFor();
    await transfer.getByLabel("Chain", { exact: true }).fill("0");
    await transfer.getByLabel("Receiver", { exact: true }).fill(TO);
    await transfer.getByLabel("Amount", { exact: true }).fill("2.5");
    await expect
      .poll(() => transfer.textContent(), { timeout: 20_000 })
      .toContain("Balance on this chain: 10");
    await transfer.getByRole("button", { name: "Review" }).click();
    const review = a.getByRole("region", { name: "Review" });
    await review.waitFor();
    const signers = (await a.getByTestId("multisig-signers").textContent()) ?? "";
    expect(signers).toContain(`${S0.publicKey} held here (sender00)`);
    expect(signers).toContain(`${keyB} not held by this wallet`);
    const hash = (await a.getByTestId("multisig-hash").textContent()) ?? "";
    expect(hash).toHaveLength(43);
    await review.getByRole("button", { name: "Sign", exact: true }).click();
    await expect
      .poll(() => a.getByTestId("multisig-summary").textContent(), { timeout: 20_000 })
      .toContain("Signed with this wallet's keys");
    expect(await review.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);
    const halfSigned = (await a.getByTestId("multisig-output").textContent()) ?? "";
    const half = JSON.parse(halfSigned) as {
      hash: string;
      sigs: { pubKey: string; sig: string | null }[];
    };
    expect(half.hash).toBe(hash);
    expect(half.sigs.filter((s) => s.sig !== null).map((s) => s.pubKey)).toEqual([S0.publicKey]);
    await saveScreenshot(a, "wallet-multisig-prepared");
    await saveGuideScreenshot(a, "wallet-multisig", { scrollTo: review });
    expect(await axeViolations(a)).toEqual([]);

    // Wallet B (its own node and data folder) signs with its key and saves the file.
    await b.goto(`${nodeB.appUrl}#/wallet/sign`);
    await b.getByLabel("Transaction", { exact: true }).fill(halfSigned);
    await b.getByTestId("sign-review").waitFor();
    expect(await b.getByTestId("sign-summary").textContent()).toContain(
      "holds 1 of the missing keys",
    );
    await b.getByRole("button", { name: "Sign", exact: true }).click();
    await expect
      .poll(() => b.getByTestId("sign-summary").textContent(), { timeout: 20_000 })
      .toContain("Every signature is present");
    const [download] = await Promise.all([
      b.waitForEvent("download"),
      b.getByRole("button", { name: "Save", exact: true }).click(),
    ]);
    const signedFile = readFileSync((await download.path()) ?? "", "utf8");
    expect(JSON.parse(signedFile).sigs.every((s: { sig: string | null }) => s.sig !== null)).toBe(
      true,
    );

    // Back in wallet A: the combined command is complete and sent.
    const before = { from: await balance(name), to: await balance(TO) };
    await a.goto(`${nodeA.appUrl}#/wallet/sign`);
    await a.getByLabel("Transaction", { exact: true }).fill(signedFile);
    await a.getByTestId("sign-review").waitFor();
    expect(await a.getByTestId("sign-summary").textContent()).toContain(
      "Every signature is present",
    );
    await a.getByRole("button", { name: "Send", exact: true }).click();
    await expect
      .poll(() => a.getByTestId("transfer-status").textContent(), { timeout: 90_000 })
      .toMatch(/^Confirmed in block \d+ of chain 0$/);
    const polled = await pact.poll(0, [hash]);
    if (!polled.ok) throw new Error(JSON.stringify(polled.error));
    const result = polled.value.get(hash);
    expect(result?.outcome.ok).toBe(true);
    const fee = BigInt(result?.gas ?? 0) * 10_000n;
    expect(await balance(name)).toBe(before.from - 2n * ONE - ONE / 2n - fee);
    expect(await balance(TO)).toBe(before.to + 2n * ONE + ONE / 2n);

    // History: the transfer (one entry, a multi-signature one) succeeded, and the creation.
    await a.goto(`${nodeA.appUrl}#/wallet/history`);
    await a.getByRole("heading", { level: 1, name: "History" }).waitFor();
    await expect
      .poll(() => a.getByTestId(`history-status-${hash}`).textContent(), { timeout: 30_000 })
      .toMatch(/^Succeeded in block \d+/);
    const table = (await a.getByRole("table").textContent()) ?? "";
    expect(table).toContain("Multi-signature transfer");
    expect(table).toContain("Account created");
    await saveScreenshot(a, "wallet-history");
    expect(await axeViolations(a)).toEqual([]);
    const [csvDownload] = await Promise.all([
      a.waitForEvent("download"),
      a.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(csvDownload.suggestedFilename()).toMatch(
      /^weft-history-test-singleton-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const csv = readFileSync((await csvDownload.path()) ?? "", "utf8");
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(
      "Time (UTC),Request key,Kind,Status,Amount,From,To,Chains,Fee,Block height",
    );
    const row = lines.find((l) => l.includes(hash)) ?? "";
    expect(row).toContain("Multi-signature transfer");
    expect(row).toContain(`,2.5,${name},${TO},0,`);
    expect(row).toMatch(/Succeeded in block \d+/);

    // A transaction made elsewhere (sender01 pays sender00 from this test) added by request key.
    const elsewhere = commandModel.buildCommand({
      payload: { exec: { code: `(coin.transfer "${TO}" "${FROM}" 1.25)`, data: null } },
      meta: {
        chainId: "0",
        sender: TO,
        gasLimit: 2500,
        gasPrice: "0.00000001",
        ttl: 3600,
        creationTime: Math.floor(Date.now() / 1000) - 15,
      },
      signers: [
        {
          pubKey: S1.publicKey,
          clist: [
            { name: "coin.TRANSFER", args: [TO, FROM, JsonNumber.of("1.25") ?? "1.25"] },
            { name: "coin.GAS", args: [] },
          ],
        },
      ],
      networkId: "test-singleton",
      nonce: "multisig-e2e-elsewhere",
    });
    const { sig } = commandModel.signRequestKey(elsewhere.hash, S1.secretKey);
    const sentElsewhere = await pact.send(0, [{ ...elsewhere, sigs: [{ sig }] }]);
    expect(sentElsewhere.ok, JSON.stringify(sentElsewhere)).toBe(true);
    await expect
      .poll(
        async () => {
          const r = await pact.poll(0, [elsewhere.hash]);
          return r.ok && r.value.get(elsewhere.hash)?.outcome.ok === true;
        },
        { timeout: 90_000 },
      )
      .toBe(true);
    await a.getByLabel("Request key", { exact: true }).fill(elsewhere.hash);
    await a.getByRole("button", { name: "Add to the history" }).click();
    await expect
      .poll(() => a.getByTestId(`history-status-${elsewhere.hash}`).textContent(), {
        timeout: 30_000,
      })
      .toMatch(/^Succeeded in block \d+/);
    expect(await a.getByRole("table").textContent()).toContain("Added by request key");
    expect(problems).toEqual([]);
  }, 300_000);
});
