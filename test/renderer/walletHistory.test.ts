/**
 * The wallet's history (docs/wallet.md "History"): entries recorded and merged by request key
 * (kind and facts kept, status only forward), newest first and capped; a poll's result making an
 * entry succeeded or failed with its fee, a prepared one expiring; the facts read from a command
 * and from the explorer's transaction answer; the file round trip beside the pending transfers
 * (older files without history still read); and the CSV export: header row, RFC 4180 quoting,
 * formula-looking text neutralized.
 */
import { describe, expect, it } from "vitest";
import {
  parsePendingAnswer,
  parseWalletRecords,
  pendingFileOf,
} from "../../renderer/src/features/wallet/crosschain/pendingFile.ts";
import { newPending } from "../../renderer/src/features/wallet/crosschain/pendingTransfer.ts";
import {
  commandFacts,
  decimalText,
} from "../../renderer/src/features/wallet/history/commandFacts.ts";
import {
  csvField,
  HISTORY_CSV_HEADER,
  historyCsv,
  historyCsvName,
} from "../../renderer/src/features/wallet/history/historyCsv.ts";
import {
  applyPoll,
  chainsText,
  feeOf,
  historyStatusText,
  newHistoryEntry,
  recordEntry,
  sortHistory,
} from "../../renderer/src/features/wallet/history/historyModel.ts";
import { entryFromExplorerTx } from "../../renderer/src/features/wallet/history/lookupTransaction.ts";
import { pollHistory } from "../../renderer/src/features/wallet/history/pollHistory.ts";
import { transferPayload } from "../../renderer/src/features/wallet/transfer/transferCommand.ts";
import { type HistoryEntry, MAX_HISTORY } from "../../src-node/walletFiles/historyEntry.ts";

const key = (c: string) => c.repeat(43);
const entry = (over: Partial<HistoryEntry> = {}): HistoryEntry =>
  newHistoryEntry({
    requestKey: key("A"),
    kind: "transfer",
    chain: 0,
    sender: "k:from",
    receiver: "k:to",
    amount: "1.5",
    gasPrice: "0.00000001",
    expiresAt: 1_000,
    createdAt: 10,
    ...over,
  });

describe("[renderer] the history model", () => {
  it("records new entries newest first and merges a known request key without losing facts", () => {
    let list = recordEntry([], entry());
    list = recordEntry(list, entry({ requestKey: key("B"), createdAt: 20 }));
    expect(list.map((e) => e.requestKey)).toEqual([key("B"), key("A")]);
    // A multi-signature transfer prepared here, then sent from "Sign a transaction".
    list = recordEntry(
      list,
      entry({ requestKey: key("C"), kind: "multisig", status: "prepared", createdAt: 30 }),
    );
    list = recordEntry(
      list,
      entry({
        requestKey: key("C"),
        kind: "signed",
        status: "pending",
        amount: null,
        createdAt: 40,
      }),
    );
    const c = list.find((e) => e.requestKey === key("C"));
    expect(c).toMatchObject({ kind: "multisig", status: "pending", amount: "1.5", createdAt: 30 });
    expect(list).toHaveLength(3);
    // The status never goes back.
    const done = recordEntry([entry({ status: "succeeded", blockHeight: 7 })], entry());
    expect(done[0]).toMatchObject({ status: "succeeded", blockHeight: 7 });
  });

  it("keeps the newest entries only, in a stable order", () => {
    const many = Array.from({ length: MAX_HISTORY + 5 }, (_, i) =>
      entry({ requestKey: String(i).padStart(43, "k"), createdAt: i }),
    );
    const kept = many.reduce<readonly HistoryEntry[]>((l, e) => recordEntry(l, e), []);
    expect(kept).toHaveLength(MAX_HISTORY);
    expect(kept[0]?.createdAt).toBe(MAX_HISTORY + 4);
    expect(kept.at(-1)?.createdAt).toBe(5);
    const tie = sortHistory([entry({ requestKey: key("Z") }), entry({ requestKey: key("B") })]);
    expect(tie.map((e) => e.requestKey)).toEqual([key("B"), key("Z")]);
  });

  it("follows a poll: succeeded with fee and block, failed with the message, expired when never sent", () => {
    const e = entry({ status: "prepared" });
    expect(applyPoll(e, { found: false }, 1_000)).toBe(e);
    expect(applyPoll(e, { found: false }, 1_061)).toMatchObject({ status: "expired" });
    const ok = applyPoll(e, { found: true, ok: true, gas: 734, blockHeight: 12, message: null }, 0);
    expect(ok).toMatchObject({ status: "succeeded", fee: "0.00000734", blockHeight: 12 });
    expect(historyStatusText(ok)).toBe("Succeeded in block 12");
    const failed = applyPoll(
      entry(),
      { found: true, ok: false, gas: 2500, blockHeight: 3, message: "Insufficient funds" },
      0,
    );
    expect(historyStatusText(failed)).toBe("Failed: Insufficient funds");
    expect(failed.fee).toBe("0.000025");
    // Finished entries are not looked at again.
    expect(applyPoll(ok, { found: false }, 99_999)).toBe(ok);
    expect(feeOf(10, null)).toBeNull();
    expect(chainsText(entry({ kind: "crosschain", targetChain: 3 }))).toBe("0 → 3");
    expect(chainsText(entry())).toBe("0");
  });

  it("reads the facts of a transfer command and of the explorer's transaction answer", () => {
    const payload = transferPayload({
      networkId: "test-singleton",
      chainId: 2,
      targetChainId: 5,
      sender: "k:from",
      signerPublicKey: "ab".repeat(32),
      receiver: "k:to",
      createGuard: { keys: ["cd".repeat(32)], pred: "keys-all" },
      amount: 2_250_000_000_000n,
      gasLimit: 2500,
      gasPrice: 10_000n,
      ttl: 600,
      creationTime: 1_700_000_000,
      nonce: "n",
    });
    expect(commandFacts(payload)).toEqual({
      chain: 2,
      targetChain: 5,
      sender: "k:from",
      receiver: "k:to",
      amount: "2.25",
      gasPrice: "0.00000001",
      expiresAt: 1_700_000_600,
    });
    expect(decimalText(1e-8)).toBe("0.00000001");
    expect(decimalText({ decimal: "3.5" })).toBe("3.5");
    expect(decimalText("-1")).toBeNull();

    const tx = {
      requestKey: key("Q"),
      status: "confirmed",
      chain: 3,
      block: { hash: "h", chain: 3, height: 1204 },
      command: {
        hash: key("Q"),
        sigs: [],
        cmd: {
          payload: { exec: { code: "(coin.transfer …)", data: {} } },
          meta: {
            chainId: "3",
            sender: "sender00",
            gasLimit: 1000,
            gasPrice: 0.00000001,
            ttl: 600,
            creationTime: 1764151100,
          },
          signers: [
            {
              pubKey: "p",
              clist: [
                { name: "coin.GAS", args: [] },
                { name: "coin.TRANSFER", args: ["sender00", "k:x", 1.5] },
              ],
            },
          ],
        },
      },
      expiresAt: 1764151700,
      gas: 526,
      result: { result: { status: "success", data: "Write succeeded" } },
      crossChain: null,
    };
    const read = entryFromExplorerTx(tx, 5);
    expect(read).toEqual({
      ok: true,
      value: entry({
        requestKey: key("Q"),
        kind: "added",
        status: "succeeded",
        chain: 3,
        sender: "sender00",
        receiver: "k:x",
        amount: "1.5",
        fee: "0.00000526",
        blockHeight: 1204,
        expiresAt: 1764151700,
        createdAt: 5,
      }),
    });
    const pending = entryFromExplorerTx(
      { ...tx, status: "pending", block: null, gas: null, result: null },
      5,
    );
    expect(pending.ok && pending.value.status).toBe("pending");
    const bad = entryFromExplorerTx({ ...tx, chain: "three" }, 5);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain("tx.chain");
  });
});

describe("[renderer] the history's poll", () => {
  it("asks each chain once for its open entries; a chain that does not answer changes nothing", async () => {
    const asked: [number, readonly string[]][] = [];
    const pact = {
      poll: async (chain: number, keys: readonly string[]) => {
        asked.push([chain, keys]);
        if (chain === 3) {
          return {
            ok: false as const,
            error: { code: "CLIENT_UNREACHABLE" as const, url: "x", detail: "down" },
          };
        }
        return {
          ok: true as const,
          value: new Map([
            [
              key("A"),
              {
                reqKey: key("A"),
                gas: 600,
                outcome: { ok: true as const, data: "Write succeeded" },
                blockHeight: 9,
                blockHash: "h",
                continuation: null,
              },
            ],
          ]),
        };
      },
    };
    const entries = [
      entry(),
      entry({ requestKey: key("B"), status: "prepared", expiresAt: 100 }),
      entry({ requestKey: key("C"), chain: 3 }),
      entry({ requestKey: key("D"), status: "succeeded" }),
    ];
    const changed = await pollHistory(entries, pact, 1_000);
    expect(asked).toEqual([
      [0, [key("A"), key("B")]],
      [3, [key("C")]],
    ]);
    expect([...changed.keys()]).toEqual([key("A"), key("B")]);
    expect(changed.get(key("A"))).toMatchObject({
      status: "succeeded",
      fee: "0.000006",
      blockHeight: 9,
    });
    expect(changed.get(key("B"))?.status).toBe("expired");
  });
});

describe("[renderer] the history in wallet/pending.json", () => {
  it("round-trips history and multi-signature accounts; a file without them still reads", () => {
    const transfer = newPending({
      requestKey: key("T"),
      sourceChain: 0,
      targetChain: 3,
      sender: null,
      receiver: null,
      amount: null,
      createdAt: 1,
    });
    const records = {
      history: [
        entry(),
        entry({ requestKey: key("B"), status: "failed", message: "no", createdAt: 11 }),
      ],
      multisig: [
        {
          account: "w:x:keys-all",
          keys: ["ab".repeat(32), "cd".repeat(32)],
          pred: "keys-all" as const,
          chains: [0, 3],
          createdAt: 2,
        },
      ],
    };
    const file = pendingFileOf([transfer], records);
    const back = parseWalletRecords(JSON.parse(JSON.stringify({ pending: file })));
    expect(back).toEqual({
      ok: true,
      value: {
        transfers: [transfer],
        history: sortHistory(records.history),
        multisig: records.multisig,
      },
    });
    expect(parsePendingAnswer({ pending: file })).toEqual({ ok: true, value: [transfer] });
    const old = pendingFileOf([transfer]);
    expect("history" in old).toBe(false);
    expect(parseWalletRecords({ pending: old })).toEqual({
      ok: true,
      value: { transfers: [transfer], history: [], multisig: [] },
    });
    const bad = parseWalletRecords({
      pending: { ...file, history: [{ ...entry(), status: "lost" }] },
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain("pending.history[0].status");
    const badKey = parseWalletRecords({
      pending: { ...file, multisig: [{ ...records.multisig[0], keys: ["nothex"] }] },
    });
    expect(badKey.ok).toBe(false);
    if (!badKey.ok) expect(badKey.error).toContain("pending.multisig[0].keys[0]");
  });
});

describe("[renderer] the history as CSV", () => {
  it("quotes commas, quotes and line breaks, and neutralizes formula-looking text", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("=1+2")).toBe("'=1+2");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("-5,x")).toBe(`"'-5,x"`);
    expect(csvField("-5", { text: false })).toBe("-5");
  });

  it("writes a header row and one row per entry, newest first, CRLF", () => {
    const csv = historyCsv([
      entry({ createdAt: Date.UTC(2026, 10, 26, 9, 0, 0) }),
      entry({
        requestKey: key("B"),
        kind: "crosschain",
        targetChain: 3,
        status: "failed",
        message: 'refused, "badly"',
        receiver: "=HYPERLINK(x)",
        fee: "0.0000123",
        blockHeight: 42,
        createdAt: Date.UTC(2026, 10, 26, 10, 0, 0),
      }),
    ]);
    const lines = csv.split("\r\n");
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
    expect(lines[0]).toBe(HISTORY_CSV_HEADER.join(","));
    expect(lines[1]).toBe(
      `2026-11-26T10:00:00.000Z,${key("B")},Cross-chain transfer,"Failed: refused, ""badly""",1.5,k:from,'=HYPERLINK(x),0 → 3,0.0000123,42`,
    );
    expect(lines[2]).toBe(
      `2026-11-26T09:00:00.000Z,${key("A")},Transfer,Pending,1.5,k:from,k:to,0,,`,
    );
    expect(historyCsvName("test/singleton", new Date(Date.UTC(2026, 0, 2)))).toBe(
      "weft-history-test_singleton-2026-01-02.csv",
    );
  });
});
