/**
 * Ascending pages written as bytes: the items of a header, hash or block
 * page as one Buffer of their JSON texts joined with commas. Header pages
 * (object or base64url) are the stored texts (`header_texts`) joined by
 * SQLite itself (one value for the page); hash and block pages are read as
 * raw rows and written straight into one buffer (stored bytes as base64url
 * in quotes by encoding/base64UrlInto.ts, stored texts copied). No object
 * per row, no string per value, nothing decoded, and only the cursor's
 * hashes converted to text (read from the index when the rows were read
 * without them). The same rows, order and cursors as
 * blockPages.ts `headerPage` and `hashPage` (its module comment has the
 * paging rules); the golden pages of
 * test/api/pageGolden.test.ts pin the bytes.
 * @module
 */
import { base64UrlLength, writeBase64Url } from "../encoding/base64UrlInto.ts";
import { type Hash32, hash32Bytes } from "../encoding/hash32.ts";
import type { BlockDb } from "./blockDb.ts";
import { type Cursor, cursorText, keyNotFound, type PageQuery, pageTop } from "./blockPages.ts";
import { blobValue, hashValue, integerValue } from "./blockRows.ts";
import type { PageKey } from "./blockStore.ts";
import { StoreError, StoreErrorCode, storeInvariant } from "./errors.ts";

/**
 * A page's items as one Buffer: their JSON texts joined with commas, `count`
 * of them; or, when SQLite wrote it whole, the page's body (`body`: the
 * items between {@link pageHead} and {@link pageTail}, `items` then empty).
 */
export type JoinedPage = {
  readonly count: number;
  readonly items: Buffer;
  readonly next: Cursor | null;
  readonly body?: Buffer | undefined;
};

/** A page's items as joined bytes, whether SQLite wrote its body whole or not (a view, no copy). */
export function joinedItems(page: JoinedPage): Buffer {
  if (page.body === undefined) return page.items;
  const head = pageHead(page.count).length;
  return page.body.subarray(head, page.body.length - pageTail(page.next).length);
}

/** A page body's bytes before its items: `{"limit":<count>,"items":[`. */
export function pageHead(count: number): string {
  return `{"limit":${count},"items":[`;
}

/** A page body's bytes after its items: `],"next":<cursor or null>}`. */
export function pageTail(next: Cursor | null): string {
  return `],"next":${JSON.stringify(cursorText(next))}}`;
}

/** What a joined header page lists: object-encoded headers, base64url headers, or hashes. */
export type JoinedItem = "object" | "base64" | "hash";

type Row = readonly unknown[];

const COMMA = 0x2c;
const QUOTE = 0x22;
/** 32 zero bytes: sorts before every hash, so the key (height, LOWEST) starts at the height. */
const LOWEST_HASH = new Uint8Array(32);
const ZERO = new Uint8Array(1);
const EMPTY: JoinedPage = { count: 0, items: Buffer.alloc(0), next: null };

/** Where an ascending page starts and its top height; undefined: empty (a cursor below `minHeight`). */
function pageStart(
  db: BlockDb,
  chainId: number,
  q: PageQuery,
): { readonly from: PageKey; readonly top: number } | undefined {
  const top = pageTop(db, chainId, q.maxHeight);
  if (q.next === undefined) return { top, from: { height: q.minHeight ?? 0, hash: LOWEST_HASH } };
  const height = db.store.heightOnChain(chainId, q.next.hash) ?? keyNotFound(q.next.hash, "next");
  if (q.minHeight !== undefined && height < q.minHeight) return undefined;
  const hash = hash32Bytes(q.next.hash);
  // After the hash: the hash with a zero byte appended (BlockStore's PageKey).
  return { top, from: { height, hash: q.next.inclusive ? hash : Buffer.concat([hash, ZERO]) } };
}

/** The cursor after a page of `limit` items read as `rows` (at most limit + 1; column 0 the hash). */
function nextCursor(rows: readonly Row[], limit: number): Cursor | null {
  if (rows.length > limit) return { inclusive: true, hash: hashValue(rows[limit]?.[0], "hash") };
  const last = rows[rows.length - 1];
  return last === undefined ? null : { inclusive: false, hash: hashValue(last[0], "hash") };
}

/**
 * The cursor after a page of `count` of at most `limit` items from `from`,
 * read from the index (the page's rows were read without their hashes).
 */
function cursorAfter(
  db: BlockDb,
  chainId: number,
  start: { readonly from: PageKey; readonly top: number },
  count: number,
  limit: number,
): Cursor | null {
  if (count === 0 && limit > 0) return null;
  const hashes = db.store.pageCursorHashes(chainId, start.from, start.top, Math.max(count - 1, 0));
  return cursorOfHashes(hashes, count, limit);
}

/**
 * The cursor after a page of `count` of at most `limit` items, from the
 * index's hashes at positions count − 1 and count (limit 0: the first row
 * is the next one; else the page's last row, then the next one).
 */
function cursorOfHashes(hashes: readonly unknown[], count: number, limit: number): Cursor | null {
  const more = limit === 0 ? hashes[0] : count === limit ? hashes[1] : undefined;
  if (more !== undefined) return { inclusive: true, hash: hashValue(more, "hash") };
  const last = limit === 0 ? undefined : hashes[0];
  return last === undefined ? null : { inclusive: false, hash: hashValue(last, "hash") };
}

/** Writes `"<base64url of bytes>"` at `at`; returns the offset after it. */
function writeBase64String(out: Buffer, at: number, bytes: Uint8Array): number {
  out[at++] = QUOTE;
  at = writeBase64Url(bytes, out, at);
  out[at++] = QUOTE;
  return at;
}

/** A stored header's object text as bytes; a row without one (null) gets it computed. */
function objectTextBytes(db: BlockDb, stored: unknown, rawHash: unknown): Buffer {
  if (stored !== null) return blobValue(stored, "header_object");
  const hash: Hash32 = hashValue(rawHash, "hash");
  const row = db.store.headerRowOf(hash) ?? keyNotFound(hash, "header");
  return Buffer.from(row.objectText);
}

/** Column `col` of the rows (hashes) as JSON strings of unpadded base64url, joined with commas. */
function joinBase64(rows: readonly Row[], count: number, col: number): Buffer {
  let size = count > 0 ? count - 1 : 0;
  for (let i = 0; i < count; i++) {
    size += base64UrlLength(blobValue((rows[i] as Row)[col], "hash").length) + 2;
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (i > 0) out[at++] = COMMA;
    at = writeBase64String(out, at, (rows[i] as Row)[col] as Buffer);
  }
  return out;
}

/**
 * An ascending header or hash page of a chain as bytes: object-encoded or
 * base64url headers (the stored texts, joined by SQLite), or hashes.
 */
export function joinedHeaderPage(
  db: BlockDb,
  chainId: number,
  q: PageQuery,
  item: JoinedItem,
): JoinedPage {
  const start = pageStart(db, chainId, q);
  if (start === undefined) return EMPTY;
  const { from, top } = start;
  switch (item) {
    case "hash": {
      const rows = db.store.scanPageHashes(chainId, from, top, q.limit + 1);
      const count = Math.min(rows.length, q.limit);
      return { count, items: joinBase64(rows, count, 0), next: nextCursor(rows, q.limit) };
    }
    case "base64":
    case "object": {
      // A full page (every page but a chain's last): its cursor is read
      // first, from the index, so SQLite writes the whole body around the
      // joined texts and the route sends that value as it is.
      if (q.limit > 0) {
        const hashes = db.store.pageCursorHashes(chainId, from, top, q.limit - 1);
        if (hashes[0] !== undefined) {
          const next = cursorOfHashes(hashes, q.limit, q.limit);
          const body = db.store.joinedTextsBody(
            chainId,
            from,
            top,
            q.limit,
            item,
            pageHead(q.limit),
            pageTail(next),
          );
          return { count: q.limit, items: EMPTY.items, next, body };
        }
      }
      // A chain's last page (fewer rows than asked), or none asked: the
      // texts joined, the cursor read after them.
      const page = db.store.joinedTexts(chainId, from, top, q.limit, item);
      return {
        count: page.count,
        items: page.joined,
        next: cursorAfter(db, chainId, start, page.count, q.limit),
      };
    }
  }
}

// Block rows' columns (BlockStore.scanBlockPageRows).
const B_HASH = 0;
const B_HEIGHT = 1;
const B_OBJECT = 2;
const B_PAYLOAD_HASH = 3;
const B_TRANSACTIONS_HASH = 4;
const B_OUTPUTS_HASH = 5;
const B_MINER_DATA = 6;
const B_COINBASE = 7;
const B_TX_COUNT = 8;

const HEADER = Buffer.from('{"header":');
const TRANSACTIONS = Buffer.from(',"payloadWithOutputs":{"transactions":[');
const MINER_DATA = Buffer.from('],"minerData":');
const TRANSACTIONS_HASH = Buffer.from(',"transactionsHash":');
const OUTPUTS_HASH = Buffer.from(',"outputsHash":');
const PAYLOAD_HASH = Buffer.from(',"payloadHash":');
const COINBASE = Buffer.from(',"coinbase":');
const END = Buffer.from("}}");
/** Fixed bytes of one block's text: the keys above, two closing braces. */
const BLOCK_FIXED =
  HEADER.length +
  TRANSACTIONS.length +
  MINER_DATA.length +
  TRANSACTIONS_HASH.length +
  OUTPUTS_HASH.length +
  PAYLOAD_HASH.length +
  COINBASE.length +
  END.length;
/** A 32-byte hash as a JSON string: 43 characters and two quotes. */
const HASH_TEXT = 45;

/**
 * An ascending page of full blocks of a chain as bytes, each block
 * `{"header":<object>,"payloadWithOutputs":{…}}` in the key order of
 * `payloadWithOutputsToJson` (the same bytes as api/routes/blockRoutes.ts
 * `storedBlockText`): the header's stored object text, the payload's stored
 * bytes and hashes in base64url.
 */
export function joinedBlockPage(db: BlockDb, chainId: number, q: PageQuery): JoinedPage {
  const start = pageStart(db, chainId, q);
  if (start === undefined) return EMPTY;
  const rows = db.store.scanBlockPageRows(chainId, start.from, start.top, q.limit + 1);
  const count = Math.min(rows.length, q.limit);
  const first = rows[0];
  const last = rows[count - 1];
  if (first === undefined || last === undefined)
    return { count: 0, items: EMPTY.items, next: null };
  let txCount = 0;
  for (let i = 0; i < count; i++) {
    txCount += integerValue((rows[i] as Row)[B_TX_COUNT], "transaction_count");
  }
  const txs =
    txCount === 0
      ? []
      : db.store.pageTransactionRows(
          chainId,
          { height: integerValue(first[B_HEIGHT], "height"), hash: first[B_HASH] as Buffer },
          { height: integerValue(last[B_HEIGHT], "height"), hash: last[B_HASH] as Buffer },
        );
  if (txs.length !== txCount) {
    throw new StoreError(
      {
        code: StoreErrorCode.Corrupt,
        path: db.store.db.path,
        reason: `payloads of chain ${chainId} lack transactions`,
      },
      `payloads of chain ${chainId} lack transactions`,
    );
  }
  // First pass: every piece's length, so the page is written into one buffer.
  const texts: Buffer[] = new Array(count);
  let size = count - 1 + count * (BLOCK_FIXED + 3 * HASH_TEXT);
  for (let i = 0; i < count; i++) {
    const r = rows[i] as Row;
    const text = objectTextBytes(db, r[B_OBJECT], r[B_HASH]);
    texts[i] = text;
    size += text.length;
    size += base64UrlLength(blobValue(r[B_MINER_DATA], "miner_data").length) + 2;
    size += base64UrlLength(blobValue(r[B_COINBASE], "coinbase").length) + 2;
    // The commas between the block's transactions.
    const n = integerValue(r[B_TX_COUNT], "transaction_count");
    if (n > 1) size += n - 1;
  }
  for (let t = 0; t < txs.length; t++) {
    const tx = txs[t] as Row;
    // ["<transaction>","<output>"]: 7 bytes beside the texts.
    size += 7;
    size += base64UrlLength(blobValue(tx[0], "transaction_bytes").length);
    size += base64UrlLength(blobValue(tx[1], "output_bytes").length);
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  let t = 0;
  for (let i = 0; i < count; i++) {
    const r = rows[i] as Row;
    if (i > 0) out[at++] = COMMA;
    at += HEADER.copy(out, at);
    at += (texts[i] as Buffer).copy(out, at);
    at += TRANSACTIONS.copy(out, at);
    const n = r[B_TX_COUNT] as number;
    for (let k = 0; k < n; k++, t++) {
      const tx = txs[t] as Row;
      if (k > 0) out[at++] = COMMA;
      out[at++] = 0x5b; // [
      at = writeBase64String(out, at, tx[0] as Buffer);
      out[at++] = COMMA;
      at = writeBase64String(out, at, tx[1] as Buffer);
      out[at++] = 0x5d; // ]
    }
    at += MINER_DATA.copy(out, at);
    at = writeBase64String(out, at, r[B_MINER_DATA] as Buffer);
    at += TRANSACTIONS_HASH.copy(out, at);
    at = writeBase64String(out, at, hashBytes(r[B_TRANSACTIONS_HASH], "transactions_hash"));
    at += OUTPUTS_HASH.copy(out, at);
    at = writeBase64String(out, at, hashBytes(r[B_OUTPUTS_HASH], "outputs_hash"));
    at += PAYLOAD_HASH.copy(out, at);
    at = writeBase64String(out, at, hashBytes(r[B_PAYLOAD_HASH], "payload_hash"));
    at += COINBASE.copy(out, at);
    at = writeBase64String(out, at, r[B_COINBASE] as Buffer);
    at += END.copy(out, at);
  }
  // A Buffer drops writes past its end silently: the lengths above must be exact.
  if (at !== size) storeInvariant(`block page of ${size} bytes written as ${at}`);
  return { count, items: out, next: nextCursor(rows, q.limit) };
}

/** A 32-byte hash column's bytes. */
function hashBytes(value: unknown, column: string): Buffer {
  const b = blobValue(value, column);
  if (b.length !== 32) hashValue(b, column); // throws: STORE_CORRUPT
  return b;
}
