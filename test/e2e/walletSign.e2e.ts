/**
 * "Sign a transaction" in headless Chromium against the REAL node (test-singleton, mining on,
 * a temporary data folder): a transfer from sender00 is prepared with `weft -u` (the CLI run
 * in-process on a request file naming sender00's public key), pasted into the wallet that
 * imported sender00, reviewed (network, chain, code, capabilities, the key held here), signed,
 * sent and confirmed; the node shows the amount moved. A copy whose hash does not match its
 * cmd is refused with the reason before anything is shown to sign. "Prepare for others to sign"
 * on the transfer review gives unsigned SigData that the sign page signs and sends; a transaction
 * for another network waits for the user's confirmation. The review shows a signer's address
 * and every capability argument's numbers as signed (nested in objects and lists too), and a
 * transaction whose signer names another key as its address is refused in words (issue 31).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readAccounts } from "../../renderer/src/features/wallet/accounts/readAccounts.ts";
import type { CliIo } from "../../src-node/cli/io.ts";
import { main } from "../../src-node/cli/main.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { saveScreenshot } from "./support/browser.ts";
import { saveGuideScreenshot } from "./support/guideScreenshot.ts";
import { setUpRealNodePage } from "./support/realNodePage.ts";
import {
  expectReviewOfSignerAddress,
  signerAddressCommand,
} from "./support/signerAddressCommand.ts";
import {
  createWallet,
  importTestAccount,
  openWallet,
  unlockIfLocked,
} from "./support/walletSetup.ts";

const ONE = 10n ** 12n;
const S0 = DEV_ACCOUNT_KEYS[0];
const S1 = DEV_ACCOUNT_KEYS[1];
if (S0 === undefined || S1 === undefined) throw new Error("no test accounts");
const FROM = `k:${S0.publicKey}`;
const TO = `k:${S1.publicKey}`;

/** A real node mining and confirming on a busy machine: more than the 60 s default. */
const LONG_TEST_MS = 120_000;

// Each test's page has a context of its own: axe opens a page beside the one under test.
const env = setUpRealNodePage({
  name: "sign",
  mining: { enabled: true, threads: 1, account: `k:${"ef".repeat(32)}` },
});

/** `weft -u FILE` in-process: the unsigned transaction's YAML. */
async function weftUnsigned(requestYaml: string): Promise<string> {
  const file = join(env.dataDir, "transfer.yaml");
  writeFileSync(file, requestYaml);
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    readStdin: async () => "",
    now: () => new Date(),
  };
  const code = await main(["-u", file], io);
  if (code !== 0) throw new Error(`weft -u failed: ${stderr}`);
  return stdout;
}

describe("[e2e] sign a transaction prepared with weft -u", () => {
  it(
    "pastes, reviews, signs, sends and confirms it; refuses a hash that does not match",
    async () => {
      const { page, node, pact } = env;
      await createWallet(page, node);
      await importTestAccount(page, FROM);
      const creationTime = Math.floor(Date.now() / 1000) - 30;
      const unsigned = await weftUnsigned(
        [
          `code: (coin.transfer "${FROM}" "${TO}" 2.25)`,
          "signers:",
          `  - public: ${S0.publicKey}`,
          "    caps:",
          "      - name: coin.GAS",
          "        args: []",
          "      - name: coin.TRANSFER",
          `        args: ["${FROM}", "${TO}", 2.25]`,
          "nonce: e2e-sign-1",
          "networkId: test-singleton",
          "publicMeta:",
          '  chainId: "0"',
          `  sender: ${FROM}`,
          "  gasLimit: 2500",
          `  creationTime: ${creationTime}`,
          "",
        ].join("\n"),
      );
      const hash = (parse(unsigned) as { hash: string }).hash;
      expect(hash).toHaveLength(43);

      const before = await readAccounts(pact, "test-singleton", 0, [FROM, TO]);
      await page.getByRole("button", { name: "Sign a transaction" }).click();
      await page.getByRole("heading", { level: 1, name: "Sign a transaction" }).waitFor();
      expect(new URL(page.url()).hash).toBe("#/wallet/sign");

      // A copy with another request key is refused, naming the right one.
      const wrongHash = `${hash[0] === "A" ? "B" : "A"}${hash.slice(1)}`;
      await page.getByLabel("Transaction", { exact: true }).fill(unsigned.replace(hash, wrongHash));
      await expect
        .poll(() => page.getByTestId("sign-problem").textContent())
        .toContain(`hash does not match cmd: the request key of cmd is ${hash}`);
      expect(await page.getByRole("button", { name: "Sign", exact: true }).count()).toBe(0);

      await page.getByLabel("Transaction", { exact: true }).fill(unsigned);
      await page.getByTestId("sign-review").waitFor();
      expect(await page.getByTestId("sign-network").textContent()).toBe("test-singleton");
      expect(await page.getByTestId("sign-chain").textContent()).toBe("0");
      expect(await page.getByTestId("sign-sender").textContent()).toBe(FROM);
      expect(await page.getByTestId("sign-code").textContent()).toBe(
        `(coin.transfer "${FROM}" "${TO}" 2.25)`,
      );
      const signers = page.getByTestId("sign-signers");
      expect(await signers.textContent()).toContain("held here (sender00)");
      expect(await signers.textContent()).toContain(`(coin.TRANSFER "${FROM}" "${TO}" 2.25)`);
      expect(await page.getByTestId("sign-gas").textContent()).toContain("2,500");
      expect(await page.getByTestId("sign-hash").textContent()).toBe(hash);
      expect(await page.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);
      await saveScreenshot(page, "wallet-sign-review");
      await saveGuideScreenshot(page, "wallet-sign-review");
      // The review screen meets WCAG A/AA (as every page does, test/e2e/accessibility.e2e.ts).
      const axe = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
        .analyze();
      expect(
        axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`),
      ).toEqual([]);

      await page.getByRole("button", { name: "Sign", exact: true }).click();
      await expect
        .poll(() => page.getByTestId("sign-summary").textContent(), { timeout: 20_000 })
        .toContain("Every signature is present");
      // The signed copy is in the form it came in: weft -u YAML with the signature filled in.
      const output = (await page.getByTestId("sign-output").textContent()) ?? "";
      const signedTx = parse(output) as { hash: string; sigs: Record<string, string>; cmd: string };
      expect(Object.keys(signedTx)).toEqual(["hash", "sigs", "cmd"]);
      expect(signedTx.hash).toBe(hash);
      expect(signedTx.sigs[S0.publicKey]).toMatch(/^[0-9a-f]{128}$/);

      await page.getByRole("button", { name: "Send", exact: true }).click();
      const status = page.getByTestId("transfer-status");
      await expect
        .poll(() => status.textContent(), { timeout: 90_000 })
        .toMatch(/^Confirmed in block \d+ of chain 0$/);
      await saveScreenshot(page, "wallet-sign-confirmed");

      const polled = await pact.poll(0, [hash]);
      if (!polled.ok) throw new Error(JSON.stringify(polled.error));
      const result = polled.value.get(hash);
      expect(result?.outcome.ok).toBe(true);
      const fee = BigInt(result?.gas ?? 0) * 10_000n;
      const amount = 2n * ONE + ONE / 4n;
      const after = await readAccounts(pact, "test-singleton", 0, [FROM, TO]);
      const bal = (a: (typeof after)[number] | undefined) => (a?.exists ? a.balance : -1n);
      // Mining credits the miner's account, not these two: the change is exact.
      expect(bal(after[0])).toBe(bal(before[0]) - amount - fee);
      expect(bal(after[1])).toBe(bal(before[1]) + amount);
      expect(env.problems).toEqual([]);
    },
    LONG_TEST_MS,
  );

  it(
    "prepares a transfer for others to sign, and the sign page signs and sends it; another network needs confirming",
    async () => {
      const { page, node } = env;
      await openWallet(page, node);
      await unlockIfLocked(page);
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await page.getByLabel("From", { exact: true }).selectOption({ label: `sender00 — ${FROM}` });
      await page.getByLabel("Chain", { exact: true }).fill("0");
      await page.getByLabel("Receiver", { exact: true }).fill(TO);
      await page.getByTestId("receiver-guard").waitFor({ timeout: 20_000 });
      await page.getByLabel("Amount", { exact: true }).fill("0.5");
      await page.getByRole("button", { name: "Review" }).click();
      await page.getByRole("button", { name: "Prepare for others to sign" }).click();
      const prepared = JSON.parse((await page.getByTestId("prepared-tx").textContent()) ?? "") as {
        cmd: string;
        hash: string;
        sigs: { pubKey: string; sig: null }[];
      };
      expect(prepared.sigs).toEqual([{ pubKey: S0.publicKey, sig: null }]);

      // A transaction for another network is shown, but not signed until the user confirms.
      const other = await weftUnsigned(
        [
          `code: (coin.transfer "${FROM}" "${TO}" 1.0)`,
          "signers:",
          `  - public: ${S0.publicKey}`,
          "networkId: development",
          `publicMeta: {chainId: "0", sender: "${FROM}"}`,
          "",
        ].join("\n"),
      );
      await page.goto(`${node.appUrl}#/wallet/sign`);
      const input = page.getByLabel("Transaction", { exact: true });
      await input.fill(other);
      await page.getByTestId("sign-network-warning").waitFor();
      const signButton = page.getByRole("button", { name: "Sign", exact: true });
      expect(await signButton.isDisabled()).toBe(true);
      await page.getByLabel("Sign for development anyway").check();
      expect(await signButton.isDisabled()).toBe(false);

      await input.fill(JSON.stringify(prepared));
      expect(await page.getByTestId("sign-network-warning").count()).toBe(0);
      expect(await page.getByTestId("sign-hash").textContent()).toBe(prepared.hash);
      await signButton.click();
      await expect
        .poll(() => page.getByTestId("sign-summary").textContent(), { timeout: 20_000 })
        .toContain("Every signature is present");
      const out = JSON.parse((await page.getByTestId("sign-output").textContent()) ?? "");
      expect(out.sigs[0].pubKey).toBe(S0.publicKey);
      expect(out.sigs[0].sig).toMatch(/^[0-9a-f]{128}$/);
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await expect
        .poll(() => page.getByTestId("transfer-status").textContent(), { timeout: 90_000 })
        .toMatch(/^Confirmed in block \d+ of chain 0$/);
      expect(env.problems).toEqual([]);
    },
    LONG_TEST_MS,
  );

  it("shows each signer's address and every capability argument as signed; refuses an address that is not the key, in words", async () => {
    const { page, node } = env;
    await openWallet(page, node);
    await unlockIfLocked(page);
    await page.goto(`${node.appUrl}#/wallet/sign`);
    await page.getByRole("heading", { level: 1, name: "Sign a transaction" }).waitFor();
    const unsignedOf = (addr: string) => {
      const u = signerAddressCommand(addr, "test-singleton");
      return JSON.stringify({ cmd: u.cmd, hash: u.hash, sigs: [null] });
    };
    const input = page.getByLabel("Transaction", { exact: true });

    await input.fill(unsignedOf(S0.publicKey));
    await expectReviewOfSignerAddress(page);
    await saveScreenshot(page, "wallet-sign-address");

    // The same signer naming another key as its address: refused before anything is shown.
    await input.fill(unsignedOf(S1.publicKey));
    await expect
      .poll(() => page.getByTestId("sign-problem").textContent())
      .toContain(
        `Refused: signer 1 signs with the key ${S0.publicKey} but names the address ${S1.publicKey}, which is not that key.`,
      );
    expect(await page.getByTestId("sign-review").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Sign", exact: true }).count()).toBe(0);
    await saveScreenshot(page, "wallet-sign-address-refused");
    expect(env.problems).toEqual([]);
  });
});
