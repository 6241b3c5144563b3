/**
 * GET {base_url}/chain/{chain}/hash and POST {base_url}/chain/{chain}/hash/branch:
 * ordering, orphans, pagination walks, limits, cursors, heights, branch
 * bounds and every status the spec lists.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApi } from "../../src-node/api/buildServer.ts";
import { MAX_HASH_PAGE, MAX_HEADER_PAGE } from "../../src-node/api/params.ts";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { compareHash32 } from "../../src-node/encoding/hash32.ts";
import { type ApiFixture, json, openForkedNode, page, withQuery } from "../support/apiFixture.ts";

let t: ApiFixture;
let hashUrl: (c: number | string) => string;
beforeAll(async () => {
  t = await openForkedNode();
  hashUrl = (c) => `${t.base}/chain/${c}/hash`;
});
afterAll(async () => {
  await t.cleanup();
});

function chainBlocks(c: number): BlockHeader[] {
  return [...t.chain.main.headers.values()]
    .filter((h) => h.chainId === c)
    .sort((a, b) => a.height - b.height || compareHash32(a.hash, b.hash));
}

/** Follows `next` until the end; returns every item and the number of requests. */
async function walkGet(url: string, query: Record<string, string | number>) {
  const items: string[] = [];
  let next: string | undefined;
  for (let n = 1; n < 200; n++) {
    const r = await t.request("GET", withQuery(url, { ...query, next }));
    expect(r.statusCode).toBe(200);
    const p = page<string>(r);
    expect(p.limit).toBe(p.items.length);
    items.push(...p.items);
    if (p.next === null) return { items, requests: n };
    next = p.next;
  }
  throw new Error("no end");
}

describe("[api] GET /chain/{chain}/hash", () => {
  it("lists every block of the chain, orphans included, ascending by (height, hash bytes)", async () => {
    const r = await t.request("GET", hashUrl(0));
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toMatch(/^application\/json/);
    const p = page<string>(r);
    const expected = chainBlocks(0).map((h) => h.hash);
    expect(p.items).toEqual(expected);
    expect(p.items).toContain(t.chain.orphans.get(0)!.hash);
    expect(p.limit).toBe(expected.length);
    expect(p.next).toBe(`exclusive:${expected[expected.length - 1]}`);
  });

  it("walks across pages with inclusive cursors and ends with an exclusive one, then null", async () => {
    const expected = chainBlocks(4).map((h) => h.hash);
    for (const limit of [1, 2, 4, 7]) {
      const { items, requests } = await walkGet(hashUrl(4), { limit });
      expect(items, `limit ${limit}`).toEqual(expected);
      expect(requests).toBe(Math.ceil(expected.length / limit) + 1);
    }
    const first = page(await t.request("GET", `${hashUrl(4)}?limit=2`));
    expect(first.next).toBe(`inclusive:${expected[2]}`);
  });

  it("returns no items and a cursor at the first for limit 0", async () => {
    const p = page(await t.request("GET", `${hashUrl(0)}?limit=0`));
    expect(p).toEqual({ limit: 0, items: [], next: `inclusive:${chainBlocks(0)[0]!.hash}` });
  });

  it("filters by minheight and maxheight (inclusive)", async () => {
    const p = page(await t.request("GET", withQuery(hashUrl(2), { minheight: 7, maxheight: 7 })));
    const at7 = chainBlocks(2).filter((h) => h.height === 7);
    expect(at7).toHaveLength(2);
    expect(p.items).toEqual(at7.map((h) => h.hash));
    const above = page(await t.request("GET", withQuery(hashUrl(2), { minheight: 100 })));
    expect(above).toEqual({ limit: 0, items: [], next: null });
  });

  it("starts at an exclusive cursor after its block", async () => {
    const all = chainBlocks(1);
    const p = page(
      await t.request(
        "GET",
        withQuery(hashUrl(1), { next: `exclusive:${all[3]!.hash}`, limit: 2 }),
      ),
    );
    expect(p.items).toEqual([all[4]!.hash, all[5]!.hash]);
  });

  it("gives an empty page for a cursor below minheight", async () => {
    const g = chainBlocks(1)[0]!;
    const p = page(
      await t.request("GET", withQuery(hashUrl(1), { next: `inclusive:${g.hash}`, minheight: 3 })),
    );
    expect(p).toEqual({ limit: 0, items: [], next: null });
  });

  it("lowers a limit above the maximum to it", async () => {
    // The fixture chain is short; check the clamp on a server with small page limits.
    const small = buildApi(
      {
        version: t.node.version,
        blocks: t.node.blocks,
        packageVersion: "0.0.0",
        serviceDate: "2027-01-01T00:00:00Z",
      },
      { pageLimits: { hashes: 3, headers: 2 } },
    ).server;
    try {
      const r = await small.inject({ method: "GET", url: `${hashUrl(0)}?limit=1000` });
      expect(page(r).items).toHaveLength(3);
      expect(page(r).limit).toBe(3);
      expect(page(await small.inject({ method: "GET", url: hashUrl(0) })).items).toHaveLength(3);
      const h = await small.inject({ method: "GET", url: `${t.base}/chain/0/header?limit=360` });
      expect(page(h).items).toHaveLength(2);
      const b = await small.inject({ method: "GET", url: `${t.base}/chain/0/block` });
      expect(page(b).items).toHaveLength(2);
    } finally {
      await small.close();
    }
  });

  it("uses the reference maxima by default: 4096 hashes, 360 headers or blocks", () => {
    expect([MAX_HASH_PAGE, MAX_HEADER_PAGE]).toEqual([4096, 360]);
  });

  it("answers 404 for a chain the network does not have", async () => {
    for (const c of [10, 19, 99999]) {
      const r = await t.request("GET", hashUrl(c));
      expect(r.statusCode, String(c)).toBe(404);
    }
  });

  it("answers 404 with the not-found object for a cursor naming no block of the chain", async () => {
    const foreign = chainBlocks(1)[2]!.hash;
    const r = await t.request("GET", withQuery(hashUrl(0), { next: `inclusive:${foreign}` }));
    expect(r.statusCode).toBe(404);
    expect(json(r)).toEqual({ key: foreign, reason: "key not found" });
  });

  it("answers 404 for a maxheight no block of the chain has", async () => {
    expect((await t.request("GET", withQuery(hashUrl(0), { maxheight: 9 }))).statusCode).toBe(404);
    expect((await t.request("GET", withQuery(hashUrl(0), { maxheight: 8 }))).statusCode).toBe(200);
  });

  it("answers 400 text/plain for malformed parameters", async () => {
    const h = chainBlocks(0)[0]!.hash;
    const bad: [string, string][] = [
      ["chain abc", `${t.base}/chain/abc/hash`],
      ["chain -1", `${t.base}/chain/-1/hash`],
      ["chain 01", `${t.base}/chain/01/hash`],
      ["limit abc", `${hashUrl(0)}?limit=abc`],
      ["limit -1", `${hashUrl(0)}?limit=-1`],
      ["limit 1.5", `${hashUrl(0)}?limit=1.5`],
      ["limit twice", `${hashUrl(0)}?limit=1&limit=2`],
      ["minheight x", `${hashUrl(0)}?minheight=x`],
      ["maxheight -3", `${hashUrl(0)}?maxheight=-3`],
      ["next without colon", `${hashUrl(0)}?next=${h}`],
      ["next unknown kind", `${hashUrl(0)}?next=sometimes:${h}`],
      ["next short hash", `${hashUrl(0)}?next=inclusive:abc`],
      ["next bad characters", `${hashUrl(0)}?next=inclusive:${"+".repeat(43)}`],
      ["next empty", `${hashUrl(0)}?next=`],
    ];
    for (const [name, url] of bad) {
      const r = await t.request("GET", url);
      expect(r.statusCode, name).toBe(400);
      expect(r.headers["content-type"], name).toMatch(/^text\/plain/);
      expect(r.body.length, name).toBeGreaterThan(5);
    }
  });
});

describe("[api] POST /chain/{chain}/hash/branch", () => {
  const branchUrl = (c: number | string) => `${t.base}/chain/${c}/hash/branch`;

  it("lists the best chain from the head down, skipping orphans", async () => {
    const head = t.chain.main.cut.get(0)!;
    const r = await t.request("POST", branchUrl(0), { body: { upper: [head.hash], lower: [] } });
    expect(r.statusCode).toBe(200);
    const p = page<string>(r);
    expect(p.items).toEqual(Array.from({ length: 9 }, (_, i) => t.chain.mainAt(0, 8 - i).hash));
    expect(p.items).not.toContain(t.chain.orphans.get(0)!.hash);
    expect(p.next).toBeNull();
  });

  it("excludes ancestors of the lower bounds, and takes lower as optional", async () => {
    const head = t.chain.main.cut.get(3)!;
    const p = page(
      await t.request("POST", branchUrl(3), {
        body: { upper: [head.hash], lower: [t.chain.mainAt(3, 5).hash] },
      }),
    );
    expect(p.items).toEqual([8, 7, 6].map((h) => t.chain.mainAt(3, h).hash));
    const noLower = page(await t.request("POST", branchUrl(3), { body: { upper: [head.hash] } }));
    expect(noLower.items).toHaveLength(9);
  });

  it("walks several branches across pages with inclusive cursors", async () => {
    const body = {
      upper: [t.chain.main.cut.get(0)!.hash, t.chain.orphans.get(0)!.hash],
      lower: [t.chain.mainAt(0, 2).hash],
    };
    const all = page<string>(await t.request("POST", branchUrl(0), { body })).items;
    expect(all).toHaveLength(7); // 8, 7 and the orphan 7, 6, 5, 4, 3
    const walked: string[] = [];
    let next: string | undefined;
    for (;;) {
      const r = await t.request("POST", withQuery(branchUrl(0), { limit: 2, next }), { body });
      const p = page<string>(r);
      expect(p.items.length).toBeLessThanOrEqual(2);
      walked.push(...p.items);
      if (p.next === null) break;
      expect(p.next).toMatch(/^inclusive:/);
      next = p.next;
    }
    expect(walked).toEqual(all);
  });

  it("applies minheight and maxheight", async () => {
    const head = t.chain.main.cut.get(0)!;
    const p = page(
      await t.request("POST", withQuery(branchUrl(0), { minheight: 3, maxheight: 5 }), {
        body: { upper: [head.hash] },
      }),
    );
    expect(p.items).toEqual([5, 4, 3].map((h) => t.chain.mainAt(0, h).hash));
  });

  it("answers an empty page for no upper bounds or no body", async () => {
    expect(page(await t.request("POST", branchUrl(0), { body: {} }))).toEqual({
      limit: 0,
      items: [],
      next: null,
    });
    expect(page(await t.request("POST", branchUrl(0)))).toEqual({
      limit: 0,
      items: [],
      next: null,
    });
  });

  it("answers 404 with the not-found object for an unknown upper or lower bound", async () => {
    const head = t.chain.main.cut.get(0)!.hash;
    const unknown = "A".repeat(43);
    for (const body of [{ upper: [unknown] }, { upper: [head], lower: [unknown] }]) {
      const r = await t.request("POST", branchUrl(0), { body });
      expect(r.statusCode).toBe(404);
      expect(json(r)).toEqual({ key: unknown, reason: "key not found" });
    }
    const r = await t.request("POST", branchUrl(10), { body: { upper: [head] } });
    expect(r.statusCode).toBe(404);
  });

  it("answers 400 for more than 32 bounds of a kind", async () => {
    const head = t.chain.main.cut.get(0)!.hash;
    for (const key of ["upper", "lower"]) {
      const r = await t.request("POST", branchUrl(0), {
        body: { upper: [head], [key]: Array(33).fill(head) },
      });
      expect(r.statusCode).toBe(400);
      expect(r.body).toContain(`${key} branch bound limit exceeded. Only 32 values are supported.`);
    }
    const ok = await t.request("POST", branchUrl(0), { body: { upper: Array(32).fill(head) } });
    expect(ok.statusCode).toBe(200);
  });

  it("answers 400 for malformed bounds", async () => {
    const head = t.chain.main.cut.get(0)!.hash;
    const bad: [string, unknown][] = [
      ["array body", [head]],
      ["string body", "x"],
      ["upper not an array", { upper: head }],
      ["bad hash", { upper: ["nope"] }],
      ["number in list", { upper: [1] }],
      ["unknown key", { upper: [head], middle: [] }],
    ];
    for (const [name, body] of bad) {
      const r = await t.request("POST", branchUrl(0), { body });
      expect(r.statusCode, name).toBe(400);
      expect(r.headers["content-type"], name).toMatch(/^text\/plain/);
    }
    const broken = await t.request("POST", branchUrl(0), {
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(broken.statusCode).toBe(400);
  });
});
