/**
 * index.sqlite version 1: the explorer's index of the block database
 * (src-node/index/). Everything here can be rebuilt from blocks.sqlite;
 * hashes and request keys are their base64url text.
 *
 * - `blocks`: every block the index has seen on a best chain (and, after a
 *   rebuild, every stored block), `orphaned` = 1 once it left the best chain.
 *   `blocks_recent` serves "newest first" across chains, `blocks_by_chain`
 *   one chain's list and the reorganisation queries.
 * - `transactions`: one row per command of a block (a request key is in
 *   several rows when several branches hold it); position in the payload so
 *   that the command and its output are read from blocks.sqlite.
 * - `events`: every event of every command's output, with `from_account`,
 *   `to_account` and `amount` for `TRANSFER(from, to, amount)` events,
 *   indexed newest first per account.
 * - `accounts`: accounts touched per chain (sender of a command, party of a
 *   `TRANSFER`), counted over the best chain (a row whose counts fall to
 *   zero is removed).
 * - `modules`: module and interface deployments by qualified name and chain.
 * @module
 */
import type { Migration } from "../../migration.ts";
import { sql } from "../../sql.ts";

export const indexMigration0001: Migration = {
  version: 1,
  name: "index-tables",
  up(db) {
    db.exec(sql`
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE blocks (
        hash TEXT PRIMARY KEY,
        chain_id INTEGER NOT NULL,
        height INTEGER NOT NULL,
        parent TEXT NOT NULL,
        creation_time INTEGER NOT NULL,
        miner TEXT NOT NULL,
        tx_count INTEGER NOT NULL,
        orphaned INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX blocks_recent ON blocks (height DESC, chain_id, hash);
      CREATE INDEX blocks_by_chain ON blocks (chain_id, height DESC, hash);
      CREATE INDEX blocks_by_parent ON blocks (parent);

      CREATE TABLE transactions (
        block_hash TEXT NOT NULL,
        position INTEGER NOT NULL,
        request_key TEXT NOT NULL,
        chain_id INTEGER NOT NULL,
        height INTEGER NOT NULL,
        sender TEXT NOT NULL,
        first_call TEXT,
        gas INTEGER NOT NULL,
        success INTEGER NOT NULL,
        pact_id TEXT,
        step INTEGER,
        PRIMARY KEY (block_hash, position)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX transactions_by_key ON transactions (request_key);
      CREATE INDEX transactions_by_pact ON transactions (pact_id, step) WHERE pact_id IS NOT NULL;

      CREATE TABLE events (
        block_hash TEXT NOT NULL,
        position INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        chain_id INTEGER NOT NULL,
        height INTEGER NOT NULL,
        module TEXT NOT NULL,
        name TEXT NOT NULL,
        params TEXT NOT NULL,
        from_account TEXT,
        to_account TEXT,
        amount TEXT,
        PRIMARY KEY (block_hash, position, idx)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX events_from ON events (from_account, height DESC, chain_id DESC, block_hash DESC, position DESC, idx DESC)
        WHERE from_account IS NOT NULL;
      CREATE INDEX events_to ON events (to_account, height DESC, chain_id DESC, block_hash DESC, position DESC, idx DESC)
        WHERE to_account IS NOT NULL;

      CREATE TABLE accounts (
        account TEXT NOT NULL,
        chain_id INTEGER NOT NULL,
        transactions INTEGER NOT NULL,
        transfers INTEGER NOT NULL,
        PRIMARY KEY (account, chain_id)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE modules (
        name TEXT NOT NULL,
        chain_id INTEGER NOT NULL,
        block_hash TEXT NOT NULL,
        position INTEGER NOT NULL,
        height INTEGER NOT NULL,
        request_key TEXT NOT NULL,
        PRIMARY KEY (name, chain_id, block_hash, position)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
