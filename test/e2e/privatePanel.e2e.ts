/**
 * The Node page's "Private entities" panel (docs/private.md "The Node page") against real
 * nodes: alice's page shows her entity, public key and fingerprint; "Trust an entity" with a
 * malformed key names what is wrong; bob's key, checked, shows bob's fingerprint before it is
 * pinned; once pinned, a private command from alice to bob runs on both and the private
 * chains table says bob is in step; the pin is removed again from the page. Screenshots at
 * 1280 and 400 px, light and dark.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { WeftNode } from "../../src-node/node.ts";
import { privateCommand } from "../support/privateCommand.ts";
import { artifactsDir, saveScreenshot } from "./support/browser.ts";
import { setUpRealNodePage } from "./support/realNodePage.ts";

// The malformed key's check is answered 400, which Chromium logs.
const env = setUpRealNodePage({
  name: "private",
  ignoreConsole: (text) => text.includes("status of 400"),
});

async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 400]) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.locator("#private-title").scrollIntoViewIfNeeded();
      await saveScreenshot(page, `${name}-${width}-${scheme}`);
      // The panel alone, at full size, to look at.
      await page
        .getByRole("region", { name: "Private entities" })
        .screenshot({ path: join(artifactsDir, `${name}-${width}-${scheme}-panel.png`) });
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });
}

async function connected(alice: WeftNode, bob: WeftNode): Promise<void> {
  const address = new URL(bob.origin).host;
  await expect
    .poll(() => alice.p2p.peerAddresses().some((a) => `${a.hostname}:${a.port}` === address), {
      timeout: 60_000,
    })
    .toBe(true);
}

describe("[e2e] private entities on the Node page", () => {
  it("shows the node's key, checks and pins an entity, shows the private chain, removes the pin", async () => {
    const bob = await env.freshNode({ p2p: { entity: "bob" } });
    const alice = await env.freshNode({
      p2p: { entity: "alice", peers: [new URL(bob.origin).host] },
    });
    bob.private.trust.add("alice", alice.private.identity().publicKey);
    const page = env.page;
    await page.goto(`${alice.appUrl}#/node`);
    const panel = page.getByRole("region", { name: "Private entities" });
    await panel.waitFor();
    const me = alice.private.identity();
    await expect.poll(() => page.getByTestId("own-entity").textContent()).toBe("alice");
    expect(await page.getByTestId("own-public-key").textContent()).toBe(me.publicKey);
    expect(await page.getByTestId("own-fingerprint").textContent()).toBe(me.fingerprint);
    expect(await page.getByTestId("no-trusted").textContent()).toContain("No trusted entities");
    await shots(page, "private-panel-empty");

    const form = page.getByRole("form", { name: "Trust an entity" });
    await form.getByRole("textbox", { name: "Entity name" }).fill("bob");
    await form.getByRole("textbox", { name: "Public key" }).fill("not-a-key");
    await form.getByRole("button", { name: "Check key" }).click();
    await expect
      .poll(() => form.getByText("43 characters of unpadded base64url").count())
      .toBeGreaterThan(0);

    const bobKey = bob.private.identity();
    await form.getByRole("textbox", { name: "Public key" }).fill(bobKey.publicKey);
    await form.getByRole("button", { name: "Check key" }).click();
    const shown = page.getByTestId("pin-fingerprint");
    await shown.waitFor();
    expect(await shown.textContent()).toContain(bobKey.fingerprint);
    expect(alice.private.trust.keyOf("bob")).toBeUndefined();
    await shots(page, "private-panel-check");
    await form.getByRole("button", { name: "Trust entity" }).click();
    const table = page.getByRole("table", { name: "Trusted entities" });
    await table.waitFor();
    expect(await table.textContent()).toContain(bobKey.fingerprint);
    expect(alice.private.trust.keyOf("bob")).toBeDefined();

    await connected(alice, bob);
    const command = privateCommand({ code: "(+ 40 2)", from: "alice", to: ["bob"] });
    const r = await fetch(`${alice.baseUrl}/chain/0/pact/api/v1/private`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(command),
    });
    expect(r.status, await r.clone().text()).toBe(200);
    const chains = page.getByRole("table", { name: "Private chains" });
    await chains.waitFor({ timeout: 15_000 });
    await expect.poll(() => chains.textContent()).toContain("In step with bob");
    await shots(page, "private-panel-pinned");

    await table.getByRole("button", { name: "Stop trusting bob" }).click();
    await page.getByTestId("no-trusted").waitFor();
    expect(alice.private.trust.keyOf("bob")).toBeUndefined();
    expect(env.problems).toEqual([]);
  }, 180_000);
});
