/**
 * Node settings applied on "Restart node" (issue 20): `npm start -- --headless --settings
 * FILE` as a real process, the supervisor reading FILE again on every restart as the desktop
 * reads its settings.json. The page gets the desktop bridge the preload would give it
 * (`window.weftDesktop`), its settings calls answered by the desktop's own `SettingsStore` on
 * FILE (Electron itself cannot run here). On the Node page: "Public mining API" on, "Save
 * settings" → the page says it applies on restart and the node still does not serve it;
 * "Restart node" → the node comes back on the same address, reports the API on, serves it,
 * and the page no longer says a change is pending.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SettingsPatch } from "../../electron/ipc/contract.ts";
import { readSettingsFile, SettingsStore } from "../../electron/settings/settingsStore.ts";
import { grantAppCookie } from "./support/appCookie.ts";
import { launchChromium, saveScreenshot } from "./support/browser.ts";
import { compileLauncher, type HeadlessProcess, startHeadless } from "./support/headlessProcess.ts";

let root: string;
let browser: Browser;
let node: HeadlessProcess | undefined;
let page: Page | undefined;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "weft-e2e-settings-"));
  await compileLauncher();
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await page?.close();
  await browser?.close();
  node?.kill();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

/** The preload's bridge, its calls answered in this process (settings by `store`). */
async function withDesktopBridge(p: Page, store: SettingsStore, dataDir: string): Promise<void> {
  await p.exposeFunction("__weftReadSettings", () => ({ ok: true, value: store.read() }));
  await p.exposeFunction("__weftWriteSettings", (patch: SettingsPatch) => ({
    ok: true,
    value: store.write(patch),
  }));
  await p.exposeFunction("__weftAppInfo", () => ({
    ok: true,
    value: { version: "0.0.0-e2e", dataDir, logFile: join(root, "weft.log") },
  }));
  await p.addInitScript(`
    window.weftDesktop = {
      appInfo: () => window.__weftAppInfo(),
      chooseFolder: async () => ({ ok: true, value: null }),
      openFolder: async () => ({ ok: true, value: null }),
      readSettings: () => window.__weftReadSettings(),
      writeSettings: (patch) => window.__weftWriteSettings(patch),
    };`);
}

describe("[e2e] node settings apply on Restart node", () => {
  it("saves the public mining API on the page; Restart node applies it", async () => {
    const file = join(root, "settings.json");
    const dataDir = join(root, "data");
    const store = new SettingsStore(file, { warn: () => {} });
    store.write({ network: "development", dataDir, port: 0 });
    node = await startHeadless(["--settings", file, "--renderer-dir", inject("rendererDir")]);
    const running = node;
    expect(running.baseUrl).toMatch(/\/ledger\/0\.0\/development$/);
    const token = readFileSync(join(dataDir, "development", "app-token"), "utf8").trim();
    const status = async () => {
      const r = await fetch(`${running.origin}/app/api/node/status`, {
        headers: { "x-weft-app-token": token },
      });
      return (await r.json()) as { publicApis: { mining: boolean; backup: boolean } };
    };
    const solved = () =>
      fetch(`${running.baseUrl}/mining/solved`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: new Uint8Array(1),
      });
    expect((await status()).publicApis.mining).toBe(false);
    expect((await solved()).status).toBe(404);

    const p = await browser.newPage();
    page = p;
    // The address the launcher printed opens the app once in this browser.
    await grantAppCookie(p.context(), running.codeUrl);
    await withDesktopBridge(p, store, dataDir);
    await p.goto(`${running.appUrl}#/node`);
    await p.getByRole("heading", { level: 1, name: "Node" }).waitFor();
    const settings = p.getByRole("region", { name: "Settings" });
    const miningApi = settings.getByRole("switch", { name: "Public mining API" });
    await miningApi.waitFor();
    expect(await miningApi.isChecked()).toBe(false);
    await settings.locator("label.switch", { hasText: "Public mining API" }).click();
    await expect.poll(() => miningApi.isChecked()).toBe(true);
    await settings.getByRole("button", { name: "Save settings" }).click();
    await p.getByTestId("settings-pending").waitFor({ timeout: 15_000 });
    expect(readSettingsFile(file).miningApi).toBe(true);
    // Saved, not applied: the running node does not serve it yet.
    expect((await status()).publicApis.mining).toBe(false);
    await saveScreenshot(p, "node-settings-pending");

    await settings.getByRole("button", { name: "Restart node" }).click();
    await p.getByText("The node is running again.").waitFor({ timeout: 90_000 });
    await expect.poll(() => running.output(), { timeout: 30_000 }).toContain("restarted on");
    // The same address, the new setting: reported, served, and no longer pending.
    expect((await status()).publicApis.mining).toBe(true);
    expect((await solved()).status).toBe(400);
    await p.getByTestId("settings-pending").waitFor({ state: "detached", timeout: 15_000 });
    await saveScreenshot(p, "node-settings-applied");
    expect(await running.stop()).toEqual({ code: 0, signal: null });
  }, 240_000);
});
