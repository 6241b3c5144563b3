/**
 * Signing requests from dapps (docs/dapp-signing.md) in headless Chromium against the REAL node
 * (test-singleton, mining on, a temporary data folder): the wallet imports sender00 and
 * switches the signing API on (a free port); `@kadena/client`'s own Chainweaver signer
 * (`createSignWithChainweaver`, run from this test process, unchanged) sends a transfer to
 * `/v1/quicksign`; the page opens the review naming who asks, the test clicks Sign, the dapp
 * gets its signature, submits the command with `@kadena/client` to the node and it is
 * confirmed, the amount moved. A web page of another origin (a "dapp" served on localhost)
 * asks too, passing the browser's CORS preflight: the review names that origin, and Refuse
 * answers it with the API's refusal. A quicksign whose signer gives an address shows it in the
 * review with every capability argument's numbers as signed; one whose address names another
 * key is refused by the API itself, naming it, and never reaches the review (issue 31). A
 * request its dapp withdraws while on screen stays there shown withdrawn, Sign and Refuse off,
 * while a sandboxed frame's request (named "an unidentified web page (sandboxed)") waits behind
 * it instead of taking its place; the user moves on to it and refuses it (issue 35).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AxeBuilder } from "@axe-core/playwright";
import { createClient, createSignWithChainweaver, isSignedTransaction, Pact } from "@kadena/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAccounts } from "../../renderer/src/features/wallet/accounts/readAccounts.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { saveScreenshot } from "./support/browser.ts";
import { saveGuideScreenshot } from "./support/guideScreenshot.ts";
import { setUpRealNodePage } from "./support/realNodePage.ts";
import {
  expectReviewOfSignerAddress,
  signerAddressCommand,
} from "./support/signerAddressCommand.ts";
import { createWallet, importTestAccount, unlockIfLocked } from "./support/walletSetup.ts";

const ONE = 10n ** 12n;
const NETWORK = "test-singleton";
const S0 = DEV_ACCOUNT_KEYS[0];
const S1 = DEV_ACCOUNT_KEYS[1];
if (S0 === undefined || S1 === undefined) throw new Error("no test accounts");
const FROM = `k:${S0.publicKey}`;
const TO = `k:${S1.publicKey}`;

const real = setUpRealNodePage({
  name: "dapp",
  network: NETWORK,
  mining: { enabled: true, threads: 1, account: `k:${"ef".repeat(32)}` },
});
/** A "dapp" web page on another origin than the wallet's. */
let dappServer: Server;
let dappOrigin: string;

/** A port nothing listens on now (the signing API's, for this test). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  dappServer = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>A dapp</title><p>A dapp</p>");
  });
  await new Promise<void>((resolve) => dappServer.listen(0, "127.0.0.1", resolve));
  dappOrigin = `http://localhost:${(dappServer.address() as AddressInfo).port}`;
});
afterAll(() => {
  dappServer?.close();
});

/** A transfer from sender00 as a dapp builds it with @kadena/client, unsigned. */
const transferTx = (amount: string) =>
  Pact.builder
    .execution(`(coin.transfer "${FROM}" "${TO}" ${amount})`)
    .addSigner(S0.publicKey, (withCap) => [
      withCap("coin.GAS"),
      withCap("coin.TRANSFER", FROM, TO, { decimal: amount }),
    ])
    .setMeta({
      chainId: "0",
      senderAccount: FROM,
      gasLimit: 2500,
      gasPrice: 0.00000001,
      ttl: 600,
      creationTime: Math.floor(Date.now() / 1000) - 30,
    })
    .setNetworkId(NETWORK)
    .setNonce(`e2e-dapp-${amount}`)
    .createTransaction();

describe("[e2e] signing requests from dapps (Chainweaver's signing API)", () => {
  it("is off by default; switched on, @kadena/client's Chainweaver signer gets a signature the user approved, and the transfer is confirmed", async () => {
    const { page, node, pact, problems } = real;
    await createWallet(page, node);
    await importTestAccount(page, FROM);
    const setting = page.getByRole("region", { name: "Signing requests from dapps" });
    await setting.waitFor();
    expect(await page.getByTestId("dapp-signing-state").textContent()).toBe("Off.");
    expect(node.dappSigning.status().listening).toBe(false);

    const port = await freePort();
    await page.getByLabel("Signing API port", { exact: true }).fill(String(port));
    const toggle = page.getByRole("switch", { name: "Answer dapps' signing requests" });
    await page.locator("label.switch", { has: toggle }).click();
    await expect
      .poll(() => page.getByTestId("dapp-signing-state").textContent(), { timeout: 10_000 })
      .toBe(`On: listening at http://127.0.0.1:${port}`);

    const before = await readAccounts(pact, NETWORK, 0, [FROM, TO]);
    const tx = transferTx("1.5");
    const signWithChainweaver = createSignWithChainweaver({ host: `http://127.0.0.1:${port}` });
    const signing = signWithChainweaver(tx);

    // The request opens its review, whatever page was open, naming who asks.
    await page
      .getByRole("heading", { level: 1, name: "Signing request" })
      .waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).hash).toBe("#/wallet/dapp");
    expect(await page.getByTestId("dapp-origin").textContent()).toBe(
      "a program on this computer (no web origin)",
    );
    await page.getByTestId("sign-review").waitFor();
    expect(await page.getByTestId("sign-code").textContent()).toBe(
      `(coin.transfer "${FROM}" "${TO}" 1.5)`,
    );
    const signers = page.getByTestId("sign-signers");
    expect(await signers.textContent()).toContain("held here (sender00)");
    expect(await signers.textContent()).toContain("coin.TRANSFER");
    expect(await page.getByTestId("sign-hash").textContent()).toBe(tx.hash);
    await saveScreenshot(page, "wallet-dapp-review");
    await saveGuideScreenshot(page, "wallet-dapp-request", { top: true });
    // The review meets WCAG A/AA, as every page does (test/e2e/accessibility.e2e.ts).
    const axe = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual(
      [],
    );

    await page.getByRole("button", { name: "Sign", exact: true }).click();
    const signed = await signing;
    if (!isSignedTransaction(signed)) throw new Error(`not signed: ${JSON.stringify(signed)}`);
    expect(signed.hash).toBe(tx.hash);
    await page.getByTestId("dapp-none").waitFor();

    // The dapp sends it with its own client: the node takes it under the reference request key.
    const client = createClient(
      ({ chainId, networkId }) => `${node.origin}/chainweb/0.0/${networkId}/chain/${chainId}/pact`,
    );
    const descriptor = await client.submit(signed);
    expect(descriptor.requestKey).toBe(tx.hash);
    await expect
      .poll(
        async () => {
          const polled = await pact.poll(0, [tx.hash]);
          return polled.ok ? (polled.value.get(tx.hash)?.outcome.ok ?? null) : null;
        },
        { timeout: 90_000, interval: 1000 },
      )
      .toBe(true);
    const polled = await pact.poll(0, [tx.hash]);
    if (!polled.ok) throw new Error(JSON.stringify(polled.error));
    const fee = BigInt(polled.value.get(tx.hash)?.gas ?? 0) * 10_000n;
    const after = await readAccounts(pact, NETWORK, 0, [FROM, TO]);
    const bal = (a: (typeof after)[number] | undefined) => (a?.exists ? a.balance : -1n);
    const amount = ONE + ONE / 2n;
    expect(bal(after[0])).toBe(bal(before[0]) - amount - fee);
    expect(bal(after[1])).toBe(bal(before[1]) + amount);
    expect(problems).toEqual([]);
    // The confirmation alone may take up to 90 s on a busy machine.
  }, 150_000);

  it("a web dapp of another origin passes the CORS preflight; the review names its origin and Refuse answers the API's refusal", async () => {
    const { page, node, problems } = real;
    await page.goto(`${node.appUrl}#/wallet`);
    const unlock = page.getByRole("button", { name: "Unlock" });
    const lock = page.getByRole("button", { name: "Lock" });
    await Promise.race([unlock.waitFor(), lock.waitFor()]);
    const port = node.dappSigning.status().port;
    expect(node.dappSigning.status().listening).toBe(true);

    const dapp = await page.context().newPage();
    await dapp.goto(`${dappOrigin}/`);
    const tx = transferTx("0.25");
    const body = {
      cmdSigDatas: [{ cmd: tx.cmd, sigs: [{ pubKey: S0.publicKey, sig: null }] }],
    };
    const answer = dapp.evaluate(
      async ({ url, body }) => {
        const r = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json;charset=utf-8" },
          body: JSON.stringify(body),
        });
        return { status: r.status, body: await r.json() };
      },
      { url: `http://127.0.0.1:${port}/v1/quicksign`, body },
    );

    await page
      .getByRole("heading", { level: 1, name: "Signing request" })
      .waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("dapp-origin").textContent()).toBe(dappOrigin);
    // Locked (a new page): the review asks for the password first; Refuse needs none.
    await page.getByRole("button", { name: "Refuse" }).click();
    expect(await answer).toEqual({ status: 200, body: { error: { type: "reject" } } });
    await page.getByTestId("dapp-none").waitFor();
    expect(problems).toEqual([]);
  });

  it("shows a signer's address and capability numbers as signed; an address naming another key is refused by the API", async () => {
    const { page, node, problems } = real;
    await page.goto(`${node.appUrl}#/wallet`);
    await unlockIfLocked(page);
    const port = node.dappSigning.status().port;
    const quicksign = async (cmd: string) => {
      const r = await fetch(`http://127.0.0.1:${port}/v1/quicksign`, {
        method: "POST",
        headers: { "content-type": "application/json;charset=utf-8" },
        body: JSON.stringify({
          cmdSigDatas: [{ cmd, sigs: [{ pubKey: S0.publicKey, sig: null }] }],
        }),
      });
      return { status: r.status, body: (await r.json()) as unknown };
    };

    // Another key as the address: the API answers 400 at once (a queued request would wait for
    // the user), so nothing reaches the review.
    const refused = await quicksign(signerAddressCommand(S1.publicKey, NETWORK).cmd);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(
      "cmd.signers[0].addr: the address does not match",
    );

    const answer = quicksign(signerAddressCommand(S0.publicKey, NETWORK).cmd);
    await page
      .getByRole("heading", { level: 1, name: "Signing request" })
      .waitFor({ timeout: 20_000 });
    await expectReviewOfSignerAddress(page);
    await saveScreenshot(page, "wallet-dapp-address");
    await page.getByRole("button", { name: "Refuse" }).click();
    expect(await answer).toEqual({ status: 200, body: { error: { type: "reject" } } });
    await page.getByTestId("dapp-none").waitFor();
    expect(problems).toEqual([]);
  });

  it("a request withdrawn while on screen stays shown withdrawn with Sign off; the next (a sandboxed frame's) waits behind it", async () => {
    const { page, node, problems } = real;
    await page.goto(`${node.appUrl}#/wallet`);
    await unlockIfLocked(page);
    const url = `http://127.0.0.1:${node.dappSigning.status().port}/v1/quicksign`;
    const bodyOf = (amount: string) => ({
      cmdSigDatas: [{ cmd: transferTx(amount).cmd, sigs: [{ pubKey: S0.publicKey, sig: null }] }],
    });
    // The dapp's scripts, run in its page (strings: this file is typed without the DOM).
    const post = (amount: string) =>
      `fetch(${JSON.stringify(url)}, {method: "POST", headers: {"content-type": "application/json"}, body: ${JSON.stringify(JSON.stringify(bodyOf(amount)))}`;

    const dapp = await page.context().newPage();
    await dapp.goto(`${dappOrigin}/`);
    await dapp.evaluate(`(() => {
      const controller = new AbortController();
      window.withdraw = () => controller.abort();
      window.first = ${post("0.5")}, signal: controller.signal})
        .then((r) => r.text(), (e) => "withdrawn: " + e.name);
    })()`);
    await page
      .getByRole("heading", { level: 1, name: "Signing request" })
      .waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("dapp-origin").textContent()).toBe(dappOrigin);
    const sign = page.getByRole("button", { name: "Sign", exact: true });
    const refuse = page.getByRole("button", { name: "Refuse" });
    expect(await sign.isEnabled()).toBe(true);

    // A sandboxed frame of the same page asks too: its Origin is null.
    const framed = `<script>${post("0.75")}}).then((r) => r.text())
      .then((t) => parent.postMessage(t, "*"), (e) => parent.postMessage("failed: " + e, "*"));</script>`;
    await dapp.evaluate(`(() => {
      window.framed = new Promise((resolve) => {
        window.addEventListener("message", (e) => resolve(String(e.data)), { once: true });
      });
      const frame = document.createElement("iframe");
      frame.sandbox.add("allow-scripts");
      frame.srcdoc = ${JSON.stringify(framed)};
      document.body.append(frame);
    })()`);
    await expect
      .poll(() => page.getByTestId("dapp-request").textContent(), { timeout: 20_000 })
      .toContain("1 more wait after it.");
    expect(node.dappSigning.queue.list().map((r) => r.origin)).toEqual([dappOrigin, "null"]);
    // The first request is still the one on screen.
    expect(await page.getByTestId("sign-code").textContent()).toContain("0.5)");

    // The dapp withdraws it: it stays on screen, withdrawn, Sign and Refuse off.
    await dapp.evaluate("window.withdraw()");
    const ended = page.getByTestId("dapp-ended");
    await ended.waitFor({ timeout: 20_000 });
    expect(await ended.textContent()).toContain(`Withdrawn: ${dappOrigin} withdrew this request`);
    expect(await dapp.evaluate<string>("window.first")).toBe("withdrawn: AbortError");
    expect(await page.getByTestId("dapp-origin").textContent()).toBe(dappOrigin);
    expect(await page.getByTestId("sign-code").textContent()).toContain("0.5)");
    expect(await sign.isDisabled()).toBe(true);
    expect(await refuse.isDisabled()).toBe(true);
    expect(await page.getByTestId("dapp-stopped").textContent()).toBe(
      "Withdrawn by the dapp: Sign and Refuse are off.",
    );
    // Nothing reached the request waiting behind it.
    expect(node.dappSigning.queue.list().map((r) => r.origin)).toEqual(["null"]);
    const axe = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual(
      [],
    );
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 400, height: 900 });
    await page.emulateMedia({ colorScheme: "dark" });
    await saveScreenshot(page, "wallet-dapp-withdrawn-400-dark");
    await page.emulateMedia({ colorScheme: null });
    if (viewport !== null) await page.setViewportSize(viewport);

    // The user moves on: the sandboxed frame's request, named as such.
    await page.getByRole("button", { name: "Show the next request" }).click();
    await expect
      .poll(() => page.getByTestId("dapp-origin").textContent())
      .toBe("an unidentified web page (sandboxed)");
    expect(await page.getByTestId("sign-code").textContent()).toContain("0.75)");
    expect(await page.getByTestId("dapp-ended").count()).toBe(0);
    expect(await page.getByTestId("dapp-stopped").count()).toBe(0);
    expect(await sign.isEnabled()).toBe(true);
    await saveScreenshot(page, "wallet-dapp-sandboxed");
    await refuse.click();
    expect(JSON.parse(await dapp.evaluate<string>("window.framed"))).toEqual({
      error: { type: "reject" },
    });
    await page.getByTestId("dapp-none").waitFor();
    await dapp.close();
    expect(problems).toEqual([]);
  }, 120_000);
});
