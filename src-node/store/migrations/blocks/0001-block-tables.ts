/**
 * blocks.sqlite version 1: headers, payloads with outputs, the best cut, the
 * best chain of each chain, and facts about the database itself.
 *
 * - `headers`: every block ever accepted, orphans included. `hash` (raw 32
 *   bytes, so ordering by it is the raw-byte order the paging rules use),
 *   chain, height, parent, payload hash, and the 318-byte binary header.
 *   Index (chain_id, height, hash) serves the ascending lists, index
 *   (parent) the search for children when a fork is followed.
 * - `payloads` / `payload_transactions`: content-addressed by payload hash;
 *   equal payloads on several chains are stored once.
 * - `cut_heads`: one row per chain of the best cut.
 * - `best_chain`: (chain, height) → hash of the best cut's ancestors, so the
 *   ancestor of a best-chain block at any height is one lookup.
 * - `meta`: network name and version code the file was created for.
 * @module
 */
import type { Migration } from "../../migration.ts";
import { sql } from "../../sql.ts";

export const migration0001: Migration = {
  version: 1,
  name: "block-tables",
  up(db) {
    db.exec(sql`
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE payloads (
        payload_hash BLOB PRIMARY KEY,
        transactions_hash BLOB NOT NULL,
        outputs_hash BLOB NOT NULL,
        miner_data BLOB NOT NULL,
        coinbase BLOB NOT NULL,
        transaction_count INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE payload_transactions (
        payload_hash BLOB NOT NULL REFERENCES payloads (payload_hash),
        position INTEGER NOT NULL,
        transaction_bytes BLOB NOT NULL,
        output_bytes BLOB NOT NULL,
        PRIMARY KEY (payload_hash, position)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE headers (
        hash BLOB NOT NULL UNIQUE,
        chain_id INTEGER NOT NULL,
        height INTEGER NOT NULL,
        parent BLOB NOT NULL,
        payload_hash BLOB NOT NULL REFERENCES payloads (payload_hash),
        header BLOB NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX headers_by_chain_height ON headers (chain_id, height, hash);
      CREATE INDEX headers_by_parent ON headers (parent);

      CREATE TABLE cut_heads (
        chain_id INTEGER PRIMARY KEY,
        hash BLOB NOT NULL REFERENCES headers (hash)
      ) STRICT;

      CREATE TABLE best_chain (
        chain_id INTEGER NOT NULL,
        height INTEGER NOT NULL,
        hash BLOB NOT NULL REFERENCES headers (hash),
        PRIMARY KEY (chain_id, height)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
