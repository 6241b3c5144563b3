/**
 * `BlockStore`: the SQL of blocks.sqlite (schema in migrations/blocks/).
 * Headers, payloads with outputs, the best cut's heads and the best chain
 * index, read and written through prepared statements; decoded headers are
 * kept in a small LRU cache because validation and branch walks read the
 * same recent headers again and again. No consensus logic lives here
 * (blockDb.ts has it); multi-row writes are grouped by the caller with
 * {@link BlockStore.transaction}.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { encodeBlockHeader } from "../chain/blockHeaderBinary.ts";
import type { PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import { type Hash32, hash32Bytes } from "../encoding/hash32.ts";
import { blockMigrations } from "./blockMigrations.ts";
import {
  blobValue,
  type ChainHashRow,
  chainHashRow,
  type HashHeightRow,
  type HeaderRow,
  hashHeightRow,
  hashValue,
  headerFromBlob,
  headerRow,
  integerValue,
  metaRow,
  payloadRow,
  type StoredBlock,
  storedBlockTuple,
  transactionRow,
  transactionTuple,
} from "./blockRows.ts";
import { StoreError, StoreErrorCode } from "./errors.ts";
import { headerBase64Text } from "./headerBase64Text.ts";
import { headerObjectText } from "./headerObjectText.ts";
import { runMigrations } from "./migration.ts";
import { type SqlQuery, sql } from "./sql.ts";
import { type OpenDatabaseOptions, SqlDatabase } from "./sqlDatabase.ts";

function corruptStore(path: string, reason: string): never {
  throw new StoreError({ code: StoreErrorCode.Corrupt, path, reason }, `${path}: ${reason}`);
}

/** Where an ascending scan starts: at/after a (height, hash) key, or at a height. */
export type ScanStart =
  | { readonly kind: "height"; readonly height: number }
  | { readonly kind: "inclusive" | "exclusive"; readonly height: number; readonly hash: Hash32 };

const CACHE_SIZE = 8192;

/** Which stored texts a joined page reads (see {@link BlockStore.joinedTexts}). */
export type JoinedText = "object" | "base64";

/**
 * Where a page's rows start: those at or after the key (height, hash bytes)
 * in (height, raw hash) order. 32 zero bytes start at the height's first
 * row; a hash with a zero byte appended starts right after that hash (blobs
 * compare bytewise, then the shorter first, so it sorts after the hash and
 * before every other hash greater than it).
 */
export type PageKey = { readonly height: number; readonly hash: Uint8Array };

function bytes(hash: Hash32): Uint8Array {
  return hash32Bytes(hash);
}

/**
 * blocks.sqlite's page size. A payload row (transaction and output, about
 * 1.5 KB for a coin transfer) packs five to a page of 8 KiB, two to one of
 * 4 KiB (a third of the page unused): `npm run bench -- storage`.
 */
export const BLOCKS_PAGE_SIZE = 8192;

export class BlockStore {
  readonly db: SqlDatabase;
  readonly #cache = new Map<Hash32, BlockHeader>();

  constructor(db: SqlDatabase) {
    this.db = db;
  }

  /**
   * Opens blocks.sqlite at `path` and brings its schema up to date.
   * @throws {StoreError} STORE_OPEN_FAILED, STORE_SCHEMA_TOO_NEW.
   */
  static open(path: string, options: OpenDatabaseOptions = {}): BlockStore {
    const db = SqlDatabase.open(path, { pageSize: BLOCKS_PAGE_SIZE, ...options });
    try {
      const applied = runMigrations(db, blockMigrations);
      // A file of an older Weft, just migrated: rebuilt once at the page size
      // payload rows pack well in, which also frees the pages the migration left.
      if (applied.length > 0 && db.pageSize() !== BLOCKS_PAGE_SIZE) db.vacuum(BLOCKS_PAGE_SIZE);
      // Migration 4 on a file with headers: the moved texts left every
      // `headers` page about half empty (dropping a column rewrites the rows in place).
      else if (applied.includes(4) && !applied.includes(1)) db.vacuum();
    } catch (e) {
      db.close();
      throw e;
    }
    return new BlockStore(db);
  }

  /**
   * Opens an existing blocks.sqlite read-only beside the node's writer (an
   * execution worker reads headers through it).
   * @throws {StoreError} STORE_OPEN_FAILED
   */
  static openReader(path: string, options: OpenDatabaseOptions = {}): BlockStore {
    return new BlockStore(SqlDatabase.open(path, { ...options, readOnly: true }));
  }

  /** The ancestor (or the header itself) at `height`, using the best-chain index where it can. */
  ancestorAt(header: BlockHeader, height: number): BlockHeader | undefined {
    if (height > header.height || height < 0) return undefined;
    let x = header;
    while (x.height > height) {
      if (this.bestChainHash(x.chainId, x.height) === x.hash) {
        const hash = this.bestChainHash(x.chainId, height);
        return hash === undefined ? undefined : this.header(hash);
      }
      const p = this.header(x.parent);
      if (p === undefined) return undefined;
      x = p;
    }
    return x;
  }

  close(): void {
    this.#cache.clear();
    this.db.close();
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }

  // ---- meta

  meta(key: string): string | undefined {
    return this.db.get(sql`SELECT key, value FROM meta WHERE key = ${key}`, metaRow)?.value;
  }

  setMeta(key: string, value: string): void {
    this.db.run(
      sql`INSERT INTO meta (key, value) VALUES (${key}, ${value})
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
  }

  // ---- payloads

  hasPayload(payloadHash: Hash32): boolean {
    return (
      this.db.get(
        sql`SELECT 1 AS one FROM payloads WHERE payload_hash = ${bytes(payloadHash)}`,
        () => true,
      ) ?? false
    );
  }

  /** Stores a payload unless one with its hash is stored already. */
  insertPayload(p: PayloadWithOutputs): void {
    const key = bytes(p.payloadHash);
    const inserted = this.db.run(
      sql`INSERT INTO payloads
            (payload_hash, transactions_hash, outputs_hash, miner_data, coinbase, transaction_count)
          VALUES (${key}, ${bytes(p.transactionsHash)}, ${bytes(p.outputsHash)},
                  ${p.minerData}, ${p.coinbase}, ${p.transactions.length})
          ON CONFLICT (payload_hash) DO NOTHING`,
    );
    if (inserted === 0) return;
    p.transactions.forEach((t, i) => {
      this.db.run(
        sql`INSERT INTO payload_transactions
              (payload_hash, position, transaction_bytes, output_bytes)
            VALUES (${key}, ${i}, ${t.transaction}, ${t.output})`,
      );
    });
  }

  /** Stored transactions and the bytes of their transaction and output texts (the storage benchmark). */
  transactionBytes(): { readonly count: number; readonly bytes: number } {
    return (
      this.db.get(
        sql`SELECT count(*) AS n, coalesce(sum(length(transaction_bytes) + length(output_bytes)), 0) AS b
            FROM payload_transactions`,
        (r) => {
          const o = r as { n: unknown; b: unknown };
          return { count: integerValue(o.n, "count"), bytes: integerValue(o.b, "bytes") };
        },
      ) ?? { count: 0, bytes: 0 }
    );
  }

  payload(payloadHash: Hash32): PayloadWithOutputs | undefined {
    const key = bytes(payloadHash);
    const row = this.db.get(
      sql`SELECT transactions_hash, outputs_hash, miner_data, coinbase, transaction_count
          FROM payloads WHERE payload_hash = ${key}`,
      payloadRow,
    );
    if (row === undefined) return undefined;
    const transactions =
      row.transactionCount === 0
        ? []
        : this.db.all(
            sql`SELECT transaction_bytes, output_bytes FROM payload_transactions
                WHERE payload_hash = ${key} ORDER BY position`,
            transactionRow,
          );
    return {
      transactions,
      minerData: row.minerData,
      coinbase: row.coinbase,
      transactionsHash: row.transactionsHash,
      outputsHash: row.outputsHash,
      payloadHash,
    };
  }

  transactionCount(payloadHash: Hash32): number | undefined {
    return this.db.get(
      sql`SELECT transaction_count FROM payloads WHERE payload_hash = ${bytes(payloadHash)}`,
      (r) => integerValue((r as { transaction_count: unknown }).transaction_count, "count"),
    );
  }

  // ---- headers

  /** Stores a header (its payload must be stored first). */
  insertHeader(h: BlockHeader): void {
    const binary = encodeBlockHeader(h);
    this.db.run(
      sql`INSERT INTO headers (hash, chain_id, height, parent, payload_hash, header)
          VALUES (${bytes(h.hash)}, ${h.chainId}, ${h.height}, ${bytes(h.parent)},
                  ${bytes(h.payloadHash)}, ${binary})`,
    );
    // The page texts, in the same transaction as the header (pages read them alone).
    this.db.run(
      sql`INSERT INTO header_texts (chain_id, height, hash, object_json, base64_json)
          VALUES (${h.chainId}, ${h.height}, ${bytes(h.hash)}, ${headerObjectText(h)},
                  ${headerBase64Text(binary)})`,
    );
    this.#remember(h);
  }

  hasHeader(hash: Hash32): boolean {
    if (this.#cache.has(hash)) return true;
    return (
      this.db.get(sql`SELECT 1 AS one FROM headers WHERE hash = ${bytes(hash)}`, () => true) ??
      false
    );
  }

  header(hash: Hash32): BlockHeader | undefined {
    const cached = this.#cache.get(hash);
    if (cached !== undefined) {
      this.#cache.delete(hash);
      this.#cache.set(hash, cached);
      return cached;
    }
    const h = this.db.get(sql`SELECT header FROM headers WHERE hash = ${bytes(hash)}`, (r) =>
      headerFromBlob((r as { header: unknown }).header),
    );
    if (h !== undefined) this.#remember(h);
    return h;
  }

  /** The stored children of a block (any chain order; usually one). */
  children(hash: Hash32): BlockHeader[] {
    return this.db.column(sql`SELECT header FROM headers WHERE parent = ${bytes(hash)}`, (v) => {
      const h = headerFromBlob(v);
      this.#remember(h);
      return h;
    });
  }

  /** A stored header's row: its bytes and object text (pages sent as text). */
  headerRowOf(hash: Hash32): HeaderRow | undefined {
    return this.db.get(
      sql`SELECT h.hash, h.header, x.object_json AS header_object FROM headers AS h
          LEFT JOIN header_texts AS x
            ON x.chain_id = h.chain_id AND x.height = h.height AND x.hash = h.hash
          WHERE h.hash = ${bytes(hash)}`,
      headerRow,
    );
  }

  /** The stored 318 header bytes. */
  headerBytes(hash: Hash32): Buffer | undefined {
    return this.db.get(
      sql`SELECT hash, header FROM headers WHERE hash = ${bytes(hash)}`,
      (r) => headerRow(r).bytes,
    );
  }

  /** Drops a header from the cache (after a rolled-back insert). */
  forget(hash: Hash32): void {
    this.#cache.delete(hash);
  }

  #remember(h: BlockHeader): void {
    this.#cache.set(h.hash, h);
    if (this.#cache.size > CACHE_SIZE) {
      const oldest = this.#cache.keys().next();
      if (oldest.done !== true) this.#cache.delete(oldest.value);
    }
  }

  /** Highest and lowest stored height of a chain (undefined when it has no blocks). */
  chainHeightRange(chainId: number): { min: number; max: number } | undefined {
    // Two subqueries: SQLite answers a lone MIN or MAX from the index's end,
    // but both in one SELECT scan every index entry of the chain (each page pays this).
    return this.db.get(
      sql`SELECT (SELECT MIN(height) FROM headers WHERE chain_id = ${chainId}) AS min,
                 (SELECT MAX(height) FROM headers WHERE chain_id = ${chainId}) AS max`,
      (r) => {
        const o = r as { min: unknown; max: unknown };
        if (o.min === null) return undefined;
        return { min: integerValue(o.min, "min"), max: integerValue(o.max, "max") };
      },
    );
  }

  /** Number of stored headers (all chains). */
  headerCount(): number {
    return (
      this.db.get(sql`SELECT COUNT(*) AS n FROM headers`, (r) =>
        integerValue((r as { n: unknown }).n, "n"),
      ) ?? 0
    );
  }

  /**
   * Hashes of a chain in (height, raw hash) order from `start`, at most
   * `limit`, none above `maxHeight`. Orphans included.
   */
  scanHashes(chainId: number, start: ScanStart, maxHeight: number, limit: number): HashHeightRow[] {
    switch (start.kind) {
      case "height":
        return this.db.all(
          sql`SELECT hash, height FROM headers
              WHERE chain_id = ${chainId} AND height >= ${start.height} AND height <= ${maxHeight}
              ORDER BY height, hash LIMIT ${limit}`,
          hashHeightRow,
        );
      case "inclusive":
        return this.db.all(
          sql`SELECT hash, height FROM headers
              WHERE chain_id = ${chainId} AND (height, hash) >= (${start.height}, ${bytes(start.hash)})
                AND height <= ${maxHeight}
              ORDER BY height, hash LIMIT ${limit}`,
          hashHeightRow,
        );
      case "exclusive":
        return this.db.all(
          sql`SELECT hash, height FROM headers
              WHERE chain_id = ${chainId} AND (height, hash) > (${start.height}, ${bytes(start.hash)})
                AND height <= ${maxHeight}
              ORDER BY height, hash LIMIT ${limit}`,
          hashHeightRow,
        );
      default: {
        const never: never = start;
        return never;
      }
    }
  }

  /**
   * The height of the header `hash` if it is on `chainId` (a page cursor's
   * key: an index lookup, nothing decoded).
   */
  heightOnChain(chainId: number, hash: Hash32): number | undefined {
    const cached = this.#cache.get(hash);
    if (cached !== undefined) return cached.chainId === chainId ? cached.height : undefined;
    const [height] = this.db.column(
      sql`SELECT height FROM headers WHERE hash = ${bytes(hash)} AND chain_id = ${chainId}`,
      (v) => integerValue(v, "height"),
    );
    return height;
  }

  /**
   * A page's hashes as SQLite returns them, for a page written as bytes
   * without an object per row: a chain's rows in (height, raw hash) order
   * from the key `from` (a height and hash bytes; rows at or after it), at
   * most `limit`, none above `maxHeight`; tuples [hash], read from the index.
   */
  scanPageHashes(
    chainId: number,
    from: PageKey,
    maxHeight: number,
    limit: number,
  ): (readonly unknown[])[] {
    const { height, hash } = from;
    return this.db.rows(
      sql`SELECT hash FROM headers
          WHERE chain_id = ${chainId} AND (height, hash) >= (${height}, ${hash})
            AND height <= ${maxHeight}
          ORDER BY height, hash LIMIT ${limit}`,
    );
  }

  /**
   * A page's stored texts (`header_texts`: object or base64url JSON texts)
   * joined with commas by SQLite into one value: the page is one
   * allocation, with no value per row. The rows {@link scanPageHashes} reads,
   * taken from the texts table, which keeps them in page order: a page's
   * texts lie on consecutive pages of the file, not one `headers` page each.
   * `count`: the rows.
   */
  joinedTexts(
    chainId: number,
    from: PageKey,
    maxHeight: number,
    limit: number,
    text: JoinedText,
  ): { readonly joined: Buffer; readonly count: number } {
    // No ORDER BY in group_concat (it sorts the page's texts in a sorter of
    // its own, about a third of the page's SQLite time): a subquery with a
    // LIMIT is never flattened into an aggregate, so it runs as a co-routine
    // walking the table's (chain_id, height, hash) key in order, and the join
    // takes its rows in that order (the plan is pinned by test/unit/storePages.test.ts).
    const query = text === "object" ? objectTextsQuery : base64TextsQuery;
    const [row] = this.db.rows(query(chainId, from, maxHeight, limit));
    const count = integerValue(row?.[1], "count");
    const joined = count === 0 ? Buffer.alloc(0) : blobValue(row?.[0], "header_texts");
    return { joined, count };
  }

  /**
   * A full page's body written by SQLite: `head`, the `limit` stored texts
   * {@link joinedTexts} joins, `tail`, as one value (the caller knows the
   * page holds `limit` rows, from the index: it sends the value as it is).
   * @throws {StoreError} STORE_CORRUPT when `header_texts` lacks rows the index has.
   */
  joinedTextsBody(
    chainId: number,
    from: PageKey,
    maxHeight: number,
    limit: number,
    text: JoinedText,
    head: string,
    tail: string,
  ): Buffer {
    const query = text === "object" ? objectTextsQuery : base64TextsQuery;
    const [row] = this.db.rows(query(chainId, from, maxHeight, limit, head, tail));
    if (integerValue(row?.[1], "count") !== limit) {
      corruptStore(this.db.path, `header_texts lacks texts of chain ${chainId}'s headers`);
    }
    return blobValue(row?.[0], "header_texts");
  }

  /**
   * The query plans (SQLite's EXPLAIN QUERY PLAN details) of the joined page
   * statements, for the test that pins their order to the key's.
   */
  joinedPagePlans(): string[][] {
    const from: PageKey = { height: 0, hash: new Uint8Array(32) };
    return [
      objectTextsQuery(0, from, 0, 1),
      base64TextsQuery(0, from, 0, 1),
      objectTextsQuery(0, from, 0, 1, "[", "]"),
      base64TextsQuery(0, from, 0, 1, "[", "]"),
    ].map((q) => this.db.queryPlan(q));
  }

  /**
   * The hashes of the rows at positions `offset` and `offset + 1` of those
   * {@link scanPageHashes} reads (a page's cursor: its last row and the first
   * one after it); read from the index alone.
   */
  pageCursorHashes(chainId: number, from: PageKey, maxHeight: number, offset: number): unknown[] {
    const { height, hash } = from;
    return this.db.column(
      sql`SELECT hash FROM headers
          WHERE chain_id = ${chainId} AND (height, hash) >= (${height}, ${hash})
            AND height <= ${maxHeight}
          ORDER BY height, hash LIMIT 2 OFFSET ${offset}`,
      (v) => v,
    );
  }

  /**
   * A block page's rows as SQLite returns them (see {@link scanPageHashes}):
   * tuples [hash, height, object text bytes (null when none), payload_hash,
   * transactions_hash, outputs_hash, miner_data, coinbase, transaction_count].
   */
  scanBlockPageRows(
    chainId: number,
    from: PageKey,
    maxHeight: number,
    limit: number,
  ): (readonly unknown[])[] {
    const { height, hash } = from;
    return this.db.rows(
      sql`SELECT h.hash, h.height, CAST(x.object_json AS BLOB), h.payload_hash,
                 p.transactions_hash, p.outputs_hash, p.miner_data, p.coinbase,
                 p.transaction_count
          FROM headers AS h JOIN payloads AS p ON p.payload_hash = h.payload_hash
          LEFT JOIN header_texts AS x
            ON x.chain_id = h.chain_id AND x.height = h.height AND x.hash = h.hash
          WHERE h.chain_id = ${chainId} AND (h.height, h.hash) >= (${height}, ${hash})
            AND h.height <= ${maxHeight}
          ORDER BY h.height, h.hash LIMIT ${limit}`,
    );
  }

  /**
   * The transactions of a chain's blocks from key `first` to key `last`
   * (height, hash bytes; both included) as SQLite returns them: tuples
   * [transaction_bytes, output_bytes] in (height, hash, position) order.
   */
  pageTransactionRows(
    chainId: number,
    first: { readonly height: number; readonly hash: Uint8Array },
    last: { readonly height: number; readonly hash: Uint8Array },
  ): (readonly unknown[])[] {
    return this.db.rows(
      sql`SELECT t.transaction_bytes, t.output_bytes
          FROM headers AS h JOIN payload_transactions AS t ON t.payload_hash = h.payload_hash
          WHERE h.chain_id = ${chainId}
            AND (h.height, h.hash) >= (${first.height}, ${first.hash})
            AND (h.height, h.hash) <= (${last.height}, ${last.hash})
          ORDER BY h.height, h.hash, t.position`,
    );
  }

  /** The stored header rows of `chainId` at heights `lo`…`hi`, by hash (branch pages). */
  headerRowsAtHeights(chainId: number, lo: number, hi: number): Map<Hash32, HeaderRow> {
    const out = new Map<Hash32, HeaderRow>();
    for (const r of this.db.all(
      sql`SELECT h.hash, h.header, x.object_json AS header_object FROM headers AS h
          LEFT JOIN header_texts AS x
            ON x.chain_id = h.chain_id AND x.height = h.height AND x.hash = h.hash
          WHERE h.chain_id = ${chainId} AND h.height >= ${lo} AND h.height <= ${hi}`,
      headerRow,
    )) {
      out.set(r.hash, r);
    }
    return out;
  }

  /** One stored block by hash: the header row and the payload's stored parts, nothing decoded. */
  storedBlock(hash: Hash32): StoredBlock | undefined {
    const key = bytes(hash);
    const [b] = this.db.tuples(
      sql`SELECT h.hash, h.header, x.object_json, h.payload_hash, p.transactions_hash,
                 p.outputs_hash, p.miner_data, p.coinbase, p.transaction_count
          FROM headers AS h JOIN payloads AS p ON p.payload_hash = h.payload_hash
          LEFT JOIN header_texts AS x
            ON x.chain_id = h.chain_id AND x.height = h.height AND x.hash = h.hash
          WHERE h.hash = ${key}`,
      storedBlockTuple,
    );
    if (b === undefined || b.payload.transactionCount === 0) return b;
    b.transactions.push(
      ...this.db.tuples(
        sql`SELECT transaction_bytes, output_bytes FROM payload_transactions
            WHERE payload_hash = ${bytes(b.payloadHash)} ORDER BY position`,
        transactionTuple,
      ),
    );
    if (b.transactions.length !== b.payload.transactionCount) {
      corruptStore(this.db.path, `payload ${b.payloadHash} lacks transactions`);
    }
    return b;
  }

  /**
   * Every stored header's binary form and page texts as stored (null: none),
   * by hash order (the consistency test).
   */
  headerTexts(): {
    readonly bytes: Buffer;
    readonly objectText: string | null;
    readonly base64Text: string | null;
  }[] {
    return this.db.all(
      sql`SELECT h.header, x.object_json, x.base64_json FROM headers AS h
          LEFT JOIN header_texts AS x
            ON x.chain_id = h.chain_id AND x.height = h.height AND x.hash = h.hash
          ORDER BY h.hash`,
      (r) => {
        const o = r as Record<string, unknown>;
        const text = (v: unknown) => (typeof v === "string" ? v : null);
        return {
          bytes: blobValue(o.header, "header"),
          objectText: text(o.object_json),
          base64Text: text(o.base64_json),
        };
      },
    );
  }

  /** Like {@link scanHashes}, with the stored header bytes, object texts and decoded headers. */
  scanHeaders(chainId: number, start: ScanStart, maxHeight: number, limit: number): HeaderRow[] {
    switch (start.kind) {
      case "height":
        return this.db.all(
          sql`SELECT h.hash, h.header, x.object_json AS header_object FROM headers AS h
              LEFT JOIN header_texts AS x
                ON x.chain_id = h.chain_id AND x.height = h.height AND x.hash = h.hash
              WHERE h.chain_id = ${chainId} AND h.height >= ${start.height} AND h.height <= ${maxHeight}
              ORDER BY h.height, h.hash LIMIT ${limit}`,
          headerRow,
        );
      case "inclusive":
        return this.db.all(
          sql`SELECT h.hash, h.header, x.object_json AS header_object FROM headers AS h
              LEFT JOIN header_texts AS x
                ON x.chain_id = h.chain_id AND x.height = h.height AND x.hash = h.hash
              WHERE h.chain_id = ${chainId} AND (h.height, h.hash) >= (${start.height}, ${bytes(start.hash)})
                AND h.height <= ${maxHeight}
              ORDER BY h.height, h.hash LIMIT ${limit}`,
          headerRow,
        );
      case "exclusive":
        return this.db.all(
          sql`SELECT h.hash, h.header, x.object_json AS header_object FROM headers AS h
              LEFT JOIN header_texts AS x
                ON x.chain_id = h.chain_id AND x.height = h.height AND x.hash = h.hash
              WHERE h.chain_id = ${chainId} AND (h.height, h.hash) > (${start.height}, ${bytes(start.hash)})
                AND h.height <= ${maxHeight}
              ORDER BY h.height, h.hash LIMIT ${limit}`,
          headerRow,
        );
      default: {
        const never: never = start;
        return never;
      }
    }
  }

  // ---- the best cut and the best chains

  cutHeads(): ChainHashRow[] {
    return this.db.all(sql`SELECT chain_id, hash FROM cut_heads ORDER BY chain_id`, chainHashRow);
  }

  /** Replaces the stored cut (call inside a transaction with the other writes). */
  replaceCutHeads(heads: readonly BlockHeader[]): void {
    this.db.run(sql`DELETE FROM cut_heads`);
    for (const h of heads) {
      this.db.run(
        sql`INSERT INTO cut_heads (chain_id, hash) VALUES (${h.chainId}, ${bytes(h.hash)})`,
      );
    }
  }

  /**
   * Moves the stored cut by its changes only: the heads of chains whose head
   * changed are set, chains that left the cut are dropped (a block inserted
   * while catching up changes one chain's head, not all of them).
   */
  updateCutHeads(changed: readonly BlockHeader[], removed: readonly number[]): void {
    for (const c of removed) this.db.run(sql`DELETE FROM cut_heads WHERE chain_id = ${c}`);
    for (const h of changed) {
      this.db.run(
        sql`INSERT INTO cut_heads (chain_id, hash) VALUES (${h.chainId}, ${bytes(h.hash)})
            ON CONFLICT (chain_id) DO UPDATE SET hash = excluded.hash`,
      );
    }
  }

  /** The best chain's block of `chainId` at `height`. */
  bestChainHash(chainId: number, height: number): Hash32 | undefined {
    return this.db.get(
      sql`SELECT hash FROM best_chain WHERE chain_id = ${chainId} AND height = ${height}`,
      (r) => hashValue((r as { hash: unknown }).hash, "hash"),
    );
  }

  /** Forgets the best chain of `chainId` above `height`. */
  truncateBestChain(chainId: number, height: number): void {
    this.db.run(sql`DELETE FROM best_chain WHERE chain_id = ${chainId} AND height > ${height}`);
  }

  setBestChain(h: BlockHeader): void {
    this.db.run(
      sql`INSERT INTO best_chain (chain_id, height, hash) VALUES (${h.chainId}, ${h.height}, ${bytes(h.hash)})
          ON CONFLICT (chain_id, height) DO UPDATE SET hash = excluded.hash`,
    );
  }
}

/**
 * The object texts' statement of {@link BlockStore.joinedTexts} (no `head`
 * or `tail`) and {@link BlockStore.joinedTextsBody}. SQLite binds values, not
 * column names: one statement per text column.
 */
function objectTextsQuery(
  chainId: number,
  from: PageKey,
  maxHeight: number,
  limit: number,
  head = "",
  tail = "",
): SqlQuery {
  return sql`SELECT CAST(${head} || group_concat(t, ',') || ${tail} AS BLOB), count(*)
    FROM (SELECT object_json AS t FROM header_texts
          WHERE chain_id = ${chainId} AND (height, hash) >= (${from.height}, ${from.hash})
            AND height <= ${maxHeight}
          ORDER BY height, hash LIMIT ${limit})`;
}

/** {@link objectTextsQuery} of the base64url texts. */
function base64TextsQuery(
  chainId: number,
  from: PageKey,
  maxHeight: number,
  limit: number,
  head = "",
  tail = "",
): SqlQuery {
  return sql`SELECT CAST(${head} || group_concat(t, ',') || ${tail} AS BLOB), count(*)
    FROM (SELECT base64_json AS t FROM header_texts
          WHERE chain_id = ${chainId} AND (height, hash) >= (${from.height}, ${from.hash})
            AND height <= ${maxHeight}
          ORDER BY height, hash LIMIT ${limit})`;
}
