/**
 * Paged reads (blockPages.ts) against an independent model: ascending pages
 * list every block of a chain by (height, raw hash bytes); branch pages list
 * ancestors-or-self of the upper bounds that are not ancestors-or-self of a
 * lower bound, descending. Walking the pages with any page size yields the
 * whole list, in order, once.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { encodeBlockHeader } from "../../src-node/chain/blockHeaderBinary.ts";
import { blockHeaderToObject } from "../../src-node/chain/blockHeaderObject.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { compareHash32, type Hash32 } from "../../src-node/encoding/hash32.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { BlockDb } from "../../src-node/store/blockDb.ts";
import {
  type BranchBounds,
  branchHashes,
  type Cursor,
  cursorText,
  hashPage,
  headerPage,
  type Page,
  type PageQuery,
} from "../../src-node/store/blockPages.ts";
import { joinedHeaderPage, joinedItems } from "../../src-node/store/joinedPages.ts";
import { buildForkedChain, type ForkedChain } from "../support/forkedChain.ts";
import { tempDir } from "../support/testNode.ts";

let dir: string;
let db: BlockDb;
let chain: ForkedChain;

beforeAll(() => {
  dir = tempDir();
  db = BlockDb.open({ path: join(dir, "blocks.sqlite"), version: testSingletonVersion });
  chain = buildForkedChain(db);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const byHeightThenBytes = (a: BlockHeader, b: BlockHeader) =>
  a.height - b.height || compareHash32(a.hash, b.hash);

function allOn(c: number): BlockHeader[] {
  return [...chain.main.headers.values()].filter((h) => h.chainId === c).sort(byHeightThenBytes);
}

function ancestry(h: BlockHeader): Set<Hash32> {
  const out = new Set<Hash32>();
  for (let x: BlockHeader | undefined = h; x !== undefined; x = chain.main.headers.get(x.parent))
    out.add(x.hash);
  return out;
}

function modelBranch(
  bounds: { lower: BlockHeader[]; upper: BlockHeader[] },
  min = 0,
  max = Infinity,
): Hash32[] {
  const up = new Set<Hash32>();
  for (const u of bounds.upper) for (const a of ancestry(u)) up.add(a);
  for (const l of bounds.lower) for (const a of ancestry(l)) up.delete(a);
  return [...up]
    .map((h) => chain.main.headers.get(h) as BlockHeader)
    .filter((h) => h.height >= min && h.height <= max)
    .sort((a, b) => b.height - a.height || compareHash32(a.hash, b.hash))
    .map((h) => h.hash);
}

function walk(first: PageQuery, read: (q: PageQuery) => Page<Hash32>): Hash32[] {
  const out: Hash32[] = [];
  let next: Cursor | undefined;
  for (let i = 0; i < 1000; i++) {
    const page = read({ ...first, next });
    expect(page.items.length).toBeLessThanOrEqual(first.limit);
    out.push(...page.items);
    if (page.next === null || (page.items.length === 0 && first.limit > 0)) return out;
    if (!page.next.inclusive && page.items.length === 0) return out;
    next = page.next;
    if (!next.inclusive) {
      // The end of an ascending list: one more request gives an empty page and null.
      const end = read({ ...first, next });
      expect(end).toEqual({ items: [], next: null });
      return out;
    }
  }
  throw new Error("no end");
}

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isNodeError(e)) return e.code;
    throw e;
  }
  return "no error";
}

describe("[store] ascending pages", () => {
  it("walk every block of a chain, orphans included, in (height, raw hash) order, for any page size", () => {
    for (const c of [0, 7]) {
      const expected = allOn(c).map((h) => h.hash);
      expect(expected).toContain(chain.orphans.get(c)?.hash);
      for (const limit of [1, 2, 3, 5, 8, 100]) {
        expect(
          walk({ limit }, (q) => hashPage(db, c, q)),
          `chain ${c} limit ${limit}`,
        ).toEqual(expected);
      }
    }
  });

  it("honour minheight and maxheight", () => {
    const expected = allOn(3)
      .filter((h) => h.height >= 2 && h.height <= 7)
      .map((h) => h.hash);
    expect(walk({ limit: 2, minHeight: 2, maxHeight: 7 }, (q) => hashPage(db, 3, q))).toEqual(
      expected,
    );
  });

  it("give an empty page with a null cursor when nothing is left, and for a cursor below minheight", () => {
    expect(hashPage(db, 0, { limit: 5, minHeight: 50 })).toEqual({ items: [], next: null });
    const g = db.genesis.get(0)!;
    expect(
      hashPage(db, 0, { limit: 5, minHeight: 3, next: { inclusive: true, hash: g.hash } }),
    ).toEqual({
      items: [],
      next: null,
    });
  });

  it("with limit 0 return no items and a cursor at the first", () => {
    expect(hashPage(db, 0, { limit: 0 })).toEqual({
      items: [],
      next: { inclusive: true, hash: db.genesis.get(0)!.hash },
    });
  });

  it("refuse an unknown chain, an unknown or foreign cursor and a maxheight no block has", () => {
    expect(code(() => hashPage(db, 10, { limit: 1 }))).toBe("STORE_UNKNOWN_CHAIN");
    const foreign = db.genesis.get(1)!.hash;
    expect(
      code(() => hashPage(db, 0, { limit: 1, next: { inclusive: true, hash: foreign } })),
    ).toBe("STORE_KEY_NOT_FOUND");
    expect(code(() => hashPage(db, 0, { limit: 1, maxHeight: 9 }))).toBe("STORE_HEIGHT_NOT_FOUND");
    expect(hashPage(db, 0, { limit: 1, maxHeight: 8 }).items).toHaveLength(1);
  });
});

describe("[store] ascending pages written as bytes (joinedPages.ts)", () => {
  /** The joined page of each kind beside the per-row pages it must equal, for one query. */
  function sameAsPerRow(c: number, q: PageQuery): Cursor | null {
    const hashes = hashPage(db, c, q);
    const headers = headerPage(db, c, q);
    const byHash = joinedHeaderPage(db, c, q, "hash");
    const byBase64 = joinedHeaderPage(db, c, q, "base64");
    const byObject = joinedHeaderPage(db, c, q, "object");
    for (const p of [byHash, byBase64, byObject]) {
      expect(p.count).toBe(hashes.items.length);
      expect(p.next).toEqual(hashes.next);
      // A body SQLite wrote whole: the page's JSON, its items and cursor.
      if (p.body !== undefined) {
        expect(JSON.parse(p.body.toString())).toEqual({
          limit: p.count,
          items: JSON.parse(`[${joinedItems(p)}]`),
          next: cursorText(p.next),
        });
      }
    }
    // Full pages of headers have their bodies written by SQLite.
    if (q.limit > 0 && hashes.items.length === q.limit) {
      expect(byBase64.body).toBeDefined();
      expect(byObject.body).toBeDefined();
    }
    expect(JSON.parse(`[${byHash.items}]`)).toEqual(hashes.items);
    expect(JSON.parse(`[${joinedItems(byBase64)}]`)).toEqual(
      headers.items.map((r) => base64UrlEncode(encodeBlockHeader(r.header))),
    );
    expect(joinedItems(byObject).toString()).toBe(
      headers.items.map((r) => JSON.stringify(blockHeaderToObject(r.header))).join(","),
    );
    return hashes.next;
  }

  it("equal the per-row pages, items and cursors, for any page size and height bounds", () => {
    const queries: Omit<PageQuery, "limit">[] = [
      {},
      { minHeight: 2, maxHeight: 7 },
      { maxHeight: 8 },
    ];
    for (const c of [0, 7]) {
      for (const bounds of queries) {
        for (const limit of [0, 1, 2, 3, 5, 100]) {
          let next: Cursor | undefined;
          for (let i = 0; i < 100; i++) {
            const cursor = sameAsPerRow(c, { ...bounds, limit, next });
            if (cursor === null || limit === 0) break;
            next = cursor;
            // The end of the list: the exclusive cursor once more, then done.
            if (!cursor.inclusive) {
              sameAsPerRow(c, { ...bounds, limit, next });
              break;
            }
          }
        }
      }
    }
    const g = db.genesis.get(0)!;
    sameAsPerRow(0, { limit: 5, minHeight: 3, next: { inclusive: true, hash: g.hash } });
    sameAsPerRow(0, { limit: 5, minHeight: 50 });
  });

  it("refuse what the per-row pages refuse", () => {
    const foreign = db.genesis.get(1)!.hash;
    const bad: [number, PageQuery, string][] = [
      [10, { limit: 1 }, "STORE_UNKNOWN_CHAIN"],
      [0, { limit: 1, next: { inclusive: true, hash: foreign } }, "STORE_KEY_NOT_FOUND"],
      [0, { limit: 1, maxHeight: 9 }, "STORE_HEIGHT_NOT_FOUND"],
    ];
    for (const [c, q, expected] of bad) {
      expect(code(() => hashPage(db, c, q))).toBe(expected);
      for (const item of ["hash", "base64", "object"] as const) {
        expect(
          code(() => joinedHeaderPage(db, c, q, item)),
          `${item} ${expected}`,
        ).toBe(expected);
      }
    }
  });

  it("join the texts in the key's order, walked by a co-routine with no sort of its own", () => {
    // The joins carry no ORDER BY of their own: their order is the subquery's,
    // which holds only while its rows come from the texts table's key in order, one by one.
    const plans = db.store.joinedPagePlans();
    expect(plans).toHaveLength(4);
    for (const plan of plans) {
      const text = plan.join("\n");
      expect(text).toMatch(/CO-ROUTINE/);
      expect(text).toMatch(/SEARCH header_texts USING PRIMARY KEY/);
      expect(text).not.toMatch(/TEMP B-TREE/);
    }
  });
});

describe("[store] branch pages", () => {
  const cases: [string, (c: ForkedChain) => { lower: BlockHeader[]; upper: BlockHeader[] }][] = [
    ["the best chain", (c) => ({ lower: [], upper: [c.main.cut.get(0)!] })],
    ["an orphan", (c) => ({ lower: [], upper: [c.orphans.get(0)!] })],
    ["both branches", (c) => ({ lower: [], upper: [c.main.cut.get(0)!, c.orphans.get(0)!] })],
    [
      "both branches above the fork point",
      (c) => ({ lower: [c.mainAt(0, 6)], upper: [c.main.cut.get(0)!, c.orphans.get(0)!] }),
    ],
    [
      "a lower bound above the upper one",
      (c) => ({ lower: [c.main.cut.get(0)!], upper: [c.mainAt(0, 5)] }),
    ],
    [
      "a lower bound on the other branch",
      (c) => ({ lower: [c.orphans.get(0)!], upper: [c.main.cut.get(0)!] }),
    ],
    ["equal bounds", (c) => ({ lower: [c.mainAt(0, 4)], upper: [c.mainAt(0, 4)] })],
    ["no upper bound", () => ({ lower: [], upper: [] })],
  ];

  for (const [name, make] of cases) {
    it(`walk ${name} in descending order for any page size`, () => {
      const b = make(chain);
      const bounds: BranchBounds = {
        lower: b.lower.map((h) => h.hash),
        upper: b.upper.map((h) => h.hash),
      };
      const expected = modelBranch(b);
      for (const limit of [1, 2, 3, 7, 50]) {
        expect(
          walk({ limit }, (q) => branchHashes(db, 0, bounds, q)),
          `${name} limit ${limit}`,
        ).toEqual(expected);
      }
      const window = modelBranch(b, 2, 6);
      expect(
        walk({ limit: 2, minHeight: 2, maxHeight: 6 }, (q) => branchHashes(db, 0, bounds, q)),
      ).toEqual(window);
    });
  }

  it("skip orphans on the best chain's branch", () => {
    const items = branchHashes(
      db,
      0,
      { lower: [], upper: [chain.main.cut.get(0)!.hash] },
      { limit: 100 },
    ).items;
    expect(items).toHaveLength(9);
    expect(items).not.toContain(chain.orphans.get(0)!.hash);
  });

  it("refuse unknown bounds and a cursor outside the branch", () => {
    const head = chain.main.cut.get(0)!.hash;
    const unknown = db.genesis.get(1)!.hash; // a block of another chain
    expect(code(() => branchHashes(db, 0, { lower: [], upper: [unknown] }, { limit: 1 }))).toBe(
      "STORE_KEY_NOT_FOUND",
    );
    expect(code(() => branchHashes(db, 0, { lower: [unknown], upper: [head] }, { limit: 1 }))).toBe(
      "STORE_KEY_NOT_FOUND",
    );
    const orphan = chain.orphans.get(0)!.hash;
    expect(
      code(() =>
        branchHashes(
          db,
          0,
          { lower: [], upper: [head] },
          { limit: 1, next: { inclusive: true, hash: orphan } },
        ),
      ),
    ).toBe("STORE_KEY_NOT_FOUND");
  });
});
