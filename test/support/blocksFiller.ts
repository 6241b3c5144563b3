/**
 * Makes a test-singleton data folder's blocks.sqlite heavier: a node is
 * created there (and closed), then `mb` MiB of extra rows are added, so a
 * backup of it takes long enough to be watched, stopped or killed.
 */
import { join } from "node:path";
import { sql } from "../../src-node/store/sql.ts";
import { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { openTestNode } from "./testNode.ts";

export async function addBlocksFiller(dataDir: string, mb: number): Promise<void> {
  const t = await openTestNode({ dir: dataDir });
  await t.cleanup();
  const db = SqlDatabase.open(join(dataDir, "test-singleton", "blocks.sqlite"));
  try {
    db.exec(sql`CREATE TABLE filler (b BLOB)`);
    db.transaction(() => {
      for (let i = 0; i < mb * 16; i++)
        db.run(sql`INSERT INTO filler (b) VALUES (randomblob(65536))`);
    });
  } finally {
    db.close();
  }
}
