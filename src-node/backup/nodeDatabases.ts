/**
 * The databases a node backs up, in copy order: the contract state
 * (state.sqlite, only with `backupPact`) first, then the blocks
 * (blocks.sqlite, always), so the block copy is never older than the state
 * copy and a restored node finds every block the state has executed. The
 * pending commands (mempool.sqlite) go with the state: a restored node
 * checks each again at start and drops those expired or already mined.
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
  /** The pending commands' connection (`MempoolStore.db`), when the node has one. */
  readonly mempool?: SqlDatabase | undefined;
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
  if (dbs.mempool !== undefined) {
    list.push({ name: "mempool", file: "mempool.sqlite", db: dbs.mempool, pactOnly: true });
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
