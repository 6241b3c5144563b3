/**
 * The Node page against the REAL node on a fresh `development` data folder (issue 20):
 * a reward account typed on the page, then the "Mining" switch: the chains' heights advance
 * (real proof of work, one thread); and mine on demand, on by default for a development
 * network without a reward account (`mining.on-demand: auto`): a transfer made and sent with
 * the `weft` command line is confirmed (its block plus one), then the miner idles again.
 * Conditions are waited for with generous timeouts, never timed.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { devAccount } from "../../src-node/genesis/devAccounts.ts";
import { type CreateNodeOptions, createNode, type WeftNode } from "../../src-node/node.ts";
import { grantAppCookie } from "./support/appCookie.ts";
import { launchChromium, saveScreenshot } from "./support/browser.ts";

const run = promisify(execFile);
const WEFT = new URL("../../bin/weft.js", import.meta.url).pathname;
const KEY = "ab".repeat(32);

let browser: Browser;
let page: Page | undefined;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await page?.close();
  page = undefined;
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function freshNode(options: Partial<CreateNodeOptions> = {}): Promise<WeftNode> {
  const dataDir = mkdtempSync(join(tmpdir(), "weft-e2e-nodepage-"));
  const node = await createNode({
    network: "development",
    dataDir,
    host: "127.0.0.1",
    port: 0,
    rendererDir: inject("rendererDir"),
    ...options,
  });
  cleanups.push(async () => {
    await node.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return node;
}

async function openNodePage(node: WeftNode): Promise<Page> {
  const p = await browser.newPage();
  page = p;
  await grantAppCookie(p.context(), node.appCodeUrl());
  await p.goto(`${node.appUrl}#/node`);
  await p.getByRole("heading", { level: 1, name: "Node" }).waitFor();
  await p.getByTestId("height-19").waitFor();
  return p;
}

async function shownCutHeight(p: Page): Promise<number> {
  return Number((await p.getByTestId("cut-height").textContent())?.replace(/,/g, ""));
}

describe("[e2e] Node page on a fresh development node", () => {
  it("sets a reward account on the page, then Mining on: the heights advance", async () => {
    const node = await freshNode({ mining: { threads: 1 } });
    const p = await openNodePage(node);
    expect(await p.getByTestId("reward-account").textContent()).toBe("None set");
    await p.getByRole("textbox", { name: "Reward account" }).fill(`k:${KEY}`);
    await p.getByRole("button", { name: "Set reward account" }).click();
    await expect
      .poll(() => p.getByTestId("reward-account").textContent(), { timeout: 15_000 })
      .toContain(`k:${KEY}`);
    const threads = p.getByLabel("Threads");
    expect(await threads.inputValue()).toBe("1");

    const toggle = p.getByRole("switch", { name: "Mining" });
    await p.locator("label.switch", { has: toggle }).click();
    await expect
      .poll(() => p.getByTestId("mining-state").textContent(), { timeout: 15_000 })
      .toBe("On");
    await expect.poll(() => shownCutHeight(p), { timeout: 120_000 }).toBeGreaterThanOrEqual(2);
    expect(node.miner.status()).toMatchObject({ enabled: true, account: `k:${KEY}` });
    await saveScreenshot(p, "node-page-mining-development");
    await p.locator("label.switch", { has: toggle }).click();
    await expect.poll(() => p.getByTestId("mining-state").textContent()).toBe("Off");
  }, 180_000);

  it("keeps a refused account (a k: account with another key) beside the switch", async () => {
    const node = await freshNode();
    const p = await openNodePage(node);
    await p.getByRole("textbox", { name: "Reward account" }).fill(`k:${KEY}`);
    await p.getByRole("textbox", { name: "Public keys" }).fill("cd".repeat(32));
    await p.getByRole("button", { name: "Set reward account" }).click();
    const refusal = p.getByTestId("mining-refusal");
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain("The reward account was not accepted.");
    expect(node.miner.status().account).toBeNull();
  }, 60_000);

  it("mines on demand by default: a transfer sent with the CLI is confirmed, then the miner idles", async () => {
    const node = await freshNode({ mining: { onDemand: "auto", threads: 1 } });
    expect(node.options.mining.onDemand).toBe(true);
    const p = await openNodePage(node);
    const onDemand = p.getByRole("switch", { name: "Mine on demand" });
    await expect.poll(() => onDemand.isChecked(), { timeout: 15_000 }).toBe(true);
    expect(await p.getByTestId("mining-state").textContent()).toBe("On demand: idle");
    expect(cutHeight(node.blocks.cut())).toBe(0);

    const from = devAccount(0);
    const to = devAccount(1);
    const dir = mkdtempSync(join(tmpdir(), "weft-e2e-transfer-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const request = join(dir, "transfer.yaml");
    writeFileSync(
      request,
      [
        `code: (coin.transfer "${from.account}" "${to.account}" 1.5)`,
        "networkId: development",
        `publicMeta: {chainId: "4", sender: "${from.account}", gasLimit: 1000, gasPrice: 0.00000001}`,
        "keyPairs:",
        `  - public: ${from.publicKey}`,
        `    secret: ${from.secretKey}`,
        "    caps:",
        "      - {name: coin.GAS, args: []}",
        `      - {name: coin.TRANSFER, args: ["${from.account}", "${to.account}", 1.5]}`,
        "",
      ].join("\n"),
    );
    const body = await run(process.execPath, [WEFT, "-a", request]);
    writeFileSync(join(dir, "send.json"), body.stdout);
    const sent = await run(process.execPath, [
      WEFT,
      "send",
      join(dir, "send.json"),
      "--node",
      node.baseUrl,
    ]);
    writeFileSync(join(dir, "keys.json"), sent.stdout);
    const key = (JSON.parse(sent.stdout) as { requestKeys: string[] }).requestKeys[0];

    const poll = async () => {
      const r = await run(process.execPath, [
        WEFT,
        "poll",
        join(dir, "keys.json"),
        "--node",
        node.baseUrl,
        "--chain",
        "4",
      ]);
      return JSON.parse(r.stdout) as Record<
        string,
        { result: { status: string }; metaData: { blockHeight: number } }
      >;
    };
    await expect
      .poll(async () => (await poll())[key as string]?.result.status, {
        timeout: 120_000,
        interval: 1000,
      })
      .toBe("success");
    const included = (await poll())[key as string]?.metaData.blockHeight as number;
    // One confirmation on top, then idle.
    await expect
      .poll(() => node.blocks.cut().get(4)?.height ?? 0, { timeout: 120_000 })
      .toBeGreaterThanOrEqual(included + 1);
    await expect
      .poll(() => p.getByTestId("mining-state").textContent(), { timeout: 30_000 })
      .toBe("On demand: idle");
    expect(node.miner.status()).toMatchObject({ active: false, enabled: false, onDemand: true });
    await saveScreenshot(p, "node-page-mine-on-demand");
  }, 300_000);
});
