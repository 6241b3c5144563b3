/**
 * Explorer addresses against the REAL node: a paged list keeps its page in the address (on a
 * chain of more blocks than one page holds, "Older" opens page 2 and the address says so; a
 * reload of that address shows the same page; back returns to the newest blocks), and a block
 * that left the best chain says "orphaned" on its page, linking to the best chain's block.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { buildForkedChain } from "../support/forkedChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { grantAppCookie } from "./support/appCookie.ts";
import { launchChromium, saveScreenshot } from "./support/browser.ts";

/** The rows of the chain's block list (its panel, labelled by its title). */
const ROWS = 'section[aria-labelledby="chain-blocks-title"] tbody tr';

let dataDir: string;
let node: WeftNode;
let browser: Browser;
/** A block of chain 0 that lost to a heavier branch. */
let orphan: BlockHeader;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "weft-e2e-paging-"));
  node = await createNode({
    network: "test-singleton",
    dataDir,
    host: "127.0.0.1",
    port: 0,
    rendererDir: inject("rendererDir"),
    mining: { enabled: false, threads: 1 },
  });
  // Two branches from height 6: the side block at height 7 stays off the best chain.
  const forked = buildForkedChain(node.blocks);
  for (const block of forked.blocks) node.blocks.insertBlock(block);
  orphan = forked.orphans.get(0) as BlockHeader;
  // More than one page (20 blocks) on chain 0.
  for (let i = 0; i < 25; i++) await mineOn(node, 0);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await node?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

describe("[e2e] explorer pages in the address", () => {
  it("opens page 2 of a chain's blocks, keeps it across a reload, and goes back", async () => {
    const page = await browser.newPage();
    await grantAppCookie(page.context(), node.appCodeUrl());
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    const firstHeight = () => page.locator(ROWS).first().locator("th").textContent();

    await page.goto(`${node.appUrl}#/explorer/chain/0`);
    await page.getByRole("heading", { name: "Newest blocks" }).waitFor();
    await page.locator(ROWS).first().waitFor();
    const newest = Number(await firstHeight());
    expect(newest).toBeGreaterThanOrEqual(25);

    await page.getByRole("button", { name: "Older" }).click();
    await page.getByRole("heading", { name: "Blocks, page 2" }).waitFor();
    await expect.poll(firstHeight).toBe(String(newest - 20));
    expect(page.url()).toContain("pages=");
    await saveScreenshot(page, "explorer-chain-page-2");

    await page.reload();
    await page.getByRole("heading", { name: "Blocks, page 2" }).waitFor();
    await expect.poll(firstHeight).toBe(String(newest - 20));

    await page.goBack();
    await page.getByRole("heading", { name: "Newest blocks" }).waitFor();
    await expect.poll(firstHeight).toBe(String(newest));
    expect(problems).toEqual([]);
    await page.close();
  });

  it("marks a block that left the best chain as orphaned", async () => {
    const page = await browser.newPage();
    await grantAppCookie(page.context(), node.appCodeUrl());
    await page.goto(`${node.appUrl}#/explorer/chain/0/block/${orphan.hash}`);
    await page.getByRole("heading", { level: 1, name: /^Block/ }).waitFor();
    const notice = page.getByTestId("orphaned");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("orphaned");
    // It links to the best chain's block at the same height, which is not orphaned.
    await notice.getByRole("link").click();
    await page.getByTestId("confirmations").waitFor();
    expect(await page.getByTestId("block-height").textContent()).toBe(String(orphan.height));
    expect(await page.getByTestId("orphaned").count()).toBe(0);
    await page.close();
  });
});
