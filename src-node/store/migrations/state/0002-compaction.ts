/**
 * state.sqlite version 2: how far each chain's history has been compacted
 * (store/stateCompaction.ts, docs/storage.md "Contract state").
 *
 * `state_compaction`, one row per compacted chain:
 * - `horizon_height`, `horizon_end_txid`: the state is exact at every block
 *   held at or above `horizon_height` (a read bounded by a transaction id at
 *   or above `horizon_end_txid` sees what it saw before compaction); blocks
 *   below it, but for the chain's genesis, are no longer held.
 * - `cursor_txid`: the versions written below it have been compacted against
 *   `horizon_end_txid`; the round is over when it reaches `horizon_end_txid`.
 *
 * A chain without a row was never compacted (an archive node's).
 * @module
 */
import type { Migration } from "../../migration.ts";
import { sql } from "../../sql.ts";

export const stateMigration0002: Migration = {
  version: 2,
  name: "compaction",
  up(db) {
    db.exec(sql`
      CREATE TABLE state_compaction (
        chain_id INTEGER PRIMARY KEY,
        horizon_height INTEGER NOT NULL,
        horizon_end_txid INTEGER NOT NULL,
        cursor_txid INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
