/**
 * The backup page in headless Chromium against the real node run as the desktop and the
 * headless launcher run it: under the supervisor (electron/nodeSupervisor.ts) that restarts
 * it (test-singleton, 127.0.0.1:0, a temporary data folder with a wallet, the built-in miner
 * on). "Back up now" → "verified" and the files (the wallet's keystore included) in the
 * default folder beside the data folder; a transfer made after it is confirmed and the
 * wallet's keystore changes (another password); "Restore" on the listed backup (checked,
 * confirmed) → the node restarts on the same address, the page follows by itself ("Node
 * restarting…", then running again), the transfer is gone (the balance is back) and the
 * wallet unlocks with the password it had at the backup, not the later one (the page reads
 * the restored keystore without a reload); the page says what came back and where the old
 * data went. "Delete" asks first and removes the folder.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { HostedNode } from "../../electron/nodeHost.ts";
import { NodeSupervisor } from "../../electron/nodeSupervisor.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devTransfer } from "../support/devTransfer.ts";
import { testKeystore } from "../support/keystoreFixture.ts";
import { postJson } from "../support/postJson.ts";
import { grantAppCookie } from "./support/appCookie.ts";
import { launchChromium, saveScreenshot } from "./support/browser.ts";

const KEY = "ef".repeat(32);
const PASSWORD = "the password at the backup";
const LATER_PASSWORD = "a password set after the backup";

let root: string;
let supervisor: NodeSupervisor;
let first: HostedNode;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "weft-e2e-backup-"));
  // A wallet on the node (its keystore sealed with the format's smallest cost: fast).
  mkdirSync(walletDir(), { recursive: true, mode: 0o700 });
  writeFileSync(keystoreFile(), JSON.stringify(testKeystore(PASSWORD)), { mode: 0o600 });
  supervisor = new NodeSupervisor({
    options: {
      network: "test-singleton",
      dataDir: join(root, "data"),
      host: "127.0.0.1",
      port: 0,
      rendererDir: inject("rendererDir"),
      mining: { enabled: true, threads: 1, account: `k:${KEY}` },
    },
  });
  first = await supervisor.start();
  browser = await launchChromium();
  page = await browser.newPage();
  await grantAppCookie(page.context(), first.appCodeUrl());
});
afterAll(async () => {
  await browser?.close();
  await supervisor?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

function walletDir(): string {
  return join(root, "data", "test-singleton", "wallet");
}
function keystoreFile(): string {
  return join(walletDir(), "keystore.json");
}

/** sender09's balance on chain 0 (a /local), as its exact JSON text. */
async function balance09(): Promise<string> {
  const payload = {
    payload: { exec: { code: '(coin.get-balance "sender09")', data: null } },
    meta: {
      chainId: "0",
      sender: "sender09",
      gasLimit: 1000,
      gasPrice: "0.00000001",
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 60,
    },
    signers: [],
    networkId: "test-singleton",
    nonce: `balance-${Date.now()}-${Math.random()}`,
  };
  const cmd = nodeCommands.buildCommand(payload);
  const r = await postJson(`${first.baseUrl}/chain/0/pact/api/v1/local`, {
    ...cmd,
    sigs: [],
  });
  expect(r.status, r.text).toBe(200);
  const body = JSON.parse(r.text) as { result: { status: string; data: unknown } };
  expect(body.result.status).toBe("success");
  return JSON.stringify(body.result.data);
}

/** sender08 → sender09 0.5 on chain 0, signed with the published test key. */
const transfer = () => devTransfer({ amount: "0.5", nonce: `backup-e2e-${Date.now()}` });

async function polled(hash: string): Promise<Record<string, unknown>> {
  const r = await postJson(`${first.baseUrl}/chain/0/pact/api/v1/poll`, { requestKeys: [hash] });
  return JSON.parse(r.text) as Record<string, unknown>;
}

describe("[e2e] backup page with the real node", () => {
  it("backs up, restores through a restart, and the later transfer is gone", async () => {
    await page.goto(`${first.appUrl}#/backup`);
    await page.getByRole("heading", { level: 1, name: "Backup" }).waitFor();
    await page.getByTestId("backup-estimate").waitFor();
    await page.getByRole("button", { name: "Back up now" }).click();
    await page
      .getByTestId("backup-status")
      .filter({ hasText: "verified" })
      .waitFor({ timeout: 60_000 });
    await saveScreenshot(page, "backup-verified");
    const backups = join(root, "backups");
    const ids = readdirSync(backups);
    expect(ids).toHaveLength(1);
    const id = ids[0] as string;
    expect(readdirSync(join(backups, id)).sort()).toEqual([
      "blocks.sqlite",
      "manifest.json",
      "mempool.sqlite",
      "state.sqlite",
      "wallet",
    ]);
    const keystoreAtBackup = readFileSync(keystoreFile(), "utf8");
    expect(readFileSync(join(backups, id, "wallet", "keystore.json"), "utf8")).toBe(
      keystoreAtBackup,
    );
    const balanceAtBackup = await balance09();

    // A transfer after the backup, confirmed by the miner.
    const cmd = transfer();
    const sent = await postJson(`${first.baseUrl}/chain/0/pact/api/v1/send`, { cmds: [cmd] });
    expect(sent.status, sent.text).toBe(200);
    for (let i = 0; i < 300 && (await polled(cmd.hash))[cmd.hash] === undefined; i++) {
      await new Promise((done) => setTimeout(done, 100));
    }
    expect((await polled(cmd.hash))[cmd.hash]).toBeDefined();
    expect(await balance09()).not.toBe(balanceAtBackup);

    // The wallet's keystore changes after the backup (another password), and the page has it.
    writeFileSync(keystoreFile(), JSON.stringify(testKeystore(LATER_PASSWORD)), { mode: 0o600 });
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Backup" }).waitFor();

    // Restore the listed backup.
    const row = page.getByRole("row").filter({ hasText: "verified" });
    await row.getByRole("button", { name: "Restore" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText("every file matches its checksum").waitFor({ timeout: 30_000 });
    await saveScreenshot(page, "backup-restore-check");
    await dialog.getByRole("button", { name: "Restore" }).click();
    await page.getByText("The node is running again.").waitFor({ timeout: 60_000 });
    await page.getByTestId("last-restore").waitFor({ timeout: 20_000 });
    await saveScreenshot(page, "backup-restored");

    // The same address, another launch (the page may see it listen before its start-up,
    // the miner's included, has finished); the transfer is gone.
    for (let i = 0; i < 200 && supervisor.node === null; i++) {
      await new Promise((done) => setTimeout(done, 100));
    }
    expect(supervisor.node?.baseUrl).toBe(first.baseUrl);
    expect(await polled(cmd.hash)).toEqual({});
    expect(await balance09()).toBe(balanceAtBackup);
    expect(readFileSync(keystoreFile(), "utf8")).toBe(keystoreAtBackup);
    const replaced = readdirSync(join(root, "data", "test-singleton")).filter((n) =>
      n.startsWith("replaced-"),
    );
    expect(replaced).toHaveLength(1);

    // The wallet unlocks with the password it had at the backup (same page, no reload).
    await page.goto(`${first.appUrl}#/wallet`);
    const password = page.getByLabel("Password", { exact: true });
    const unlock = page.getByRole("button", { name: "Unlock" });
    await unlock.waitFor({ timeout: 20_000 });
    await password.fill(LATER_PASSWORD);
    await unlock.click();
    await expect
      .poll(() => page.getByTestId("unlock-problem").textContent(), { timeout: 30_000 })
      .toBe("Wrong password.");
    await password.fill(PASSWORD);
    await unlock.click();
    await page.getByRole("button", { name: "Lock" }).waitFor({ timeout: 30_000 });
    await saveScreenshot(page, "backup-restored-wallet-unlocked");

    // Delete asks first.
    await page.goto(`${first.appUrl}#/backup`);
    await page.getByRole("heading", { level: 1, name: "Backup" }).waitFor();
    const dismiss = page.getByRole("button", { name: "Dismiss" });
    if (await dismiss.isVisible()) await dismiss.click();
    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await page.getByText("No backups in this folder yet.").waitFor({ timeout: 20_000 });
    expect(existsSync(join(backups, id))).toBe(false);
  }, 240_000);
});
