/**
 * Paged reads of the block database, transport-free (the HTTP routes adapt
 * them), following reference chainweb-api.md §8.4:
 *
 * - Ascending lists (hashes, headers, blocks of a chain): every stored block,
 *   orphans included, ordered by (height, raw hash bytes), from the cursor or
 *   `minHeight`, up to `maxHeight`. The next cursor is `inclusive:<first item
 *   not returned>` when more exist, `exclusive:<last item>` when the page is
 *   the end of the data but not empty (so clients can tail the chain), null
 *   for an empty page. A cursor below `minHeight` gives an empty page.
 * - Branches: the blocks that are ancestors-or-self of an upper bound and not
 *   of any lower bound, walked from the upper bounds towards genesis in
 *   descending height (raw hash order within a height), skipping orphans.
 *   `maxHeight` skips the top, `minHeight` stops the walk. The next cursor is
 *   `inclusive:<next item>` when more exist, else null.
 *
 * Keys that do not exist fail with STORE_KEY_NOT_FOUND (an unknown cursor or
 * bound, or one on another chain) or STORE_HEIGHT_NOT_FOUND (a `maxHeight`
 * no block of the chain has); an unknown chain with STORE_UNKNOWN_CHAIN.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { compareHash32, type Hash32 } from "../encoding/hash32.ts";
import type { Block, BlockDb } from "./blockDb.ts";
import type { HashHeightRow, HeaderRow, StoredBlock } from "./blockRows.ts";
import type { ScanStart } from "./blockStore.ts";
import { StoreError, StoreErrorCode } from "./errors.ts";

export type Cursor = { readonly inclusive: boolean; readonly hash: Hash32 };

/** A cursor as the `next` field of a page and the `next` query parameter: `inclusive:<hash>`. */
export function cursorText(cursor: Cursor | null): string | null {
  if (cursor === null) return null;
  return `${cursor.inclusive ? "inclusive" : "exclusive"}:${cursor.hash}`;
}

export type PageQuery = {
  /** At most this many items (the caller clamps it to its maximum). */
  readonly limit: number;
  readonly next?: Cursor | undefined;
  readonly minHeight?: number | undefined;
  readonly maxHeight?: number | undefined;
};

export type Page<T> = { readonly items: readonly T[]; readonly next: Cursor | null };

export type BranchBounds = { readonly lower: readonly Hash32[]; readonly upper: readonly Hash32[] };

export function keyNotFound(key: Hash32, what: string): never {
  throw new StoreError(
    { code: StoreErrorCode.KeyNotFound, key, what },
    `${what}: block ${key} not found on this chain`,
  );
}

/** The highest height a page may reach; checks that `maxHeight` names a height of the chain. */
export function pageTop(db: BlockDb, chainId: number, maxHeight: number | undefined): number {
  db.requireChain(chainId);
  const range = db.store.chainHeightRange(chainId);
  if (range === undefined) {
    throw new StoreError(
      {
        code: StoreErrorCode.Corrupt,
        path: db.store.db.path,
        reason: `chain ${chainId} has no blocks`,
      },
      `chain ${chainId} has no blocks`,
    );
  }
  if (maxHeight === undefined) return range.max;
  if (maxHeight > range.max || maxHeight < range.min) {
    throw new StoreError(
      { code: StoreErrorCode.HeightNotFound, chainId, height: maxHeight, what: "maxheight" },
      `maxheight: chain ${chainId} has no block at height ${maxHeight} (its blocks span ${range.min}–${range.max})`,
    );
  }
  return maxHeight;
}

function ascending<T extends { readonly hash: Hash32 }, R>(
  db: BlockDb,
  chainId: number,
  q: PageQuery,
  scan: (start: ScanStart, maxHeight: number, limit: number) => T[],
  item: (row: T) => R,
): Page<R> {
  const top = pageTop(db, chainId, q.maxHeight);
  let start: ScanStart = { kind: "height", height: q.minHeight ?? 0 };
  if (q.next !== undefined) {
    const at = db.headerOnChain(chainId, q.next.hash) ?? keyNotFound(q.next.hash, "next");
    if (q.minHeight !== undefined && at.height < q.minHeight) return { items: [], next: null };
    start = {
      kind: q.next.inclusive ? "inclusive" : "exclusive",
      height: at.height,
      hash: at.hash,
    };
  }
  const rows = scan(start, top, q.limit + 1);
  const page = rows.slice(0, q.limit);
  const more = rows[q.limit];
  const last = page[page.length - 1];
  return {
    items: page.map(item),
    next:
      more !== undefined
        ? { inclusive: true, hash: more.hash }
        : last !== undefined
          ? { inclusive: false, hash: last.hash }
          : null,
  };
}

/** Block hashes of a chain, ascending, orphans included. */
export function hashPage(db: BlockDb, chainId: number, q: PageQuery): Page<Hash32> {
  return ascending<HashHeightRow, Hash32>(
    db,
    chainId,
    q,
    (s, max, n) => db.store.scanHashes(chainId, s, max, n),
    (r) => r.hash,
  );
}

/** Headers (with their stored bytes) of a chain, ascending, orphans included. */
export function headerPage(db: BlockDb, chainId: number, q: PageQuery): Page<HeaderRow> {
  return ascending<HeaderRow, HeaderRow>(
    db,
    chainId,
    q,
    (s, max, n) => db.store.scanHeaders(chainId, s, max, n),
    (r) => r,
  );
}

/** Full blocks of the branches between the bounds, descending, as stored. */
export function storedBranchBlocks(
  db: BlockDb,
  chainId: number,
  bounds: BranchBounds,
  q: PageQuery,
): Page<StoredBlock> {
  const page = branchHeaders(db, chainId, bounds, q);
  return {
    items: page.items.map((h) => {
      const b = db.store.storedBlock(h.hash);
      if (b === undefined) blockOf(db, h); // throws: the payload is missing
      return b as StoredBlock;
    }),
    next: page.next,
  };
}

/** Full blocks of a chain, ascending, orphans included. */
export function blockPage(db: BlockDb, chainId: number, q: PageQuery): Page<Block> {
  const headers = headerPage(db, chainId, q);
  return { items: headers.items.map((r) => blockOf(db, r.header)), next: headers.next };
}

/** The block (header and payload) of a stored header. */
export function blockOf(db: BlockDb, header: BlockHeader): Block {
  const payload = db.payload(header.payloadHash);
  if (payload === undefined) {
    throw new StoreError(
      {
        code: StoreErrorCode.Corrupt,
        path: db.store.db.path,
        reason: `payload ${header.payloadHash} of block ${header.hash} missing`,
      },
      `payload ${header.payloadHash} of block ${header.hash} missing`,
    );
  }
  return { header, payload };
}

function dedupe(headers: readonly BlockHeader[]): BlockHeader[] {
  const seen = new Map<Hash32, BlockHeader>();
  for (const h of headers) seen.set(h.hash, h);
  return [...seen.values()];
}

/** Headers of the branches between the bounds, descending (see the module comment). */
export function branchHeaders(
  db: BlockDb,
  chainId: number,
  bounds: BranchBounds,
  q: PageQuery,
): Page<BlockHeader> {
  const maxTop = pageTop(db, chainId, q.maxHeight);
  const resolve = (hashes: readonly Hash32[], what: string) =>
    dedupe(hashes.map((hash) => db.headerOnChain(chainId, hash) ?? keyNotFound(hash, what)));
  const upper = resolve(bounds.upper, "upper");
  let lower = resolve(bounds.lower, "lower");
  const cursor = q.next;
  const cursorAt =
    cursor === undefined
      ? undefined
      : (db.headerOnChain(chainId, cursor.hash) ?? keyNotFound(cursor.hash, "next"));
  if (cursorAt !== undefined && q.minHeight !== undefined && cursorAt.height < q.minHeight) {
    return { items: [], next: null };
  }
  const top = Math.min(maxTop, cursorAt?.height ?? maxTop);
  const jump = (hs: readonly BlockHeader[], height: number) =>
    dedupe(
      hs.flatMap((h) => {
        const a = h.height > height ? db.ancestorAt(h, height) : h;
        return a === undefined ? [] : [a];
      }),
    );

  let frontier = jump(upper, top);
  const items: BlockHeader[] = [];
  let skipping = cursor !== undefined;
  while (frontier.length > 0) {
    const height = Math.max(...frontier.map((h) => h.height));
    if (q.minHeight !== undefined && height < q.minHeight) break;
    lower = jump(lower, height);
    const excluded = new Set(lower.filter((l) => l.height === height).map((l) => l.hash));
    const level = frontier
      .filter((h) => h.height === height && !excluded.has(h.hash))
      .sort((a, b) => compareHash32(a.hash, b.hash));
    for (const h of level) {
      if (skipping && cursor !== undefined) {
        if (h.hash !== cursor.hash) continue;
        skipping = false;
        if (!cursor.inclusive) continue;
      }
      if (items.length >= q.limit) return { items, next: { inclusive: true, hash: h.hash } };
      items.push(h);
    }
    // The cursor is the first level's; not finding it there means it is not in the branch.
    if (skipping && cursor !== undefined) keyNotFound(cursor.hash, "next");
    const parents = level.flatMap((h) => {
      const p = db.header(h.parent);
      return p === undefined ? [] : [p];
    });
    frontier = dedupe([...frontier.filter((h) => h.height < height), ...parents]);
  }
  if (skipping && cursor !== undefined) keyNotFound(cursor.hash, "next");
  return { items, next: null };
}

/** Header rows (stored bytes and object texts) of the branches between the bounds, descending. */
export function branchHeaderRows(
  db: BlockDb,
  chainId: number,
  bounds: BranchBounds,
  q: PageQuery,
): Page<HeaderRow> {
  const page = branchHeaders(db, chainId, bounds, q);
  const heights = page.items.map((h) => h.height);
  const lo = Math.min(...heights);
  const hi = Math.max(...heights);
  // A branch page mostly covers a run of heights: one read for all of them.
  const rows =
    page.items.length > 0 && hi - lo < 2 * page.items.length + 8
      ? db.store.headerRowsAtHeights(chainId, lo, hi)
      : undefined;
  return {
    items: page.items.map(
      (h) =>
        rows?.get(h.hash) ?? db.store.headerRowOf(h.hash) ?? keyNotFound(h.hash, "branch header"),
    ),
    next: page.next,
  };
}

/** Hashes of the branches between the bounds, descending. */
export function branchHashes(
  db: BlockDb,
  chainId: number,
  bounds: BranchBounds,
  q: PageQuery,
): Page<Hash32> {
  const page = branchHeaders(db, chainId, bounds, q);
  return { items: page.items.map((h) => h.hash), next: page.next };
}

/** Full blocks of the branches between the bounds, descending. */
export function branchBlocks(
  db: BlockDb,
  chainId: number,
  bounds: BranchBounds,
  q: PageQuery,
): Page<Block> {
  const page = branchHeaders(db, chainId, bounds, q);
  return { items: page.items.map((h) => blockOf(db, h)), next: page.next };
}
