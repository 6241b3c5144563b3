/**
 * state.sqlite version 1: contract state of every chain, versioned by
 * (chain, block height, transaction id), and what was executed to reach it.
 *
 * - `state_blocks`: the blocks whose execution the state holds, per chain
 *   and height (one branch per chain: the one last executed), with the first
 *   transaction id after the block (`end_txid`). A chain's head is its
 *   highest row.
 * - `versions`: every write of every transaction: (chain, table, key,
 *   txid, seq) → value text (the lossless codec of contract/storage/
 *   storedValue.ts), with the block height it was written at. Transaction
 *   ids grow with height and with the command index inside a block, so "the
 *   newest version below a txid bound" is the state at a height; `seq`
 *   orders several writes of one key inside one transaction. System tables
 *   (keysets, modules, namespaces, pacts) live here too, named `SYS:<table>`.
 * - `user_tables`: tables made by `create-table`, with their module and the
 *   transaction that created them.
 * - `results`: command results of the blocks held, by request key (/poll,
 *   /listen, duplicate checks): height, block hash, output JSON text.
 *
 * Rewinding a chain to a height deletes every row above it in one
 * transaction (index `versions_by_txid`, and the height columns).
 * @module
 */
import type { Migration } from "../../migration.ts";
import { sql } from "../../sql.ts";

export const stateMigration0001: Migration = {
  version: 1,
  name: "state-tables",
  up(db) {
    db.exec(sql`
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE state_blocks (
        chain_id INTEGER NOT NULL,
        height INTEGER NOT NULL,
        hash TEXT NOT NULL,
        end_txid INTEGER NOT NULL,
        PRIMARY KEY (chain_id, height)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE versions (
        chain_id INTEGER NOT NULL,
        tbl TEXT NOT NULL,
        key TEXT NOT NULL,
        txid INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        height INTEGER NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (chain_id, tbl, key, txid, seq)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX versions_by_txid ON versions (chain_id, txid);

      CREATE TABLE user_tables (
        chain_id INTEGER NOT NULL,
        tbl TEXT NOT NULL,
        module TEXT NOT NULL,
        txid INTEGER NOT NULL,
        height INTEGER NOT NULL,
        PRIMARY KEY (chain_id, tbl)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE results (
        chain_id INTEGER NOT NULL,
        request_key TEXT NOT NULL,
        height INTEGER NOT NULL,
        block_hash TEXT NOT NULL,
        position INTEGER NOT NULL,
        output TEXT NOT NULL,
        PRIMARY KEY (chain_id, request_key)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX results_by_height ON results (chain_id, height);
    `);
  },
};
