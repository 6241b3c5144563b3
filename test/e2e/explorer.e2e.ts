/**
 * The explorer in headless Chromium against the REAL node (test-singleton, ten chains on the
 * Petersen graph, blocks mined on demand through the node's mining service): the braid
 * shows every chain and new blocks arriving without a reload; a transfer sent to the node is
 * found by its request key from the search box (`/` focuses it), its page says it is
 * confirmed and links to its block, whose page lists it and links to the sender's account,
 * which shows its balance on every chain; a cross-chain transfer offers "Finish this
 * transfer"; a command waiting in the mempool says "pending", an unknown key "not found",
 * and a search for nothing says what was searched for. Screenshots: test/e2e/artifacts/.
 */
import { describe, expect, it } from "vitest";
import type { Command } from "../../src-node/command/commandTypes.ts";
import { crossChainTransfer } from "../support/crossChain.ts";
import { devKey, signedCommand, transferCaps } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { saveScreenshot } from "./support/browser.ts";
import { saveGuideScreenshot } from "./support/guideScreenshot.ts";
import { setUpRealNodePage } from "./support/realNodePage.ts";

const CHAINS = 10;

const env = setUpRealNodePage({
  name: "explorer",
  mining: { enabled: false, threads: 1 },
  // A 404 the page expects (an unknown transaction) is logged by the browser, not the app.
  ignoreConsole: (text) => text.includes("404 (Not Found)"),
});

/** One block on every chain. */
async function mineRound(): Promise<void> {
  for (let c = 0; c < CHAINS; c++) await mineOn(env.node, c);
}

async function send(chain: number, cmd: Command): Promise<string> {
  const res = await fetch(`${env.node.baseUrl}/chain/${chain}/pact/api/v1/send`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ cmds: [cmd] }),
  });
  const body = (await res.json()) as { requestKeys: string[] };
  expect(res.status).toBe(200);
  return body.requestKeys[0] as string;
}

function h1(name: string | RegExp) {
  return env.page.getByRole("heading", { level: 1, name });
}

/** The highest height the braid shows. */
async function braidTop(): Promise<number> {
  const ids = await env.page.evaluate<string[]>(
    `[...document.querySelectorAll("[data-testid^='braid-block-']")].map((e) => e.dataset.testid)`,
  );
  return Math.max(-1, ...ids.map((id) => Number(id.split("-").at(-1))));
}

describe("[e2e] explorer against a real node", () => {
  it("draws the braid of all chains and shows new blocks arriving without a reload", async () => {
    const { page, node } = env;
    await mineRound();
    await mineRound();
    await page.goto(`${node.appUrl}#/explorer`);
    await h1("Braid").waitFor();
    const braid = page.getByTestId("braid");
    await braid.waitFor();
    expect(await braid.getAttribute("data-chains")).toBe(String(CHAINS));
    await expect.poll(braidTop).toBeGreaterThanOrEqual(2);
    const before = await braidTop();
    // Every chain has its column's newest block, each a link with its chain and height.
    for (let c = 0; c < CHAINS; c++) {
      await page.getByTestId(`braid-block-${c}-${before}`).waitFor();
    }
    await saveScreenshot(page, "explorer-braid-before");
    await mineRound();
    await mineRound();
    await expect.poll(braidTop, { timeout: 15_000 }).toBe(before + 2);
    for (let c = 0; c < CHAINS; c++) {
      await page.getByTestId(`braid-block-${c}-${before + 2}`).waitFor();
    }
    // Links between adjacent chains are drawn (three per block on the Petersen graph).
    expect(await page.locator(".braid-link-adjacent").count()).toBeGreaterThanOrEqual(CHAINS * 3);
    await saveScreenshot(page, "explorer-braid-after");
    await saveGuideScreenshot(page, "explorer-braid");
    // A block of the braid opens its page.
    await page.getByRole("link", { name: `Block ${before + 2} on chain 4` }).click();
    await h1(/^Block/).waitFor();
    expect(await page.getByTestId("block-height").textContent()).toBe(String(before + 2));
    await page.goBack();
    await h1("Braid").waitFor();
    expect(env.problems).toEqual([]);
  });

  it("finds a transfer by request key from the search box, opens its block and its sender", async () => {
    const { page, node } = env;
    const receiver = `k:${devKey(1).publicKey}`;
    const key = await send(
      2,
      signedCommand({
        code: `(coin.transfer "sender00" "${receiver}" 1.5)`,
        chainId: 2,
        signers: [{ key: 0, caps: transferCaps("sender00", receiver, "1.5") }],
      }),
    );
    await mineRound();
    await mineRound();
    await page.goto(`${node.appUrl}#/explorer`);
    await h1("Braid").waitFor();
    // "/" focuses the search box from anywhere on the page.
    await page.locator("main").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("/");
    await expect
      .poll(() => page.evaluate<string>("document.activeElement?.getAttribute('type') ?? ''"))
      .toBe("search");
    await page.keyboard.type(key);
    await page.keyboard.press("Enter");
    await h1("Transaction").waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).hash).toBe(`#/explorer/tx/${key}`);
    await expect.poll(() => page.getByTestId("tx-status").textContent()).toContain("Confirmed");
    expect(await page.getByTestId("tx-result").textContent()).toContain("Succeeded");
    expect(await page.getByRole("list", { name: "Events" }).textContent()).toContain(
      `coin.TRANSFER("sender00", "${receiver}", 1.5)`,
    );
    expect(await page.getByTestId("tx-code").textContent()).toContain("coin.transfer");
    await saveScreenshot(page, "explorer-transaction");
    await saveGuideScreenshot(page, "explorer-transaction");

    await page.getByTestId("tx-block").click();
    await h1(/^Block/).waitFor();
    expect(await page.getByTestId("block-chain").textContent()).toBe("Chain 2");
    await page.getByRole("link", { name: `Transaction ${key}` }).waitFor();
    await expect
      .poll(() => page.getByTestId("confirmations").textContent())
      .toContain("On the best chain");
    await saveScreenshot(page, "explorer-block-with-tx");
    await saveGuideScreenshot(page, "explorer-block", { top: true });

    await page.getByRole("link", { name: "sender00" }).first().click();
    await h1("Account").waitFor();
    expect(await page.getByTestId("account-name").textContent()).toBe("sender00");
    // Balances as the wallet writes amounts (the contract answers "1000000.0").
    await expect.poll(() => page.getByTestId("balance-0").textContent()).toBe("1,000,000");
    // Chain 2 paid the transfer and its gas.
    await expect
      .poll(async () =>
        Number((await page.getByTestId("balance-2").textContent())?.replaceAll(",", "")),
      )
      .toBeLessThan(1_000_000 - 1.5);
    await page.getByRole("table", { name: /Transfers to and from/ }).waitFor();
    expect(
      await page.getByRole("table", { name: /Transfers to and from/ }).textContent(),
    ).toContain("1.5");
    await saveScreenshot(page, "explorer-account");
    await saveGuideScreenshot(page, "explorer-account", { top: true });

    // The chain's and the coin module's pages, for the guide.
    await page.goto(`${node.appUrl}#/explorer/chain/2`);
    await h1("Chain 2").waitFor();
    await page.getByRole("table", { name: /Chain 2: \d+ blocks/ }).waitFor();
    await saveGuideScreenshot(page, "explorer-chain", { top: true });
    await page.goto(`${node.appUrl}#/explorer/module/coin`);
    await h1("Module").waitFor();
    await page.getByTestId("module-code").waitFor({ timeout: 15_000 });
    await saveGuideScreenshot(page, "explorer-module", { top: true });
    expect(env.problems).toEqual([]);
  });

  it("offers to finish a cross-chain transfer whose second step is missing", async () => {
    const { page, node } = env;
    const receiver = `k:${devKey(3).publicKey}`;
    const key = await send(
      0,
      crossChainTransfer({
        from: 2,
        receiver,
        receiverKeys: [devKey(3).publicKey],
        amount: "2.25",
        sourceChain: 0,
        targetChain: 5,
      }),
    );
    await mineRound();
    await page.goto(`${node.appUrl}#/explorer/tx/${key}`);
    await h1("Transaction").waitFor();
    const finish = page.getByRole("link", { name: "Finish this transfer" });
    await finish.waitFor({ timeout: 15_000 });
    expect(await finish.getAttribute("href")).toBe(`#/wallet/finish/${key}`);
    expect(await page.getByTestId("xchain-step-1").textContent()).toContain("missing");
    await saveScreenshot(page, "explorer-crosschain");
    expect(env.problems).toEqual([]);
  });

  it("says pending, not found and nothing found in words", async () => {
    const { page, node } = env;
    const waiting = await send(
      1,
      signedCommand({ code: "(+ 1 2)", chainId: 1, nonce: `pending-${Date.now()}` }),
    );
    await page.goto(`${node.appUrl}#/explorer/tx/${waiting}`);
    await h1("Transaction").waitFor();
    await expect.poll(() => page.getByTestId("tx-status").textContent()).toContain("Pending");
    await saveScreenshot(page, "explorer-pending");
    const unknown = "A".repeat(43);
    await page.goto(`${node.appUrl}#/explorer/tx/${unknown}`);
    await expect.poll(() => page.getByTestId("not-found").textContent()).toContain("not found");
    await page.getByRole("searchbox", { name: "Search" }).fill("no-such-thing-here");
    await page.keyboard.press("Enter");
    await h1("Search").waitFor();
    await expect
      .poll(() => page.getByTestId("nothing-found").textContent())
      .toContain("Nothing found for “no-such-thing-here”");
    await page.goBack();
    await page.getByTestId("not-found").waitFor();
    // Mined now: the page changes from pending to confirmed by itself.
    await page.goto(`${node.appUrl}#/explorer/tx/${waiting}`);
    await mineRound();
    await expect
      .poll(() => page.getByTestId("tx-status").textContent(), { timeout: 15_000 })
      .toContain("Confirmed");
    expect(env.problems).toEqual([]);
  });
});
