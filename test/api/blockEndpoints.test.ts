/**
 * GET {base_url}/chain/{chain}/block and POST …/block/branch: blocks are
 * `{header: <object>, payloadWithOutputs}`, JSON only (other Accept values
 * 406), with the same paging and statuses as the other lists.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockHeaderToObject } from "../../src-node/chain/blockHeaderObject.ts";
import { payloadWithOutputsToJson } from "../../src-node/chain/payloadWithOutputs.ts";
import type { Block } from "../../src-node/store/blockDb.ts";
import { type ApiFixture, json, openForkedNode, page, withQuery } from "../support/apiFixture.ts";
import { MINER, signedCommand } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode } from "../support/testNode.ts";

let t: ApiFixture;
let byHash: Map<string, Block>;
beforeAll(async () => {
  t = await openForkedNode();
  byHash = new Map(t.chain.blocks.map((b) => [b.header.hash, b]));
});
afterAll(async () => {
  await t.cleanup();
});

const listUrl = (c: number | string) => `${t.base}/chain/${c}/block`;
const branchUrl = (c: number | string) => `${t.base}/chain/${c}/block/branch`;

type BlockJson = { header: { hash: string; height: number }; payloadWithOutputs: unknown };

function expectBlockJson(item: BlockJson): void {
  const block = byHash.get(item.header.hash);
  if (block === undefined) {
    // A genesis block: its payload is the node's.
    const g = t.node.blocks.header(item.header.hash as never)!;
    expect(item.header).toEqual(blockHeaderToObject(g));
    expect(item.payloadWithOutputs).toEqual(
      payloadWithOutputsToJson(t.node.blocks.payload(g.payloadHash)!),
    );
    return;
  }
  expect(item).toEqual({
    header: blockHeaderToObject(block.header),
    payloadWithOutputs: payloadWithOutputsToJson(block.payload),
  });
}

describe("[api] GET /chain/{chain}/block", () => {
  it("answers blocks with header objects and payloads with outputs, orphans included", async () => {
    const r = await t.request("GET", listUrl(8));
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toMatch(/^application\/json/);
    const p = page<BlockJson>(r);
    expect(p.items).toHaveLength(10); // genesis, 1–8, and the orphan at 7
    for (const item of p.items) expectBlockJson(item);
    expect(Object.keys(p.items[1]!)).toEqual(["header", "payloadWithOutputs"]);
    expect(Object.keys(p.items[1]!.payloadWithOutputs as object)).toEqual([
      "transactions",
      "minerData",
      "transactionsHash",
      "outputsHash",
      "payloadHash",
      "coinbase",
    ]);
    expect(p.items.map((b) => b.header.hash)).toContain(t.chain.orphans.get(8)!.hash);
  });

  it("answers JSON for every JSON Accept value and 406 for others", async () => {
    for (const accept of [
      "application/json",
      "*/*",
      "application/json;blockheader-encoding=object",
    ]) {
      expect(
        (await t.request("GET", `${listUrl(8)}?limit=1`, { headers: { accept } })).statusCode,
        accept,
      ).toBe(200);
    }
    for (const accept of ["application/octet-stream", "text/plain"]) {
      expect((await t.request("GET", listUrl(8), { headers: { accept } })).statusCode, accept).toBe(
        406,
      );
    }
  });

  it("walks pages and filters heights", async () => {
    const seen: number[] = [];
    let next: string | undefined;
    for (;;) {
      const p = page<BlockJson>(
        await t.request("GET", withQuery(listUrl(8), { limit: 2, minheight: 6, next })),
      );
      expect(p.items.length).toBeLessThanOrEqual(2);
      seen.push(...p.items.map((b) => b.header.height));
      if (p.next === null) break;
      next = p.next;
    }
    expect(seen).toEqual([6, 7, 7, 8]);
  });

  it("answers 404 for an unknown chain, cursor or maxheight and 400 for malformed values", async () => {
    expect((await t.request("GET", listUrl(11))).statusCode).toBe(404);
    const r = await t.request("GET", `${listUrl(8)}?next=exclusive:${`${"D".repeat(42)}A`}`);
    expect(r.statusCode).toBe(404);
    expect(json(r)).toEqual({ key: `${"D".repeat(42)}A`, reason: "key not found" });
    expect((await t.request("GET", `${listUrl(8)}?maxheight=9`)).statusCode).toBe(404);
    expect((await t.request("GET", `${listUrl(8)}?limit=ten`)).statusCode).toBe(400);
    expect((await t.request("GET", `${t.base}/chain/x/block`)).statusCode).toBe(400);
  });
});

describe("[api] POST /chain/{chain}/block/branch", () => {
  it("answers the blocks of the branch, descending, orphans skipped", async () => {
    const body = { upper: [t.chain.main.cut.get(8)!.hash], lower: [t.chain.mainAt(8, 5).hash] };
    const p = page<BlockJson>(await t.request("POST", branchUrl(8), { body }));
    expect(p.items.map((b) => b.header.height)).toEqual([8, 7, 6]);
    for (const item of p.items) expectBlockJson(item);
    expect(p.items.map((b) => b.header.hash)).not.toContain(t.chain.orphans.get(8)!.hash);
  });

  it("answers an orphan's branch when asked for it", async () => {
    const orphan = t.chain.orphans.get(8)!;
    const body = { upper: [orphan.hash], lower: [t.chain.mainAt(8, 6).hash] };
    const p = page<BlockJson>(await t.request("POST", branchUrl(8), { body }));
    expect(p.items.map((b) => b.header.hash)).toEqual([orphan.hash]);
  });

  it("answers 400 for too many bounds, 404 for unknown ones, 406 for binary", async () => {
    const head = t.chain.main.cut.get(8)!.hash;
    expect(
      (await t.request("POST", branchUrl(8), { body: { upper: Array(33).fill(head) } })).statusCode,
    ).toBe(400);
    const r = await t.request("POST", branchUrl(8), {
      body: { upper: [head], lower: ["E".repeat(43)] },
    });
    expect(r.statusCode).toBe(404);
    expect(json(r)).toEqual({ key: "E".repeat(43), reason: "key not found" });
    const bin = await t.request("POST", branchUrl(8), {
      body: { upper: [head] },
      headers: { accept: "application/octet-stream" },
    });
    expect(bin.statusCode).toBe(406);
    expect(
      (await t.request("POST", `${branchUrl(8)}?maxheight=100`, { body: { upper: [head] } }))
        .statusCode,
    ).toBe(404);
  });
});

describe('[api] a block with a transaction (spec "Full block")', () => {
  it("holds [command, output] pairs, the miner information and the coinbase as base64url JSON", async () => {
    const n = await openTestNode();
    try {
      const cmd = signedCommand({ code: "(+ 1 2)" });
      const sent = await n.request("POST", `${n.base}/chain/0/pact/api/v1/send`, {
        body: { cmds: [cmd] },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const mined = await mineOn(n.node, 0);
      const r = await n.request("GET", `${n.base}/chain/0/block?minheight=1`);
      expect(r.statusCode).toBe(200);
      const [block] = page<{ header: { hash: string }; payloadWithOutputs: PayloadJson }>(r).items;
      expect(block?.header.hash).toBe(mined.hash);
      const p = block!.payloadWithOutputs;
      const decode = (s: string): Record<string, unknown> =>
        JSON.parse(Buffer.from(s, "base64url").toString("utf8")) as Record<string, unknown>;
      expect(p.transactions).toHaveLength(1);
      const [tx, output] = p.transactions[0]!;
      // The first string of a pair is the command as sent, the second its result.
      expect(decode(tx!)).toMatchObject({ hash: cmd.hash, cmd: cmd.cmd });
      expect(decode(output!)).toMatchObject({
        reqKey: cmd.hash,
        result: { status: "success", data: 3 },
      });
      expect(decode(p.minerData)).toEqual({
        account: MINER.account,
        predicate: MINER.predicate,
        "public-keys": MINER.publicKeys,
      });
      expect(decode(p.coinbase)).toMatchObject({ result: { status: "success" } });
      expect(p.payloadHash).toBe(mined.payloadHash);
      for (const s of [tx, output, p.minerData, p.coinbase, p.transactionsHash, p.outputsHash])
        expect(s).toMatch(/^[A-Za-z0-9_-]*$/);
    } finally {
      await n.cleanup();
    }
  });
});

type PayloadJson = {
  transactions: string[][];
  minerData: string;
  transactionsHash: string;
  outputsHash: string;
  payloadHash: string;
  coinbase: string;
};
