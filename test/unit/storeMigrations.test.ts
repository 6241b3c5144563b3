/**
 * blocks.sqlite migration 2 (store/migrations/blocks/0002-…): a database
 * written with version 1's schema (payload_transactions WITHOUT ROWID, a
 * transfer-sized row in an overflow page of its own) opens at version 2
 * with every payload read back byte for byte, and its rows stored on the
 * table's own pages (no overflow page), rebuilt once at 8 KiB pages.
 * Migrations 3 and 4: every header's page texts (object and base64url
 * JSON) stored in header_texts, equal to what its binary header encodes to.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { decodeBlockHeader, encodeBlockHeader } from "../../src-node/chain/blockHeaderBinary.ts";
import { blockHeaderToObject } from "../../src-node/chain/blockHeaderObject.ts";
import { minerDataBytes } from "../../src-node/chain/minerData.ts";
import {
  buildPayloadWithOutputs,
  type PayloadWithOutputs,
  payloadWithOutputsToJson,
} from "../../src-node/chain/payloadWithOutputs.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { hash32Bytes } from "../../src-node/encoding/hash32.ts";
import { BlockDb } from "../../src-node/store/blockDb.ts";
import { blockMigrations } from "../../src-node/store/blockMigrations.ts";
import { headerPage } from "../../src-node/store/blockPages.ts";
import { BLOCKS_PAGE_SIZE } from "../../src-node/store/blockStore.ts";
import { databaseSpace } from "../../src-node/store/databaseSpace.ts";
import { joinedHeaderPage, joinedItems } from "../../src-node/store/joinedPages.ts";
import { runMigrations } from "../../src-node/store/migration.ts";
import { migration0001 } from "../../src-node/store/migrations/blocks/0001-block-tables.ts";
import { sql } from "../../src-node/store/sql.ts";
import { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { ChainBuilder } from "../support/chainBuilder.ts";
import { tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const encoder = new TextEncoder();

/** A payload of `n` transactions about the size of a coin transfer and its output (~1.4 KB). */
function transferSizedPayload(tag: string, n: number): PayloadWithOutputs {
  const transactions = Array.from({ length: n }, (_, i) => ({
    transaction: encoder.encode(JSON.stringify({ tag, i, cmd: `${tag}-${i}-`.repeat(170) })),
    output: encoder.encode(
      JSON.stringify({ result: { status: "success" }, logs: "x".repeat(450) }),
    ),
  }));
  return buildPayloadWithOutputs({
    transactions,
    minerData: minerDataBytes({ account: tag, predicate: "keys-all", publicKeys: [] }),
    coinbase: encoder.encode(JSON.stringify({ coinbase: tag })),
  });
}

/** Version 1's insert, as Weft before migration 2 wrote payloads. */
function insertV1(db: SqlDatabase, p: PayloadWithOutputs): void {
  const key = hash32Bytes(p.payloadHash);
  db.run(
    sql`INSERT INTO payloads
          (payload_hash, transactions_hash, outputs_hash, miner_data, coinbase, transaction_count)
        VALUES (${key}, ${hash32Bytes(p.transactionsHash)}, ${hash32Bytes(p.outputsHash)},
                ${p.minerData}, ${p.coinbase}, ${p.transactions.length})`,
  );
  // Positions written out of order: the migration keeps (payload, position), not insertion order.
  for (const i of [...p.transactions.keys()].reverse()) {
    const t = p.transactions[i];
    if (t === undefined) continue;
    db.run(
      sql`INSERT INTO payload_transactions (payload_hash, position, transaction_bytes, output_bytes)
          VALUES (${key}, ${i}, ${t.transaction}, ${t.output})`,
    );
  }
}

/** A payload read back, as JSON (bytes compared whatever their array type). */
function readBack(db: BlockDb, p: PayloadWithOutputs): unknown {
  const got = db.payload(p.payloadHash);
  return got === undefined ? undefined : payloadWithOutputsToJson(got);
}

function overflowOf(db: SqlDatabase): number {
  let n = 0;
  for (const [name, o] of databaseSpace(db).objects)
    if (name.includes("payload_transactions")) n += o.overflowPages;
  return n;
}

describe("[store] blocks.sqlite migration 2: payload_transactions as a rowid table", () => {
  it("migrates a version 1 database: payloads read back equal, no overflow pages", () => {
    const dir = tempDir("weft-migrate-");
    dirs.push(dir);
    const path = join(dir, "blocks.sqlite");
    const payloads = [transferSizedPayload("a", 30), transferSizedPayload("b", 5)];
    const old = SqlDatabase.open(path);
    try {
      expect(runMigrations(old, [migration0001])).toEqual([1]);
      old.transaction(() => {
        for (const p of payloads) insertV1(old, p);
      });
      // The problem the migration solves: one overflow page per row.
      expect(overflowOf(old)).toBeGreaterThanOrEqual(35);
    } finally {
      old.close();
    }

    const db = BlockDb.open({ path, version: testSingletonVersion });
    try {
      expect(db.store.db.userVersion()).toBe(blockMigrations.length);
      // Rebuilt once at the new page size, the old table's pages given back.
      const space = databaseSpace(db.store.db);
      expect(space.pageSize).toBe(BLOCKS_PAGE_SIZE);
      expect(space.freePages).toBe(0);
      for (const p of payloads) expect(readBack(db, p)).toEqual(payloadWithOutputsToJson(p));
      expect(overflowOf(db.store.db)).toBe(0);
      const schema = db.store.db.get(
        sql`SELECT sql FROM sqlite_master WHERE name = 'payload_transactions'`,
        (r) => String((r as { sql: unknown }).sql),
      );
      expect(schema).not.toMatch(/WITHOUT ROWID/);
      // New payloads go to the new table, still without overflow pages.
      const c = transferSizedPayload("c", 10);
      db.store.insertPayload(c);
      expect(readBack(db, c)).toEqual(payloadWithOutputsToJson(c));
      expect(overflowOf(db.store.db)).toBe(0);
      expect(db.store.transactionBytes().count).toBe(45);
    } finally {
      db.close();
    }
  });
});

/** The object encoding computed afresh from a binary header (what a stored text must equal). */
function encodedFromBinary(bytes: Uint8Array): string {
  return JSON.stringify(blockHeaderToObject(decodeBlockHeader(bytes, { verifyHash: false })));
}

/** The base64url text computed afresh from a binary header. */
function base64FromBinary(bytes: Uint8Array): string {
  return `"${Buffer.from(bytes).toString("base64url")}"`;
}

/** Version 2's header insert (no texts), as Weft before migration 3 wrote headers. */
function insertHeaderV2(db: SqlDatabase, h: BlockHeader): void {
  db.run(
    sql`INSERT INTO headers (hash, chain_id, height, parent, payload_hash, header)
        VALUES (${hash32Bytes(h.hash)}, ${h.chainId}, ${h.height}, ${hash32Bytes(h.parent)},
                ${hash32Bytes(h.payloadHash)}, ${encodeBlockHeader(h)})`,
  );
}

describe("[store] blocks.sqlite migrations 3 and 4: header page texts beside the binary headers", () => {
  it("fills the texts of a version 2 database; every stored text equals the binary's encoding", () => {
    const dir = tempDir("weft-migrate-");
    dirs.push(dir);
    const path = join(dir, "blocks.sqlite");
    const blocks = ChainBuilder.create(testSingletonVersion).rounds(3);
    const old = SqlDatabase.open(path);
    try {
      expect(runMigrations(old, blockMigrations.slice(0, 2))).toEqual([1, 2]);
      old.transaction(() => {
        for (const b of blocks) {
          insertV1(old, b.payload);
          insertHeaderV2(old, b.header);
        }
      });
    } finally {
      old.close();
    }
    const db = BlockDb.open({ path, version: testSingletonVersion });
    try {
      expect(db.store.db.userVersion()).toBe(blockMigrations.length);
      // The object text moved to header_texts: headers keeps the binary form only.
      const columns = db.store.db.column(
        sql`SELECT name FROM pragma_table_info('headers')`,
        String,
      );
      expect(columns).not.toContain("header_object");
      // Blocks stored after the migration get their texts at insert.
      const more = ChainBuilder.create(testSingletonVersion, "more").rounds(1);
      for (const b of more) {
        db.store.insertPayload(b.payload);
        db.store.insertHeader(b.header);
      }
      const rows = db.store.headerTexts();
      // Migrated rows, genesis headers and new rows alike.
      expect(rows.length).toBe(blocks.length + more.length + testSingletonVersion.chainIds.length);
      for (const r of rows) {
        expect(r.objectText).toBe(encodedFromBinary(r.bytes));
        expect(r.base64Text).toBe(base64FromBinary(r.bytes));
      }
      // A page is the stored texts joined, equal to the rows' texts joined.
      for (const limit of [1, 3, 20]) {
        const perRow = headerPage(db, 0, { limit });
        const joined = joinedHeaderPage(db, 0, { limit }, "object");
        expect(joinedItems(joined).toString()).toBe(
          perRow.items.map((r) => r.objectText).join(","),
        );
        expect(joined.next).toEqual(perRow.next);
        const base64 = joinedHeaderPage(db, 0, { limit }, "base64");
        expect(joinedItems(base64).toString()).toBe(
          perRow.items.map((r) => base64FromBinary(r.bytes)).join(","),
        );
        expect(base64.next).toEqual(perRow.next);
      }
    } finally {
      db.close();
    }
  });

  it("moves a version 3 database's stored object texts as they are, in key order", () => {
    const dir = tempDir("weft-migrate-");
    dirs.push(dir);
    const path = join(dir, "blocks.sqlite");
    const blocks = ChainBuilder.create(testSingletonVersion).rounds(2);
    const old = SqlDatabase.open(path);
    try {
      expect(runMigrations(old, blockMigrations.slice(0, 3))).toEqual([1, 2, 3]);
      old.transaction(() => {
        for (const b of blocks) {
          insertV1(old, b.payload);
          insertHeaderV2(old, b.header);
          // Version 3 wrote the text with the header; one is marked to show it is moved, not computed.
          const text = b === blocks[0] ? "marked" : encodedFromBinary(encodeBlockHeader(b.header));
          old.run(
            sql`UPDATE headers SET header_object = ${text} WHERE hash = ${hash32Bytes(b.header.hash)}`,
          );
        }
      });
    } finally {
      old.close();
    }
    const db = BlockDb.open({ path, version: testSingletonVersion });
    try {
      expect(db.store.db.userVersion()).toBe(blockMigrations.length);
      const first = blocks[0]?.header;
      if (first === undefined) throw new Error("no block");
      expect(db.store.headerRowOf(first.hash)?.objectText).toBe("marked");
      const texts = db.store.db.column(sql`SELECT count(*) FROM header_texts`, (v) => Number(v));
      expect(texts).toEqual([blocks.length + testSingletonVersion.chainIds.length]);
    } finally {
      db.close();
    }
  });
});
