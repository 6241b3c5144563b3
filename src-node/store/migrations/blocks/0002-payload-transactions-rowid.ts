/**
 * blocks.sqlite version 2: `payload_transactions` becomes a rowid table.
 *
 * As a WITHOUT ROWID table its rows (a transaction and its output, about
 * 1.3–1.5 KB for a coin transfer) exceeded what SQLite keeps inside a row
 * of such a table on a 4 KiB page (about 1 KB), so nearly every row took an
 * overflow page of its own, mostly empty: 3.2–3.5× the stored bytes on
 * disk. A rowid table keeps rows up to about 4 KB on the page, several to a
 * page; the unique index (payload_hash, position) serves the lookups
 * (`npm run bench -- storage`, docs/storage.md). Rows are copied in
 * (payload hash, position) order; the old table's pages join the free list
 * and are reused as the chain grows (no VACUUM inside a migration).
 * @module
 */
import type { Migration } from "../../migration.ts";
import { sql } from "../../sql.ts";

export const migration0002: Migration = {
  version: 2,
  name: "payload-transactions-rowid",
  up(db) {
    db.exec(sql`
      CREATE TABLE payload_transactions_v2 (
        id INTEGER PRIMARY KEY,
        payload_hash BLOB NOT NULL REFERENCES payloads (payload_hash),
        position INTEGER NOT NULL,
        transaction_bytes BLOB NOT NULL,
        output_bytes BLOB NOT NULL
      ) STRICT;
      INSERT INTO payload_transactions_v2 (payload_hash, position, transaction_bytes, output_bytes)
        SELECT payload_hash, position, transaction_bytes, output_bytes
        FROM payload_transactions ORDER BY payload_hash, position;
      DROP TABLE payload_transactions;
      ALTER TABLE payload_transactions_v2 RENAME TO payload_transactions;
      CREATE UNIQUE INDEX payload_transactions_by_payload
        ON payload_transactions (payload_hash, position);
    `);
  },
};
