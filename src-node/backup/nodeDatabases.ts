/**
 * The databases a node backs up, in copy order: the contract state
 * (state.sqlite, only with `backupPact`) first, then the blocks
 * (blocks.sqlite, always), so the block copy is never older than the state
 * copy and a restored node finds every block the state has executed. The
 * pending commands (mempool.sqlite) go with the state: a restored node
 * checks each again at start and drops those expired or already mined.
 * On a node with an entity, its private state (`private/<entity>.sqlite`)
 * and the entities it pinned from the app (`private/trusted-entities.json`)
 * come last, with or without `backupPact`: no peer can give them back
 * (docs/private.md "Backups"). The entity's key file is never copied: its
 * secret stays in the data folder. A file added here must be added to
 * backupContents.ts too, or restore refuses the backups that hold it.
 * @module
 */
import type { NetworkVersion } from "../chain/networkVersion.ts";
import type { SqlDatabase } from "../store/sqlDatabase.ts";
import type { BackupDatabase, BackupFile, BackupSource } from "./backupDatabase.ts";
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
  /** The entity's private state (`private/<entity>.sqlite`), when the node has an entity. */
  readonly privateState?: { readonly file: string; readonly db: SqlDatabase } | undefined;
  /** The pinned entities' file (`private/trusted-entities.json`), absolute, when there is one. */
  readonly trustFile?: string | undefined;
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
  if (dbs.privateState !== undefined) {
    list.push({
      name: "private",
      file: dbs.privateState.file,
      db: dbs.privateState.db,
      pactOnly: false,
    });
  }
  return list;
}

/** The node's databases, then its plain files (the pinned entities). */
export function nodeBackupSources(dbs: NodeDatabases): BackupSource[] {
  const file = "private/trusted-entities.json";
  const files: BackupFile[] =
    dbs.trustFile === undefined
      ? []
      : [{ name: file, file, sourcePath: dbs.trustFile, pactOnly: false }];
  return [...nodeBackupDatabases(dbs), ...files];
}
