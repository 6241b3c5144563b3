/**
 * The unsigned command the reviews' address tests sign (issue 31): sender00's account pays,
 * one signer (its key, and the `addr` a test chooses) scoped to `coin.GAS` and a capability
 * whose arguments hold exact numbers at every depth, and what the review must show of it.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { Capability, UnsignedCommand } from "../../../src-node/command/commandTypes.ts";
import { type JsonValue, parseJsonExact } from "../../../src-node/command/exactJson.ts";
import { nodeCommands } from "../../../src-node/exec/nodeCommands.ts";
import { DEV_ACCOUNT_KEYS } from "../../../src-node/genesis/devAccountKeys.ts";

const KEY = DEV_ACCOUNT_KEYS[0]?.publicKey;
if (KEY === undefined) throw new Error("no test accounts");
const SIGNER: string = KEY;
const FROM = `k:${SIGNER}`;

const clist: Capability[] = [
  { name: "coin.GAS", args: [] },
  {
    name: "free.shop.PAY",
    args: parseJsonExact(
      `["${FROM}", 2.50, {"amount": 2.50, "list": [1, {"decimal": "0.10"}]}]`,
    ) as JsonValue[],
  },
];

/**
 * Checks the open review ("Sign a transaction" or a dapp's request) of the command with `addr`
 * equal to its key: the address line, and the capability with every number as written.
 */
export async function expectReviewOfSignerAddress(page: Page): Promise<void> {
  await page.getByTestId("sign-review").waitFor();
  expect(await page.getByTestId("signer-address").textContent()).toBe(
    `Address ${SIGNER}: the same as its key, as it must be.`,
  );
  const signers = (await page.getByTestId("sign-signers").textContent()) ?? "";
  expect(signers).toContain(`(free.shop.PAY "${FROM}" 2.50 {"amount": 2.50, "list": [1, 0.10]})`);
  expect(signers).not.toContain('"text"');
}

/** sender00's key signs; `addr` is whatever the test names. */
export function signerAddressCommand(addr: string, networkId: string): UnsignedCommand {
  return nodeCommands.buildCommand({
    payload: { exec: { code: "(free.shop.pay 2.50)", data: null } },
    meta: {
      chainId: "0",
      sender: FROM,
      gasLimit: 2500,
      gasPrice: "0.00000001",
      ttl: 600,
      creationTime: Math.floor(Date.now() / 1000) - 30,
    },
    signers: [{ pubKey: SIGNER, addr, clist }],
    networkId,
    nonce: `e2e-addr-${addr}`,
  });
}
