/**
 * The wallet's commands (renderer/src/features/wallet/): the exact `cmd` of a transfer and
 * of a transfer-create with their capabilities, the batched balance read and its parser,
 * and both against a real node (test-singleton, requests through `inject()`) with the
 * renderer's own contract command client: one `/local` reads every account on a chain
 * (missing ones included), and a signed transfer passes the preflight, is sent, mined and
 * polled, and moves exactly the amount and the fee.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FetchLike } from "../../renderer/src/api/nodeClient.ts";
import { createNodeClient } from "../../renderer/src/api/nodeClient.ts";
import { createPactClient, type PactClient } from "../../renderer/src/api/pactClient.ts";
import {
  type AccountOnChain,
  accountDetailsCode,
  accountDetailsPayload,
  pactString,
  parseAccountDetails,
} from "../../renderer/src/features/wallet/accounts/accountDetails.ts";
import {
  capabilityText,
  type TransferPlan,
  transferPayload,
} from "../../renderer/src/features/wallet/transfer/transferCommand.ts";
import { cmdOf } from "../../src-node/command/buildCommand.ts";
import { commandModel } from "../../src-node/command/commandModel.ts";
import { readJsonExact } from "../../src-node/command/exactJson.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const ONE = 10n ** 12n;
const S0 = DEV_ACCOUNT_KEYS[0];
const S1 = DEV_ACCOUNT_KEYS[1];
if (S0 === undefined || S1 === undefined) throw new Error("no dev accounts");
const K0 = `k:${S0.publicKey}`;
const K1 = `k:${S1.publicKey}`;

const plan = (over: Partial<TransferPlan> = {}): TransferPlan => ({
  networkId: "test-singleton",
  chainId: 0,
  sender: K0,
  signerPublicKey: S0.publicKey,
  receiver: K1,
  createGuard: null,
  amount: 12n * ONE + ONE / 4n,
  gasLimit: 2500,
  gasPrice: 10_000n,
  ttl: 28_800,
  creationTime: 1_700_000_000,
  nonce: "n1",
  ...over,
});

let t: TestNode;
let pact: PactClient;

function injectFetch(): FetchLike {
  return async (url, init) => {
    const u = new URL(url);
    const res = await t.node.server.inject({
      method: init.method,
      url: `${u.pathname}${u.search}`,
      headers: { host: "127.0.0.1:1848", ...(init.headers ?? {}) },
      ...(init.body === undefined ? {} : { payload: init.body }),
    });
    return {
      ok: res.statusCode >= 200 && res.statusCode < 300,
      status: res.statusCode,
      headers: { get: (name: string) => String(res.headers[name.toLowerCase()] ?? "") || null },
      text: () => Promise.resolve(res.body),
    };
  };
}

async function details(chainId: number, accounts: readonly string[]) {
  const cmd = commandModel.buildCommand(
    accountDetailsPayload("test-singleton", chainId, accounts, Math.floor(Date.now() / 1000)),
  );
  const r = await pact.local(chainId, { ...cmd, sigs: [] });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  if (!r.value.outcome.ok) throw new Error(r.value.outcome.message);
  const parsed = parseAccountDetails(r.value.outcome.data, accounts);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

const balanceOf = (a: AccountOnChain) => (a.exists ? a.balance : null);

beforeAll(async () => {
  t = await openTestNode();
  pact = createPactClient(
    createNodeClient({ origin: "http://127.0.0.1:1848", basePath: t.base, fetch: injectFetch() }),
  );
});
afterAll(async () => {
  await t?.cleanup();
});

describe("[renderer] wallet commands", () => {
  it("builds a transfer's cmd with exact capabilities and a Pact decimal amount", () => {
    const p = transferPayload(plan());
    expect(cmdOf(p)).toBe(
      `{"payload":{"exec":{"code":"(coin.transfer \\"${K0}\\" \\"${K1}\\" 12.25)","data":null}},` +
        `"meta":{"chainId":"0","sender":"${K0}","gasLimit":2500,"gasPrice":0.00000001,"ttl":28800,"creationTime":1700000000},` +
        `"signers":[{"pubKey":"${S0.publicKey}","clist":[{"name":"coin.TRANSFER","args":["${K0}","${K1}",12.25]},{"name":"coin.GAS","args":[]}]}],` +
        `"networkId":"test-singleton","nonce":"n1"}`,
    );
    // A whole amount is still a decimal (1.0, not the integer 1).
    const whole = transferPayload(plan({ amount: ONE }));
    expect(whole.signers[0]?.clist.map(capabilityText)).toEqual([
      `(coin.TRANSFER "${K0}" "${K1}" 1.0)`,
      "(coin.GAS)",
    ]);
    expect(() => transferPayload(plan({ amount: 0n }))).toThrow(RangeError);
  });

  it("builds a transfer-create with the receiver's keyset in the data", () => {
    const key = "ab".repeat(32);
    const p = transferPayload(
      plan({ receiver: `k:${key}`, createGuard: { keys: [key], pred: "keys-all" }, amount: 1n }),
    );
    expect(cmdOf(p)).toContain(
      `"exec":{"code":"(coin.transfer-create \\"${K0}\\" \\"k:${key}\\" (read-keyset \\"receiver-guard\\") 0.000000000001)",` +
        `"data":{"receiver-guard":{"keys":["${key}"],"pred":"keys-all"}}}`,
    );
    expect(cmdOf(p)).toContain(
      `"clist":[{"name":"coin.TRANSFER","args":["${K0}","k:${key}",0.000000000001]},{"name":"coin.GAS","args":[]}]`,
    );
  });

  it("reads many accounts in one command and parses missing ones, balances and guards", () => {
    expect(accountDetailsCode(['a"b', "c\\d"])).toBe(
      '(map (lambda (a) (try {"account": a} (coin.details a))) ["a\\"b" "c\\\\d"])',
    );
    expect(pactString('x"y')).toBe('"x\\"y"');
    const json = readJsonExact(
      '[{"guard":{"pred":"keys-all","keys":["aa"]},"balance":1.0e-12,"account":"x1"},' +
        '{"account":"x2"},{"guard":{"fun":"m.g","args":[]},"balance":{"decimal":"123456789.123456789012"},"account":"x3"}]',
    );
    if (!json.ok) throw new Error(json.error);
    expect(parseAccountDetails(json.value, ["x1", "x2", "x3"])).toEqual({
      ok: true,
      value: [
        {
          account: "x1",
          exists: true,
          balance: 1n,
          guard: { kind: "keyset", keys: ["aa"], pred: "keys-all" },
        },
        { account: "x2", exists: false },
        {
          account: "x3",
          exists: true,
          balance: 123456789123456789012n,
          guard: { kind: "other", json: '{"fun":"m.g","args":[]}' },
        },
      ],
    });
    expect(parseAccountDetails(json.value, ["x1", "x2"]).ok).toBe(false);
    expect(parseAccountDetails(json.value, ["x1", "zz", "x3"]).ok).toBe(false);
  });

  it("reads every account of a chain with one /local against the node", async () => {
    const got = await details(3, [S0.account, K0, "no-such-account", 'quote"d\\name', "ab"]);
    expect(got.map((a) => a.exists)).toEqual([true, true, false, false, false]);
    expect(got.map(balanceOf).slice(0, 2)).toEqual([1_000_000n * ONE, 1_000_000n * ONE]);
    expect(got[1]).toMatchObject({
      guard: { kind: "keyset", keys: [S0.publicKey], pred: "keys-all" },
    });
  });

  it("preflights, sends and confirms a signed transfer and a transfer-create: exact balance changes", async () => {
    const fresh = `k:${"cd".repeat(32)}`;
    const before = await details(0, [K0, K1, fresh]);
    const now = Math.floor(Date.now() / 1000);
    const amounts = [5n * ONE + 1n, 3n * ONE];
    const plans = [
      plan({ amount: amounts[0] ?? 0n, creationTime: now - 10, nonce: "a" }),
      plan({
        receiver: fresh,
        createGuard: { keys: ["cd".repeat(32)], pred: "keys-all" },
        amount: amounts[1] ?? 0n,
        creationTime: now - 10,
        nonce: "b",
      }),
    ];
    const keys: string[] = [];
    for (const p of plans) {
      const unsigned = commandModel.buildCommand(transferPayload(p));
      const sig = commandModel.signRequestKey(unsigned.hash, S0.secretKey).sig;
      const command = { ...unsigned, sigs: [{ sig }] };
      const pre = await pact.preflight(0, command);
      if (!pre.ok) throw new Error(JSON.stringify(pre.error));
      expect(pre.value.result.outcome).toMatchObject({ ok: true });
      const sent = await pact.send(0, [command]);
      if (!sent.ok) throw new Error(JSON.stringify(sent.error));
      expect(sent.value).toEqual([unsigned.hash]);
      keys.push(unsigned.hash);
    }
    // Nothing is in a block yet.
    const pending = await pact.poll(0, keys);
    expect(pending.ok && pending.value.size).toBe(0);
    const header = await mineOn(t.node, 0);
    const polled = await pact.poll(0, keys);
    if (!polled.ok) throw new Error(JSON.stringify(polled.error));
    const results = keys.map((k) => polled.value.get(k));
    expect(results.map((r) => r?.outcome.ok)).toEqual([true, true]);
    expect(results.map((r) => r?.blockHeight)).toEqual([header.height, header.height]);
    const fees = results.map((r) => BigInt(r?.gas ?? 0) * 10_000n);
    const after = await details(0, [K0, K1, fresh]);
    const spent = (amounts[0] ?? 0n) + (amounts[1] ?? 0n) + (fees[0] ?? 0n) + (fees[1] ?? 0n);
    expect(balanceOf(after[0] as AccountOnChain)).toBe(
      (balanceOf(before[0] as AccountOnChain) ?? 0n) - spent,
    );
    expect(balanceOf(after[1] as AccountOnChain)).toBe(
      (balanceOf(before[1] as AccountOnChain) ?? 0n) + (amounts[0] ?? 0n),
    );
    expect(before[2]?.exists).toBe(false);
    expect(after[2]).toMatchObject({
      exists: true,
      balance: amounts[1],
      guard: { kind: "keyset", keys: ["cd".repeat(32)], pred: "keys-all" },
    });
  });

  it("shows a failing command's message from the preflight", async () => {
    const unsigned = commandModel.buildCommand(
      transferPayload(
        plan({ amount: 10_000_000n * ONE, creationTime: Math.floor(Date.now() / 1000) - 10 }),
      ),
    );
    const sig = commandModel.signRequestKey(unsigned.hash, S0.secretKey).sig;
    const pre = await pact.preflight(0, { ...unsigned, sigs: [{ sig }] });
    if (!pre.ok) throw new Error(JSON.stringify(pre.error));
    expect(pre.value.result.outcome.ok).toBe(false);
    if (!pre.value.result.outcome.ok)
      expect(pre.value.result.outcome.message).toMatch(/[Ii]nsufficient/);
  });
});
