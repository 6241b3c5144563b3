/**
 * Backups: seconds per GB of each database through a whole backup job
 * (SQLite online backup in steps on the database's own connection, read-back
 * for the manifest, SHA-256), and of the online copy alone; with the longest
 * pause of the event loop while the job runs (the node keeps answering in
 * between steps). Baselines from the same files: a plain file copy (what a
 * backup must never do to a live database, but the floor for the disk),
 * VACUUM INTO from a separate read connection, and SHA-256 of the file.
 *
 * Databases (size: WEFT_BENCH_BACKUP_MB, default 256 each):
 * - blocks.sqlite: test-singleton blocks written through the block store
 *   (headers, payloads with 100 transactions each, the best chain index);
 * - state.sqlite: the contract-state database filled with command results
 *   (600-byte outputs, random request keys: a B-tree like the state's).
 */
import { copyFileSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { BackupDatabase } from "../../src-node/backup/backupDatabase.ts";
import { BackupService } from "../../src-node/backup/backupService.ts";
import { fileChecksum } from "../../src-node/backup/fileChecksum.ts";
import { nodeBackupDatabases } from "../../src-node/backup/nodeDatabases.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import type { Hash32 } from "../../src-node/encoding/hash32.ts";
import { BlockDb } from "../../src-node/store/blockDb.ts";
import { sql } from "../../src-node/store/sql.ts";
import { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { StateDb } from "../../src-node/store/stateDb.ts";
import { ChainBuilder } from "../support/chainBuilder.ts";
import { tempDir } from "../support/testNode.ts";

const TARGET_MB = Number(process.env.WEFT_BENCH_BACKUP_MB ?? 256);
const GB = 1024 ** 3;

function report(metric: string, value: number, unit: string): void {
  console.log(`BENCH backup ${metric}=${value.toFixed(value < 10 ? 3 : 1)} ${unit}`);
}

function sizeOf(path: string): number {
  return statSync(path).size;
}

const dir = tempDir("weft-bench-backup-");
const version = testSingletonVersion;
try {
  // ---- build the databases
  const t0 = performance.now();
  const blocks = BlockDb.open({ path: join(dir, "data", "blocks.sqlite"), version });
  const builder = ChainBuilder.create(version, "main", blocks.genesis);
  while (
    sizeOf(blocks.store.db.path) + sizeOf(`${blocks.store.db.path}-wal`) <
    TARGET_MB * 2 ** 20
  ) {
    const round = builder.rounds(10, { transactions: 100 });
    blocks.store.transaction(() => {
      for (const b of round) {
        blocks.store.insertPayload(b.payload);
        blocks.store.insertHeader(b.header);
        blocks.store.setBestChain(b.header);
      }
      blocks.store.replaceCutHeads([...builder.cut.values()]);
    });
  }
  const state = StateDb.open({ path: join(dir, "data", "state.sqlite") });
  const output = JSON.stringify({ result: { status: "success", data: "x".repeat(520) }, gas: 7 });
  let n = 0;
  while (sizeOf(state.path) + sizeOf(`${state.path}-wal`) < TARGET_MB * 2 ** 20) {
    state.transaction(() => {
      for (let i = 0; i < 5000; i++, n++) {
        const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
        state.insertResult(n % 10, {
          requestKey: key,
          height: Math.floor(n / 10),
          blockHash: key as Hash32,
          position: 0,
          output,
        });
      }
    });
  }
  // Checkpoint the write-ahead logs, so that the files hold everything.
  for (const db of [blocks.store.db, state.db]) db.exec(sql`PRAGMA wal_checkpoint(TRUNCATE)`);
  console.error(
    `built blocks.sqlite ${(sizeOf(blocks.store.db.path) / 2 ** 20).toFixed(0)} MiB, state.sqlite ${(sizeOf(state.path) / 2 ** 20).toFixed(0)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const all = nodeBackupDatabases({ version, blocks: blocks.store.db, state: state.db });
  for (const source of all) {
    const bytes = sizeOf(source.db.path);
    const name = source.name;

    // A whole job (copy, read-back, checksum), the event loop watched.
    const backups = join(dir, `backups-${name}`);
    mkdirSync(backups);
    const one: BackupDatabase = { ...source, pactOnly: false };
    const service = new BackupService({
      directory: backups,
      network: version.name,
      softwareVersion: "bench",
      databases: [one],
    });
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    let start = performance.now();
    const id = service.start({ backupPact: false });
    const m = await service.settled();
    const jobSeconds = (performance.now() - start) / 1000;
    loop.disable();
    await service.close();
    if (m?.status !== "backup-done") throw new Error(`backup ${id} failed: ${m?.error?.message}`);
    report(`${name}_s_per_gb`, (jobSeconds * GB) / bytes, "s/GB");
    report(`${name}_max_loop_delay_ms`, loop.max / 1e6, "ms");
    report(`${name}_p99_loop_delay_ms`, loop.percentile(99) / 1e6, "ms");

    // The online copy alone.
    const copyPath = join(dir, `${name}-online.sqlite`);
    start = performance.now();
    await source.db.backup(copyPath);
    report(
      `${name}_online_copy_s_per_gb`,
      ((performance.now() - start) / 1000) * (GB / bytes),
      "s/GB",
    );
    rmSync(copyPath, { force: true });

    // Baselines: file copy, VACUUM INTO on a separate connection, SHA-256.
    const plain = join(dir, `${name}-plain.sqlite`);
    start = performance.now();
    copyFileSync(source.db.path, plain);
    const copySeconds = ((performance.now() - start) / 1000) * (GB / bytes);
    report(`${name}_copy_s_per_gb`, copySeconds, "s/GB");
    // The baseline name: a plain copy of the block database.
    if (name === "blocks") report("copy_s_per_gb", copySeconds, "s/GB");
    rmSync(plain, { force: true });

    const reader = SqlDatabase.open(source.db.path);
    const vacuumed = join(dir, `${name}-vacuum.sqlite`);
    start = performance.now();
    reader.run(sql`VACUUM INTO ${vacuumed}`);
    report(
      `${name}_vacuum_into_s_per_gb`,
      ((performance.now() - start) / 1000) * (GB / bytes),
      "s/GB",
    );
    reader.close();
    rmSync(vacuumed, { force: true });

    start = performance.now();
    await fileChecksum(source.db.path);
    report(`${name}_sha256_s_per_gb`, ((performance.now() - start) / 1000) * (GB / bytes), "s/GB");
  }
  blocks.close();
  state.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
