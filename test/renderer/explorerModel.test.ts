/**
 * The explorer's plain logic beside the braid: which search answer opens a page at once,
 * when a cross-chain transfer needs finishing, exact totals of balances, times and events in
 * words, the miner's reward, and parsers refusing what they cannot read (a block payload
 * that is not base64url, a result without a status, an unknown transaction state) while
 * skipping search result kinds this app does not know.
 */
import { describe, expect, it } from "vitest";
import { decode } from "../../renderer/src/api/decode.ts";
import {
  coinText,
  eventText,
  formatBlockTime,
  rewardOf,
  singleTarget,
  totalBalance,
  transferNeedsFinish,
} from "../../renderer/src/features/explorer/model.ts";
import {
  guardText,
  parseBalanceResult,
} from "../../renderer/src/features/explorer/wire/balance.ts";
import { parseBlockPage } from "../../renderer/src/features/explorer/wire/blocks.ts";
import {
  parseIndexedTransaction,
  parseSearch,
} from "../../renderer/src/features/explorer/wire/index.ts";
import { resultOfText } from "../../renderer/src/features/explorer/wire/transactions.ts";

const K = "y3aWL72-3wAy7vL9wzc8dQ2jc_9mLx9fWn-pkUWEHf0";
const H = "M4doD_JMRPBBQiJmsaOb6Y1zSzoTAi1Xk8jzNlFvKpE";

const summary = {
  hash: H,
  chain: 3,
  height: 9,
  parent: H,
  creationTime: 1,
  miner: "m",
  transactionCount: 1,
  orphaned: false,
};

describe("[renderer] explorer model", () => {
  it("opens one transaction, block, or exactly named account or module at once, lists the rest", () => {
    expect(
      singleTarget({
        query: K,
        results: [
          {
            kind: "transaction",
            requestKey: K,
            chain: 1,
            status: "pending",
            height: null,
            blockHash: null,
          },
        ],
      }),
    ).toEqual({
      to: "/explorer/tx/$requestKey",
      params: { requestKey: K },
    });
    expect(singleTarget({ query: H, results: [{ kind: "block", block: summary }] })).toEqual({
      to: "/explorer/chain/$chain/block/$hash",
      params: { chain: "3", hash: H },
    });
    expect(
      singleTarget({
        query: "sen",
        results: [{ kind: "account", account: "sender00", chains: [0] }],
      }),
    ).toBeNull();
    expect(
      singleTarget({ query: "coin", results: [{ kind: "module", name: "coin", chains: [0] }] }),
    ).toEqual({
      to: "/explorer/module/$name",
      params: { name: "coin" },
    });
    expect(
      singleTarget({ query: "9", results: [{ kind: "height", height: 9, blocks: [summary] }] }),
    ).toBeNull();
    expect(singleTarget({ query: "x", results: [] })).toBeNull();
  });

  it("offers to finish a cross-chain transfer only when step 1 is confirmed and the last is missing", () => {
    const cc = (s0: string, s1: string, complete = false, targetChain: number | null = 5) => ({
      targetChain,
      complete,
      steps: [
        { step: 0, status: s0 },
        { step: 1, status: s1 },
      ],
    });
    expect(transferNeedsFinish(cc("confirmed", "missing"))).toBe(true);
    expect(transferNeedsFinish(cc("pending", "missing"))).toBe(false);
    expect(transferNeedsFinish(cc("confirmed", "pending"))).toBe(false);
    expect(transferNeedsFinish(cc("confirmed", "confirmed", true))).toBe(false);
    expect(transferNeedsFinish(cc("confirmed", "missing", false, null))).toBe(false);
  });

  it("adds balances exactly and says times, events and rewards in words", () => {
    expect(totalBalance(["0.1", "0.2", "1000000.0"])).toBe("1,000,000.3");
    expect(totalBalance(["0.000000000001", "0.000000000002"])).toBe("0.000000000003");
    expect(totalBalance([])).toBe("0");
    // One form for every amount the explorer shows: the contract's "1000000.0", the index's
    // "52.8" and "5.35e-6" all read as the wallet writes them.
    expect(coinText("1000000.0")).toBe("1,000,000");
    expect(coinText("62.90000000")).toBe("62.9");
    expect(coinText("52.8")).toBe("52.8");
    expect(coinText("5.35e-6")).toBe("0.00000535");
    expect(coinText("not a number")).toBe("not a number");
    expect(formatBlockTime(1_764_151_200_123_456)).toBe("2025-11-26 10:00:00 UTC");
    const transfer = { module: "coin", name: "TRANSFER", params: ['""', '"k:a"', "2.3"] };
    expect(eventText(transfer)).toBe('coin.TRANSFER("", "k:a", 2.3)');
    expect(rewardOf([{ module: "x", name: "TRANSFER", params: [] }, transfer])).toBe("2.3");
    expect(rewardOf([])).toBeNull();
  });

  it("reads a balance, an absent account and a failure from /local", () => {
    const ok = (data: unknown) => ({ reqKey: K, gas: 5, result: { status: "success", data } });
    expect(parseBalanceResult(ok(["12.5", { keys: ["ab", "cd"], pred: "keys-any" }]))).toEqual({
      ok: true,
      value: {
        kind: "account",
        balance: "12.5",
        guard: { kind: "keyset", pred: "keys-any", keys: ["ab", "cd"] },
      },
    });
    const fail = (message: string) => ({
      reqKey: K,
      gas: 5,
      result: { status: "failure", error: { message } },
    });
    expect(parseBalanceResult(fail("with-read: row not found: nobody"))).toEqual({
      ok: true,
      value: { kind: "none" },
    });
    expect(parseBalanceResult(fail("Cannot resolve coin.details"))).toEqual({
      ok: true,
      value: { kind: "failed", message: "Cannot resolve coin.details" },
    });
    expect(parseBalanceResult(ok("nope")).ok).toBe(false);
    expect(guardText({ fun: "f", args: [] })).toBe('{"fun":"f","args":[]}');
    expect(guardText({ keys: ["ab"], pred: "keys-all" })).toBe("keys-all: ab");
  });

  it("reads results exactly and refuses what it cannot read", () => {
    const r = decode(null, () =>
      resultOfText(
        `{"gas":7,"result":{"status":"success","data":{"decimal":"0.123456789012345678"}},"reqKey":"${K}","logs":"x","events":[{"name":"E","params":[{"int":12345678901234567890}],"module":{"name":"m","namespace":"free"},"moduleHash":"h"}],"metaData":null,"continuation":null,"txId":3}`,
        "out",
      ),
    );
    expect(r).toMatchObject({
      ok: true,
      value: { ok: true, value: "0.123456789012345678", gas: 7, txId: 3 },
    });
    expect(r.ok && r.value.events).toEqual([
      { module: "free.m", name: "E", params: ["12345678901234567890"] },
    ]);
    expect(
      decode(null, () => resultOfText(`{"gas":1,"result":{},"reqKey":"${K}"}`, "out")),
    ).toEqual({
      ok: false,
      error: "out.result.status: expected a string",
    });
    const block = (tx: string) => ({
      items: [
        {
          header: {
            chainId: 0,
            height: 1,
            hash: H,
            parent: H,
            adjacents: {},
            creationTime: 1,
            epochStart: 1,
            nonce: "0",
            target: "t",
            weight: "w",
            payloadHash: H,
            featureFlags: 0,
          },
          payloadWithOutputs: {
            transactions: [[tx, "e30"]],
            minerData: "e30",
            coinbase: "",
            transactionsHash: H,
            outputsHash: H,
            payloadHash: H,
          },
        },
      ],
      next: null,
    });
    expect(parseBlockPage(block("not base64!"))).toEqual({
      ok: false,
      error: "items[0].payloadWithOutputs.transactions[0][0]: expected base64url text",
    });
    expect(parseIndexedTransaction({ requestKey: K, status: "lost" })).toEqual({
      ok: false,
      error: "status: expected confirmed, pending or orphaned",
    });
  });

  it("skips search results of kinds it does not know", () => {
    expect(
      parseSearch({
        query: "q",
        results: [{ kind: "galaxy" }, { kind: "account", account: "alice", chains: [1, 0] }],
      }),
    ).toEqual({
      ok: true,
      value: { query: "q", results: [{ kind: "account", account: "alice", chains: [1, 0] }] },
    });
  });
});
