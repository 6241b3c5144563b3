/**
 * `GET/PUT /app/api/wallet/pending` (docs/wallet.md "Cross-chain transfers"): the wallet's
 * pending cross-chain transfers stored as `<dataDir>/<network>/wallet/pending.json` (0600,
 * replaced atomically); a file the renderer writes (`pendingFileOf`) is accepted and given
 * back as its parser reads it; other shapes are refused naming the field, bodies over 2 MiB
 * with 413, requests without the app token with 403; a stored file that is not JSON is 409.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  parsePendingAnswer,
  parseWalletRecords,
  pendingFileOf,
} from "../../renderer/src/features/wallet/crosschain/pendingFile.ts";
import {
  advance,
  newPending,
} from "../../renderer/src/features/wallet/crosschain/pendingTransfer.ts";
import { newHistoryEntry } from "../../renderer/src/features/wallet/history/historyModel.ts";
import { writeFileAtomic } from "../../src-node/store/atomicFile.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const URL = "/app/api/wallet/pending";
const open: TestNode[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
});

async function node(): Promise<TestNode> {
  const t = await openTestNode();
  open.push(t);
  return t;
}

const headers = (t: TestNode) => ({ host: "127.0.0.1:1848", "x-weft-app-token": t.node.appToken });
const fileOf = (t: TestNode) => join(t.dir, "test-singleton", "wallet", "pending.json");

const transfer = newPending({
  requestKey: "A".repeat(43),
  sourceChain: 0,
  targetChain: 3,
  sender: "k:a",
  receiver: "k:b",
  amount: "1.5",
  createdAt: 1_700_000_000_000,
});
const finishing = advance(advance(transfer, { kind: "step1-succeeded" }), {
  kind: "proof",
  continuation: { cmd: '{"a":1}', hash: "B".repeat(43), sigs: [{ sig: "ab".repeat(64) }] },
});

describe("[api] the wallet's pending cross-chain transfers", () => {
  it("answers null first, then the saved file, which the renderer's parser reads back", async () => {
    const t = await node();
    const empty = await t.request("GET", URL, { headers: headers(t) });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(JSON.parse(empty.body)).toEqual({ pending: null });

    const file = pendingFileOf([transfer, { ...finishing, requestKey: "C".repeat(43) }]);
    const put = await t.request("PUT", URL, { headers: headers(t), body: file });
    expect(put.statusCode, put.body).toBe(200);
    expect(JSON.parse(put.body)).toEqual({ saved: true });
    expect(statSync(fileOf(t)).mode & 0o777).toBe(0o600);

    const got = await t.request("GET", URL, { headers: headers(t) });
    expect(parsePendingAnswer(JSON.parse(got.body))).toEqual({
      ok: true,
      value: file.transfers,
    });
  });

  it("refuses other shapes naming the field, big bodies with 413, no token with 403", async () => {
    const t = await node();
    const good = pendingFileOf([transfer]);
    const bad: [string, unknown][] = [
      ["version", { ...good, version: 2 }],
      ["phase", { ...good, transfers: [{ ...transfer, phase: "lost" }] }],
      ["requestKey", { ...good, transfers: [{ ...transfer, requestKey: "short" }] }],
      ["secret", { ...good, transfers: [{ ...transfer, secret: "00" }] }],
    ];
    for (const [field, body] of bad) {
      const r = await t.request("PUT", URL, { headers: headers(t), body });
      expect(r.statusCode, `${field}: ${r.body}`).toBe(400);
      const answer = JSON.parse(r.body) as { code: string; message: string };
      expect(answer.code).toBe("APP_BAD_REQUEST");
    }
    const huge = {
      ...good,
      transfers: [
        { ...finishing, continuation: { ...finishing.continuation, cmd: "x".repeat(2_200_000) } },
      ],
    };
    expect((await t.request("PUT", URL, { headers: headers(t), body: huge })).statusCode).toBe(413);
    const noToken = await t.request("PUT", URL, {
      headers: { host: "127.0.0.1:1848" },
      body: good,
    });
    expect(noToken.statusCode).toBe(403);
    expect(existsSync(fileOf(t))).toBe(false);
  });

  it("refuses forged files with 400 naming the field, as the renderer's parser does", async () => {
    const t = await node();
    const good = pendingFileOf([{ ...finishing, requestKey: "C".repeat(43) }]);
    const [f] = good.transfers;
    if (f?.continuation == null) throw new Error("no continuation");
    const forged: [string, unknown][] = [
      ["extra: unknown field", { ...good, extra: 1 }],
      [
        "transfers.0.continuation.secretKey: unknown field",
        { ...good, transfers: [{ ...f, continuation: { ...f.continuation, secretKey: "00" } }] },
      ],
      [
        "transfers.0.continuation.sigs: expected at most 1 item",
        {
          ...good,
          transfers: [
            {
              ...f,
              continuation: {
                ...f.continuation,
                sigs: [...f.continuation.sigs, ...f.continuation.sigs],
              },
            },
          ],
        },
      ],
      [
        "transfers.0.reason: expected at most 2000 characters",
        { ...good, transfers: [{ ...f, reason: "r".repeat(2001) }] },
      ],
      ["transfers: expected at most 200 items", { ...good, transfers: Array(201).fill(f) }],
      ["history: expected an array", { ...good, history: null }],
    ];
    for (const [message, body] of forged) {
      const r = await t.request("PUT", URL, { headers: headers(t), body });
      expect(r.statusCode, `${message}: ${r.body}`).toBe(400);
      expect(JSON.parse(r.body)).toEqual({ code: "APP_BAD_REQUEST", message });
    }
    expect(existsSync(fileOf(t))).toBe(false);
  });

  it("keeps the history and the multi-signature accounts in the same file, checked", async () => {
    const t = await node();
    const records = {
      history: [
        newHistoryEntry({
          requestKey: "H".repeat(43),
          kind: "multisig",
          status: "prepared",
          chain: 0,
          sender: "w:abc:keys-all",
          receiver: "k:b",
          amount: "2.5",
          gasPrice: "0.00000001",
          expiresAt: 1_700_028_800,
          createdAt: 1_700_000_000_000,
        }),
      ],
      multisig: [
        {
          account: "w:abc:keys-all",
          keys: ["ab".repeat(32), "cd".repeat(32)],
          pred: "keys-all" as const,
          chains: [0],
          createdAt: 1_700_000_000_000,
        },
      ],
    };
    const file = pendingFileOf([transfer], records);
    const put = await t.request("PUT", URL, { headers: headers(t), body: file });
    expect(put.statusCode, put.body).toBe(200);
    const got = await t.request("GET", URL, { headers: headers(t) });
    expect(parseWalletRecords(JSON.parse(got.body))).toEqual({
      ok: true,
      value: { transfers: [transfer], ...records },
    });
    const [h] = records.history;
    const [m] = records.multisig;
    const bad: [string, unknown][] = [
      ["kind", { ...file, history: [{ ...h, kind: "stolen" }] }],
      ["amount", { ...file, history: [{ ...h, amount: "1e5" }] }],
      ["secret", { ...file, history: [{ ...h, secretKey: "00" }] }],
      ["pred", { ...file, multisig: [{ ...m, pred: "keys-3" }] }],
      ["keys", { ...file, multisig: [{ ...m, keys: ["not hex"] }] }],
    ];
    for (const [field, body] of bad) {
      const r = await t.request("PUT", URL, { headers: headers(t), body });
      expect(r.statusCode, `${field}: ${r.body}`).toBe(400);
    }
  });

  it("answers 409 for a stored file that is not JSON", async () => {
    const t = await node();
    writeFileAtomic(fileOf(t), "{ broken");
    const r = await t.request("GET", URL, { headers: headers(t) });
    expect(r.statusCode, r.body).toBe(409);
    expect(JSON.parse(r.body).message).toContain("pending.json");
    expect(readFileSync(fileOf(t), "utf8")).toBe("{ broken");
  });
});
