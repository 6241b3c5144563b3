/**
 * mempool.sqlite version 1: the commands /send accepted and no block of the
 * best chain holds yet, so that a node killed (even with SIGKILL) finds them
 * again at start.
 *
 * - `pending`: one row per (chain, request key); `seq` (the rowid) grows
 *   with arrival, so reading in `seq` order gives the arrival order back;
 *   `command` is the command's wire JSON (`{"hash","sigs","cmd"}`), which
 *   the node parses and checks again when it loads it.
 * @module
 */
import type { Migration } from "../../migration.ts";
import { sql } from "../../sql.ts";

export const mempoolMigration0001: Migration = {
  version: 1,
  name: "pending-commands",
  up(db) {
    db.exec(sql`
      CREATE TABLE pending (
        seq INTEGER PRIMARY KEY,
        chain_id INTEGER NOT NULL,
        request_key TEXT NOT NULL,
        command TEXT NOT NULL,
        UNIQUE (chain_id, request_key)
      ) STRICT;
    `);
  },
};
