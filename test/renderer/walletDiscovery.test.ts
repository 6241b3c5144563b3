/**
 * Account discovery against a real node (test-singleton, in process): one unsigned /local per
 * chain, built by the renderer's code, finds the `k:` accounts that exist (the funded test
 * keys) and not the others; a failing chain is named.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientErrorCode, type ClientResult } from "../../renderer/src/api/clientError.ts";
import {
  discoverAccounts,
  discoveryCommand,
  type LocalCaller,
  parseDiscoveryAnswer,
} from "../../renderer/src/features/wallet/discovery/accountDiscovery.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

let t: TestNode;
beforeAll(async () => {
  t = await openTestNode();
});
afterAll(async () => {
  await t?.cleanup();
});

function localOf(node: TestNode, calls: number[]): LocalCaller {
  return async (chainId, command): Promise<ClientResult<unknown>> => {
    calls.push(chainId);
    const r = await node.request(
      "POST",
      `${node.base}/chain/${chainId}/pact/api/v1/local?signatureVerification=false`,
      { body: command },
    );
    if (r.statusCode !== 200) {
      return {
        ok: false,
        error: {
          code: ClientErrorCode.HttpStatus,
          url: "",
          status: r.statusCode,
          nodeCode: null,
          message: r.body,
        },
      };
    }
    return { ok: true, value: JSON.parse(r.body) };
  };
}

describe("[renderer] account discovery", () => {
  it("finds the funded test keys' k: accounts with one /local per chain", async () => {
    const accounts = [
      `k:${"ab".repeat(32)}`,
      `k:${DEV_ACCOUNT_KEYS[0]?.publicKey}`,
      `k:${"cd".repeat(32)}`,
      `k:${DEV_ACCOUNT_KEYS[3]?.publicKey}`,
    ];
    const chains = t.node.version.chainIds;
    const calls: number[] = [];
    const found = await discoverAccounts(
      localOf(t, calls),
      accounts,
      [...chains],
      "test-singleton",
      Date.now() / 1000 - 30,
    );
    expect([...found].sort()).toEqual([1, 3]);
    expect(calls.sort((a, b) => a - b)).toEqual([...chains].sort((a, b) => a - b));
  });

  it("asks about 20 keys within the command's gas", async () => {
    const accounts = Array.from({ length: 20 }, (_, i) => `k:${i.toString(16).padStart(64, "0")}`);
    const r = await t.request(
      "POST",
      `${t.base}/chain/0/pact/api/v1/local?signatureVerification=false`,
      { body: discoveryCommand(accounts, 0, "test-singleton", Date.now() / 1000 - 30) },
    );
    expect(r.statusCode, r.body).toBe(200);
    const parsed = parseDiscoveryAnswer(JSON.parse(r.body), 20);
    expect(parsed).toEqual({ ok: true, value: Array(20).fill(false) });
  });

  it("names a chain whose answer is a failure", async () => {
    const failing: LocalCaller = async () => ({
      ok: true,
      value: { result: { status: "failure", error: { message: "boom" } } },
    });
    await expect(discoverAccounts(failing, ["k:x"], [7], "test-singleton", 0)).rejects.toThrow(
      /chain 7: .*boom/,
    );
  });
});
