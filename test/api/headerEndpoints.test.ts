/**
 * GET {base_url}/chain/{chain}/header, GET …/header/{blockHash} and
 * POST …/header/branch: every Accept variant (base64url strings, objects,
 * binary where supported, 406 otherwise), pagination, forks and statuses.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { decodeBlockHeader, encodeBlockHeader } from "../../src-node/chain/blockHeaderBinary.ts";
import {
  blockHeaderFromObject,
  blockHeaderToObject,
} from "../../src-node/chain/blockHeaderObject.ts";
import { decodeBlockHeaderText } from "../../src-node/chain/blockHeaderText.ts";
import { compareHash32 } from "../../src-node/encoding/hash32.ts";
import { type ApiFixture, json, openForkedNode, page, withQuery } from "../support/apiFixture.ts";

let t: ApiFixture;
beforeAll(async () => {
  t = await openForkedNode();
});
afterAll(async () => {
  await t.cleanup();
});

const OBJECT = "application/json;blockheader-encoding=object";
const listUrl = (c: number | string) => `${t.base}/chain/${c}/header`;
const oneUrl = (c: number | string, h: string) => `${t.base}/chain/${c}/header/${h}`;
const branchUrl = (c: number | string) => `${t.base}/chain/${c}/header/branch`;

function chainBlocks(c: number): BlockHeader[] {
  return [...t.chain.main.headers.values()]
    .filter((h) => h.chainId === c)
    .sort((a, b) => a.height - b.height || compareHash32(a.hash, b.hash));
}

describe("[api] GET /chain/{chain}/header", () => {
  it("answers base64url headers for application/json, no Accept, */* and application/*", async () => {
    const expected = chainBlocks(5);
    for (const accept of [
      "application/json",
      undefined,
      "*/*",
      "application/*",
      "text/html, application/json;q=0.5",
    ]) {
      const r = await t.request(
        "GET",
        listUrl(5),
        accept === undefined ? {} : { headers: { accept } },
      );
      expect(r.statusCode, String(accept)).toBe(200);
      const p = page<string>(r);
      expect(
        p.items.map((s) => decodeBlockHeaderText(s)),
        String(accept),
      ).toEqual(expected);
    }
  });

  it("answers header objects for application/json;blockheader-encoding=object", async () => {
    const r = await t.request("GET", listUrl(5), { headers: { accept: OBJECT } });
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toBe(OBJECT);
    const p = page<Record<string, unknown>>(r);
    expect(p.items).toEqual(chainBlocks(5).map(blockHeaderToObject));
    expect(Object.keys(p.items[0]!)).toEqual([
      "nonce",
      "creationTime",
      "parent",
      "adjacents",
      "target",
      "payloadHash",
      "chainId",
      "weight",
      "height",
      "ledgerVersion",
      "epochStart",
      "featureFlags",
      "hash",
    ]);
    expect(p.items.map((o) => blockHeaderFromObject(o))).toEqual(chainBlocks(5));
  });

  it("prefers the Accept value of higher quality", async () => {
    const r = await t.request("GET", `${listUrl(5)}?limit=1`, {
      headers: { accept: `application/json;q=0.4, ${OBJECT};q=0.9` },
    });
    expect(typeof page(r).items[0]).toBe("object");
  });

  it("answers 406 for binary and unsupported Accept values", async () => {
    for (const accept of [
      "application/octet-stream",
      "text/html",
      "application/json;blockheader-encoding=text",
      "application/json;q=0",
    ]) {
      const r = await t.request("GET", listUrl(5), { headers: { accept } });
      expect(r.statusCode, accept).toBe(406);
      expect(r.headers["content-type"]).toMatch(/^text\/plain/);
    }
  });

  it("walks pages with cursors, orphans included, filtered by heights", async () => {
    const expected = chainBlocks(6).filter((h) => h.height >= 1 && h.height <= 7);
    const got: BlockHeader[] = [];
    let next: string | undefined;
    for (;;) {
      const r = await t.request(
        "GET",
        withQuery(listUrl(6), { limit: 3, minheight: 1, maxheight: 7, next }),
        {
          headers: { accept: OBJECT },
        },
      );
      const p = page<Record<string, unknown>>(r);
      expect(p.items.length).toBeLessThanOrEqual(3);
      got.push(...p.items.map((o) => blockHeaderFromObject(o)));
      if (p.next === null) break;
      next = p.next;
    }
    expect(got).toEqual(expected);
    expect(got.map((h) => h.hash)).toContain(t.chain.orphans.get(6)!.hash);
  });

  it("answers 404 for an unknown chain, a cursor of no block, a maxheight no block has", async () => {
    expect((await t.request("GET", listUrl(10))).statusCode).toBe(404);
    const unknown = `${"B".repeat(42)}A`;
    const r = await t.request("GET", `${listUrl(0)}?next=inclusive:${unknown}`);
    expect(r.statusCode).toBe(404);
    expect(json(r)).toEqual({ key: unknown, reason: "key not found" });
    expect((await t.request("GET", `${listUrl(0)}?maxheight=20`)).statusCode).toBe(404);
  });

  it("answers 400 for malformed parameters", async () => {
    for (const q of ["limit=x", "minheight=-2", "maxheight=a", "next=x", "next=inclusive:"]) {
      expect((await t.request("GET", `${listUrl(0)}?${q}`)).statusCode, q).toBe(400);
    }
  });
});

describe("[api] GET /chain/{chain}/header/{blockHash}", () => {
  it("answers one header in every encoding: string, object, binary", async () => {
    const h = t.chain.mainAt(7, 4);
    const s = await t.request("GET", oneUrl(7, h.hash));
    expect(s.statusCode).toBe(200);
    expect(decodeBlockHeaderText(json(s) as string)).toEqual(h);
    const o = await t.request("GET", oneUrl(7, h.hash), { headers: { accept: OBJECT } });
    expect(json(o)).toEqual(blockHeaderToObject(h));
    const b = await t.request("GET", oneUrl(7, h.hash), {
      headers: { accept: "application/octet-stream" },
    });
    expect(b.statusCode).toBe(200);
    expect(b.headers["content-type"]).toBe("application/octet-stream");
    expect(b.rawPayload).toHaveLength(318);
    expect(new Uint8Array(b.rawPayload)).toEqual(encodeBlockHeader(h));
    expect(decodeBlockHeader(new Uint8Array(b.rawPayload))).toEqual(h);
  });

  it("answers orphans too", async () => {
    const orphan = t.chain.orphans.get(2)!;
    const r = await t.request("GET", oneUrl(2, orphan.hash), { headers: { accept: OBJECT } });
    expect(json(r)).toEqual(blockHeaderToObject(orphan));
  });

  it("answers 404 with the not-found object for a hash unknown on the chain", async () => {
    const other = t.chain.mainAt(3, 2).hash;
    const r = await t.request("GET", oneUrl(7, other));
    expect(r.statusCode).toBe(404);
    expect(r.headers["content-type"]).toMatch(/^application\/json/);
    expect(json(r)).toEqual({ key: other, reason: "key not found" });
  });

  it("answers 400 for a malformed hash, 404 for an unknown chain, 406 for an unsupported Accept", async () => {
    for (const bad of ["short", "A".repeat(44), `${"A".repeat(42)}=`, `${"A".repeat(42)}B`]) {
      expect((await t.request("GET", oneUrl(0, bad))).statusCode, bad).toBe(400);
    }
    const h = t.chain.mainAt(0, 1).hash;
    expect((await t.request("GET", oneUrl(42, h))).statusCode).toBe(404);
    expect(
      (await t.request("GET", oneUrl(0, h), { headers: { accept: "text/html" } })).statusCode,
    ).toBe(406);
  });
});

describe("[api] POST /chain/{chain}/header/branch", () => {
  it("answers the branch in the negotiated encoding, orphans skipped", async () => {
    const head = t.chain.main.cut.get(9)!;
    const body = { upper: [head.hash], lower: [t.chain.mainAt(9, 3).hash] };
    const expected = [8, 7, 6, 5, 4].map((h) => t.chain.mainAt(9, h));
    const s = page<string>(await t.request("POST", branchUrl(9), { body }));
    expect(s.items.map((x) => decodeBlockHeaderText(x))).toEqual(expected);
    const o = await t.request("POST", branchUrl(9), { body, headers: { accept: OBJECT } });
    expect(o.headers["content-type"]).toBe(OBJECT);
    expect(page(o).items).toEqual(expected.map(blockHeaderToObject));
  });

  it("pages with inclusive cursors", async () => {
    const body = { upper: [t.chain.main.cut.get(9)!.hash] };
    const p1 = page<string>(await t.request("POST", `${branchUrl(9)}?limit=4`, { body }));
    expect(p1.items).toHaveLength(4);
    expect(p1.next).toBe(`inclusive:${t.chain.mainAt(9, 4).hash}`);
    const p2 = page<string>(
      await t.request("POST", withQuery(branchUrl(9), { limit: 4, next: p1.next! }), { body }),
    );
    expect(p2.items.map((x) => decodeBlockHeaderText(x).height)).toEqual([4, 3, 2, 1]);
  });

  it("answers 406 for binary, 400 for too many bounds, 404 for an unknown bound", async () => {
    const head = t.chain.main.cut.get(9)!.hash;
    const bin = await t.request("POST", branchUrl(9), {
      body: { upper: [head] },
      headers: { accept: "application/octet-stream" },
    });
    expect(bin.statusCode).toBe(406);
    const many = await t.request("POST", branchUrl(9), {
      body: { lower: Array(33).fill(head), upper: [head] },
    });
    expect(many.statusCode).toBe(400);
    const unknown = await t.request("POST", branchUrl(9), {
      body: { upper: [`${"C".repeat(42)}A`] },
    });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown)).toEqual({ key: `${"C".repeat(42)}A`, reason: "key not found" });
  });
});
