/**
 * `IndexStore`: the SQL of index.sqlite, the explorer's index (schema in
 * migrations/index/). Rows in, rows out, through prepared statements; what
 * to index and when is the indexer's (src-node/index/). Row mappers check
 * every column (a row of the wrong shape is a corrupt file: STORE_CORRUPT).
 * Multi-row writes are grouped by the caller with {@link IndexStore.transaction}.
 * @module
 */
import { StoreError, StoreErrorCode } from "./errors.ts";
import { indexMigrations } from "./indexMigrations.ts";
import { runMigrations } from "./migration.ts";
import { sql } from "./sql.ts";
import { type OpenDatabaseOptions, SqlDatabase } from "./sqlDatabase.ts";

export type IndexBlockRow = {
  readonly hash: string;
  readonly chainId: number;
  readonly height: number;
  readonly parent: string;
  /** µs since the UNIX epoch. */
  readonly creationTime: number;
  readonly miner: string;
  readonly txCount: number;
  readonly orphaned: boolean;
};

export type IndexTxRow = {
  readonly blockHash: string;
  readonly position: number;
  readonly requestKey: string;
  readonly chainId: number;
  readonly height: number;
  readonly sender: string;
  readonly firstCall: string | null;
  readonly gas: number;
  readonly success: boolean;
  readonly pactId: string | null;
  readonly step: number | null;
};

export type IndexEventRow = {
  readonly blockHash: string;
  readonly position: number;
  readonly idx: number;
  readonly chainId: number;
  readonly height: number;
  readonly module: string;
  readonly name: string;
  /** The parameter array's exact JSON text. */
  readonly params: string;
  readonly fromAccount: string | null;
  readonly toAccount: string | null;
  readonly amount: string | null;
};

export type IndexModuleRow = {
  readonly name: string;
  readonly chainId: number;
  readonly blockHash: string;
  readonly position: number;
  readonly height: number;
  readonly requestKey: string;
};

export type IndexAccountRow = {
  readonly account: string;
  readonly chainId: number;
  readonly transactions: number;
  readonly transfers: number;
};

/** A transaction row with its block's orphaned flag and creation time. */
export type IndexTxWithBlock = IndexTxRow & {
  readonly orphaned: boolean;
  readonly creationTime: number;
};

/** A TRANSFER event of a best-chain block, with its transaction's request key. */
export type IndexTransferRow = IndexEventRow & {
  readonly requestKey: string;
  readonly creationTime: number;
  readonly pactId: string | null;
};

/** Where a newest-first list of blocks continues: at this key, inclusive. */
export type BlockKey = { readonly height: number; readonly chainId: number; readonly hash: string };

/** Where a newest-first list of events continues: at this key, inclusive. */
export type EventKey = {
  readonly height: number;
  readonly chainId: number;
  readonly blockHash: string;
  readonly position: number;
  readonly idx: number;
};

function corrupt(reason: string): never {
  throw new StoreError(
    { code: StoreErrorCode.Corrupt, path: "index.sqlite", reason },
    `index.sqlite: ${reason}`,
  );
}

function record(row: unknown): Record<string, unknown> {
  if (typeof row !== "object" || row === null) corrupt("a row is not an object");
  return row as Record<string, unknown>;
}

function int(value: unknown, column: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    corrupt(`${column} is not an integer`);
  }
  return value;
}

function text(value: unknown, column: string): string {
  if (typeof value !== "string") corrupt(`${column} is not text`);
  return value;
}

function textOrNull(value: unknown, column: string): string | null {
  return value === null ? null : text(value, column);
}

function intOrNull(value: unknown, column: string): number | null {
  return value === null ? null : int(value, column);
}

function blockRow(row: unknown): IndexBlockRow {
  const r = record(row);
  return {
    hash: text(r.hash, "hash"),
    chainId: int(r.chain_id, "chain_id"),
    height: int(r.height, "height"),
    parent: text(r.parent, "parent"),
    creationTime: int(r.creation_time, "creation_time"),
    miner: text(r.miner, "miner"),
    txCount: int(r.tx_count, "tx_count"),
    orphaned: int(r.orphaned, "orphaned") !== 0,
  };
}

function txRow(row: unknown): IndexTxRow {
  const r = record(row);
  return {
    blockHash: text(r.block_hash, "block_hash"),
    position: int(r.position, "position"),
    requestKey: text(r.request_key, "request_key"),
    chainId: int(r.chain_id, "chain_id"),
    height: int(r.height, "height"),
    sender: text(r.sender, "sender"),
    firstCall: textOrNull(r.first_call, "first_call"),
    gas: int(r.gas, "gas"),
    success: int(r.success, "success") !== 0,
    pactId: textOrNull(r.pact_id, "pact_id"),
    step: intOrNull(r.step, "step"),
  };
}

function txWithBlockRow(row: unknown): IndexTxWithBlock {
  const r = record(row);
  return {
    ...txRow(row),
    orphaned: int(r.orphaned, "orphaned") !== 0,
    creationTime: int(r.creation_time, "creation_time"),
  };
}

function eventRow(row: unknown): IndexEventRow {
  const r = record(row);
  return {
    blockHash: text(r.block_hash, "block_hash"),
    position: int(r.position, "position"),
    idx: int(r.idx, "idx"),
    chainId: int(r.chain_id, "chain_id"),
    height: int(r.height, "height"),
    module: text(r.module, "module"),
    name: text(r.name, "name"),
    params: text(r.params, "params"),
    fromAccount: textOrNull(r.from_account, "from_account"),
    toAccount: textOrNull(r.to_account, "to_account"),
    amount: textOrNull(r.amount, "amount"),
  };
}

function transferRow(row: unknown): IndexTransferRow {
  const r = record(row);
  return {
    ...eventRow(row),
    requestKey: text(r.request_key, "request_key"),
    creationTime: int(r.creation_time, "creation_time"),
    pactId: textOrNull(r.pact_id, "pact_id"),
  };
}

function accountRow(row: unknown): IndexAccountRow {
  const r = record(row);
  return {
    account: text(r.account, "account"),
    chainId: int(r.chain_id, "chain_id"),
    transactions: int(r.transactions, "transactions"),
    transfers: int(r.transfers, "transfers"),
  };
}

function moduleRow(row: unknown): IndexModuleRow {
  const r = record(row);
  return {
    name: text(r.name, "name"),
    chainId: int(r.chain_id, "chain_id"),
    blockHash: text(r.block_hash, "block_hash"),
    position: int(r.position, "position"),
    height: int(r.height, "height"),
    requestKey: text(r.request_key, "request_key"),
  };
}

/** The first text of `prefix`'s range end: names that start with `prefix` sort below it. */
function prefixEnd(prefix: string): string {
  return `${prefix}\u{10FFFF}`;
}

export class IndexStore {
  readonly db: SqlDatabase;

  private constructor(db: SqlDatabase) {
    this.db = db;
  }

  /**
   * Opens (creating when missing) index.sqlite and brings its schema up to date.
   * @throws {StoreError} STORE_OPEN_FAILED, STORE_SCHEMA_TOO_NEW.
   */
  static open(path: string, options: OpenDatabaseOptions = {}): IndexStore {
    const db = SqlDatabase.open(path, options);
    try {
      runMigrations(db, indexMigrations);
    } catch (e) {
      db.close();
      throw e;
    }
    return new IndexStore(db);
  }

  close(): void {
    this.db.close();
  }

  get isOpen(): boolean {
    return this.db.isOpen;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }

  // ---- meta

  meta(key: string): string | undefined {
    return this.db.get(sql`SELECT value FROM meta WHERE key = ${key}`, (r) =>
      text(record(r).value, "value"),
    );
  }

  setMeta(key: string, value: string): void {
    this.db.run(
      sql`INSERT INTO meta (key, value) VALUES (${key}, ${value})
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
  }

  /** Empties every table (meta included), for a rebuild. */
  clear(): void {
    this.db.exec(sql`
      DELETE FROM meta; DELETE FROM blocks; DELETE FROM transactions; DELETE FROM events;
      DELETE FROM accounts; DELETE FROM modules;
    `);
  }

  // ---- writes

  /** Inserts a block row; false (nothing written) when the index has that block already. */
  insertBlock(b: IndexBlockRow): boolean {
    return (
      this.db.run(
        sql`INSERT INTO blocks (hash, chain_id, height, parent, creation_time, miner, tx_count, orphaned)
            VALUES (${b.hash}, ${b.chainId}, ${b.height}, ${b.parent}, ${b.creationTime}, ${b.miner},
                    ${b.txCount}, ${b.orphaned ? 1 : 0})
            ON CONFLICT (hash) DO NOTHING`,
      ) > 0
    );
  }

  /** Deletes the command, event and module rows of a block (one left half indexed; its block row is absent). */
  deleteBlockRows(hash: string): void {
    this.db.run(sql`DELETE FROM transactions WHERE block_hash = ${hash}`);
    this.db.run(sql`DELETE FROM events WHERE block_hash = ${hash}`);
    this.db.run(sql`DELETE FROM modules WHERE block_hash = ${hash}`);
  }

  setOrphaned(hash: string, orphaned: boolean): void {
    this.db.run(sql`UPDATE blocks SET orphaned = ${orphaned ? 1 : 0} WHERE hash = ${hash}`);
  }

  insertTransaction(t: IndexTxRow): void {
    this.db.run(
      sql`INSERT INTO transactions (block_hash, position, request_key, chain_id, height, sender,
            first_call, gas, success, pact_id, step)
          VALUES (${t.blockHash}, ${t.position}, ${t.requestKey}, ${t.chainId}, ${t.height},
                  ${t.sender}, ${t.firstCall}, ${t.gas}, ${t.success ? 1 : 0}, ${t.pactId}, ${t.step})`,
    );
  }

  insertEvent(e: IndexEventRow): void {
    this.db.run(
      sql`INSERT INTO events (block_hash, position, idx, chain_id, height, module, name, params,
            from_account, to_account, amount)
          VALUES (${e.blockHash}, ${e.position}, ${e.idx}, ${e.chainId}, ${e.height}, ${e.module},
                  ${e.name}, ${e.params}, ${e.fromAccount}, ${e.toAccount}, ${e.amount})`,
    );
  }

  insertModule(m: IndexModuleRow): void {
    this.db.run(
      sql`INSERT INTO modules (name, chain_id, block_hash, position, height, request_key)
          VALUES (${m.name}, ${m.chainId}, ${m.blockHash}, ${m.position}, ${m.height}, ${m.requestKey})
          ON CONFLICT DO NOTHING`,
    );
  }

  /**
   * Adds `transactions` and `transfers` (either may be negative) to an
   * account's counts on a chain; a row whose counts reach zero is removed.
   */
  countAccount(account: string, chainId: number, transactions: number, transfers: number): void {
    this.db.run(
      sql`INSERT INTO accounts (account, chain_id, transactions, transfers)
          VALUES (${account}, ${chainId}, ${transactions}, ${transfers})
          ON CONFLICT (account, chain_id) DO UPDATE SET
            transactions = transactions + excluded.transactions,
            transfers = transfers + excluded.transfers`,
    );
    if (transactions < 0 || transfers < 0) {
      this.db.run(
        sql`DELETE FROM accounts WHERE account = ${account} AND chain_id = ${chainId}
              AND transactions <= 0 AND transfers <= 0`,
      );
    }
  }

  // ---- blocks

  block(hash: string): IndexBlockRow | undefined {
    return this.db.get(sql`SELECT * FROM blocks WHERE hash = ${hash}`, blockRow);
  }

  blockCount(): number {
    return this.db.get(sql`SELECT COUNT(*) AS n FROM blocks`, (r) => int(record(r).n, "n")) ?? 0;
  }

  /** Blocks of the best chain of `chainId` above `height` (not orphaned). */
  bestBlocksAbove(chainId: number, height: number): IndexBlockRow[] {
    return this.db.all(
      sql`SELECT * FROM blocks WHERE chain_id = ${chainId} AND height > ${height} AND orphaned = 0`,
      blockRow,
    );
  }

  /** The highest block of the best chain of `chainId` the index has. */
  bestHead(chainId: number): IndexBlockRow | undefined {
    return this.db.get(
      sql`SELECT * FROM blocks WHERE chain_id = ${chainId} AND orphaned = 0
          ORDER BY height DESC LIMIT 1`,
      blockRow,
    );
  }

  /** Blocks of `chainId` at `height` (every branch). */
  blocksAt(chainId: number, height: number): IndexBlockRow[] {
    return this.db.all(
      sql`SELECT * FROM blocks WHERE chain_id = ${chainId} AND height = ${height} ORDER BY orphaned, hash`,
      blockRow,
    );
  }

  /** Blocks at `height` on every chain, ascending by chain, best ones first. */
  blocksAtHeight(height: number): IndexBlockRow[] {
    return this.db.all(
      sql`SELECT * FROM blocks WHERE height = ${height} ORDER BY chain_id, orphaned, hash`,
      blockRow,
    );
  }

  children(hash: string): IndexBlockRow[] {
    return this.db.all(
      sql`SELECT * FROM blocks WHERE parent = ${hash} ORDER BY orphaned, hash`,
      blockRow,
    );
  }

  /** Newest first across chains (height descending, chain and hash ascending), from `from` inclusive. */
  recentBlocks(from: BlockKey | undefined, limit: number): IndexBlockRow[] {
    if (from === undefined) {
      return this.db.all(
        sql`SELECT * FROM blocks ORDER BY height DESC, chain_id, hash LIMIT ${limit}`,
        blockRow,
      );
    }
    return this.db.all(
      sql`SELECT * FROM blocks
          WHERE height <= ${from.height}
            AND NOT (height = ${from.height} AND (chain_id, hash) < (${from.chainId}, ${from.hash}))
          ORDER BY height DESC, chain_id, hash LIMIT ${limit}`,
      blockRow,
    );
  }

  /** Newest first on one chain (height descending, hash ascending), from `from` inclusive. */
  recentBlocksOfChain(
    chainId: number,
    from: { readonly height: number; readonly hash: string } | undefined,
    limit: number,
  ): IndexBlockRow[] {
    if (from === undefined) {
      return this.db.all(
        sql`SELECT * FROM blocks WHERE chain_id = ${chainId}
            ORDER BY height DESC, hash LIMIT ${limit}`,
        blockRow,
      );
    }
    return this.db.all(
      sql`SELECT * FROM blocks
          WHERE chain_id = ${chainId} AND height <= ${from.height}
            AND NOT (height = ${from.height} AND hash < ${from.hash})
          ORDER BY height DESC, hash LIMIT ${limit}`,
      blockRow,
    );
  }

  // ---- transactions

  transactionsOfBlock(blockHash: string): IndexTxRow[] {
    return this.db.all(
      sql`SELECT * FROM transactions WHERE block_hash = ${blockHash} ORDER BY position`,
      txRow,
    );
  }

  /** Every row of a request key, with its block's flag, newest block first. */
  transactionsByKey(requestKey: string): IndexTxWithBlock[] {
    return this.db.all(
      sql`SELECT t.*, b.orphaned AS orphaned, b.creation_time AS creation_time
          FROM transactions t JOIN blocks b ON b.hash = t.block_hash
          WHERE t.request_key = ${requestKey}
          ORDER BY b.orphaned, t.height DESC`,
      txWithBlockRow,
    );
  }

  /** The rows of a defpact's steps, with their blocks' flags. */
  transactionsByPact(pactId: string): IndexTxWithBlock[] {
    return this.db.all(
      sql`SELECT t.*, b.orphaned AS orphaned, b.creation_time AS creation_time
          FROM transactions t JOIN blocks b ON b.hash = t.block_hash
          WHERE t.pact_id = ${pactId}
          ORDER BY t.step, b.orphaned, t.height DESC`,
      txWithBlockRow,
    );
  }

  // ---- events

  eventsOfBlock(blockHash: string): IndexEventRow[] {
    return this.db.all(
      sql`SELECT * FROM events WHERE block_hash = ${blockHash} ORDER BY position, idx`,
      eventRow,
    );
  }

  /**
   * TRANSFER events of best-chain blocks where `account` is the sender
   * (`side` "from") or receiver ("to"), on `chainId` or every chain, newest
   * first from `from` inclusive.
   */
  transfers(
    account: string,
    side: "from" | "to",
    chainId: number | undefined,
    from: EventKey | undefined,
    limit: number,
  ): IndexTransferRow[] {
    const chain = chainId ?? -1;
    const k = from ?? {
      height: Number.MAX_SAFE_INTEGER,
      chainId: Number.MAX_SAFE_INTEGER,
      blockHash: "\u{10FFFF}",
      position: Number.MAX_SAFE_INTEGER,
      idx: Number.MAX_SAFE_INTEGER,
    };
    if (side === "from") {
      return this.db.all(
        sql`SELECT e.*, t.request_key AS request_key, t.pact_id AS pact_id,
                   b.creation_time AS creation_time
            FROM events e
            JOIN blocks b ON b.hash = e.block_hash
            JOIN transactions t ON t.block_hash = e.block_hash AND t.position = e.position
            WHERE e.from_account = ${account} AND b.orphaned = 0
              AND (${chain} < 0 OR e.chain_id = ${chain})
              AND (e.height, e.chain_id, e.block_hash, e.position, e.idx)
                  <= (${k.height}, ${k.chainId}, ${k.blockHash}, ${k.position}, ${k.idx})
            ORDER BY e.height DESC, e.chain_id DESC, e.block_hash DESC, e.position DESC, e.idx DESC
            LIMIT ${limit}`,
        transferRow,
      );
    }
    return this.db.all(
      sql`SELECT e.*, t.request_key AS request_key, t.pact_id AS pact_id,
                 b.creation_time AS creation_time
          FROM events e
          JOIN blocks b ON b.hash = e.block_hash
          JOIN transactions t ON t.block_hash = e.block_hash AND t.position = e.position
          WHERE e.to_account = ${account} AND b.orphaned = 0
            AND (${chain} < 0 OR e.chain_id = ${chain})
            AND (e.height, e.chain_id, e.block_hash, e.position, e.idx)
                <= (${k.height}, ${k.chainId}, ${k.blockHash}, ${k.position}, ${k.idx})
          ORDER BY e.height DESC, e.chain_id DESC, e.block_hash DESC, e.position DESC, e.idx DESC
          LIMIT ${limit}`,
      transferRow,
    );
  }

  // ---- accounts and modules

  accountChains(account: string): IndexAccountRow[] {
    return this.db.all(
      sql`SELECT * FROM accounts WHERE account = ${account} ORDER BY chain_id`,
      accountRow,
    );
  }

  /** Account names starting with `prefix` (at most `limit`), ascending. */
  accountsStartingWith(prefix: string, limit: number): string[] {
    return this.db.column(
      sql`SELECT DISTINCT account FROM accounts
          WHERE account >= ${prefix} AND account < ${prefixEnd(prefix)}
          ORDER BY account LIMIT ${limit}`,
      (v) => text(v, "account"),
    );
  }

  /** Deployments of a module in best-chain blocks, newest first. */
  moduleDeployments(name: string): IndexModuleRow[] {
    return this.db.all(
      sql`SELECT m.* FROM modules m JOIN blocks b ON b.hash = m.block_hash
          WHERE m.name = ${name} AND b.orphaned = 0
          ORDER BY m.chain_id, m.height DESC, m.position DESC`,
      moduleRow,
    );
  }

  /** Module names starting with `prefix` (at most `limit`), ascending. */
  modulesStartingWith(prefix: string, limit: number): string[] {
    return this.db.column(
      sql`SELECT DISTINCT name FROM modules
          WHERE name >= ${prefix} AND name < ${prefixEnd(prefix)}
          ORDER BY name LIMIT ${limit}`,
      (v) => text(v, "name"),
    );
  }

  /** Every row of every table in a fixed order, for comparing two indexes (tests). */
  dump(): Record<string, unknown[]> {
    const all = (q: ReturnType<typeof sql>) => this.db.all(q, (r) => r);
    return {
      blocks: all(sql`SELECT * FROM blocks ORDER BY hash`),
      transactions: all(sql`SELECT * FROM transactions ORDER BY block_hash, position`),
      events: all(sql`SELECT * FROM events ORDER BY block_hash, position, idx`),
      accounts: all(sql`SELECT * FROM accounts ORDER BY account, chain_id`),
      modules: all(sql`SELECT * FROM modules ORDER BY name, chain_id, block_hash, position`),
    };
  }
}
