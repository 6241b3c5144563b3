/**
 * The databases a node backs up, in copy order: the contract state
 * (state.sqlite, only with `backupPact`) first, then the blocks
 * (blocks.sqlite, always), so the block copy is never older than the state
 * copy and a restored node finds every block the state has executed.
 * @module
 */
import type { NetworkVersion } from "../chain/networkVersion.ts";
import type { SqlDatabase } from "../store/sqlDatabase.ts";
import type { BackupDatabase } from "./backupDatabase.ts";
import { describeBlocksCopy } from "./blocksCopy.ts";
import { describeStateCopy } from "./stateCopy.ts";

export type NodeDatabases = {
  readonly version: NetworkVersion;
  /** The block database's connection (`BlockDb.store.db`). */
  readonly blocks: SqlDatabase;
  /** The contract-state database's connection (`StateDb.db`), when the node has one. */
  readonly state?: SqlDatabase | undefined;
};

export function nodeBackupDatabases(dbs: NodeDatabases): BackupDatabase[] {
  const list: BackupDatabase[] = [];
  if (dbs.state !== undefined) {
    list.push({
      name: "state",
      file: "state.sqlite",
      db: dbs.state,
      pactOnly: true,
      describe: describeStateCopy(dbs.version),
    });
  }
  list.push({
    name: "blocks",
    file: "blocks.sqlite",
    db: dbs.blocks,
    pactOnly: false,
    describe: describeBlocksCopy(dbs.version),
  });
  return list;
}
