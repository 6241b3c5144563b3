/**
 * `PrivateLedgerStore`: what an entity's private state remembers besides
 * its contract state (docs/private.md "Replay" and "Ordering"), in tables
 * of its own inside the same file (`private/<entity>.sqlite`, whose
 * contract-state tables are StateDb's), so one transaction commits a
 * private step together with its bookkeeping and one backup copies both:
 *
 * - `private_envelopes`: the envelopes accepted, by sender and id, with the
 *   sending time (rows older than the replay window are deleted);
 * - `private_steps`: every step of each party set's private chain (chain,
 *   sorted party names): its index, request key, running digest and the
 *   step's time;
 * - `private_parties`: each party set's newest step and digest;
 * - `private_checks`: the newest comparison of each party set's digest with
 *   what another party stated in a signed envelope or receipt.
 *
 * Its schema has a version of its own (`private_ledger_version`), apart
 * from StateDb's `user_version`. Rows are parsed on the way out.
 * @module
 */
import { StoreError, StoreErrorCode } from "./errors.ts";
import { sql } from "./sql.ts";
import type { SqlDatabase } from "./sqlDatabase.ts";

/** The ledger schema this Weft writes. */
const LEDGER_VERSION = 1;

export type PartyHead = {
  readonly chainId: number;
  /** The sorted party names, joined by commas. */
  readonly parties: string;
  /** Steps so far. */
  readonly steps: number;
  /** The running digest after them (unpadded base64url). */
  readonly digest: string;
};

export type PartyStep = {
  readonly chainId: number;
  readonly parties: string;
  /** 1, 2, …: the step's place in the party set's chain. */
  readonly step: number;
  readonly requestKey: string;
  /** The running digest after this step. */
  readonly digest: string;
  /** The step's time (the sender's), µs. */
  readonly timeMicros: number;
};

export type PartyCheckResult = "in-step" | "behind" | "diverged";

export type PartyCheck = {
  readonly chainId: number;
  readonly parties: string;
  /** The other party whose statement was compared. */
  readonly entity: string;
  /** ms since the UNIX epoch. */
  readonly at: number;
  readonly result: PartyCheckResult;
  /** Steps and digest the other party stated. */
  readonly theirSteps: number;
  readonly theirDigest: string;
  /** This node's steps when it compared. */
  readonly ourSteps: number;
};

function rec(path: string, row: unknown): Record<string, unknown> {
  if (typeof row !== "object" || row === null) {
    throw new StoreError(
      { code: StoreErrorCode.Corrupt, path, reason: "a private ledger row is not a row" },
      `${path}: a private ledger row is not a row`,
    );
  }
  return row as Record<string, unknown>;
}

function int(path: string, v: unknown, column: string): number {
  const n = typeof v === "bigint" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isSafeInteger(n)) {
    throw new StoreError(
      { code: StoreErrorCode.Corrupt, path, reason: `${column} is not an integer` },
      `${path}: private ledger: ${column} is not an integer`,
    );
  }
  return n;
}

function str(path: string, v: unknown, column: string): string {
  if (typeof v !== "string") {
    throw new StoreError(
      { code: StoreErrorCode.Corrupt, path, reason: `${column} is not text` },
      `${path}: private ledger: ${column} is not text`,
    );
  }
  return v;
}

const RESULTS: readonly string[] = ["in-step", "behind", "diverged"];

export class PrivateLedgerStore {
  readonly #db: SqlDatabase;
  readonly #path: string;

  private constructor(db: SqlDatabase) {
    this.#db = db;
    this.#path = db.path;
  }

  /**
   * The ledger tables in `db` (created when new).
   * @throws {StoreError} STORE_SCHEMA_TOO_NEW when a newer Weft wrote them.
   */
  static on(db: SqlDatabase): PrivateLedgerStore {
    db.transaction(() => {
      db.exec(sql`
        CREATE TABLE IF NOT EXISTS private_ledger_version (version INTEGER NOT NULL) STRICT;
        CREATE TABLE IF NOT EXISTS private_envelopes (
          sender TEXT NOT NULL,
          id TEXT NOT NULL,
          sent_at INTEGER NOT NULL,
          PRIMARY KEY (sender, id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS private_envelopes_by_time ON private_envelopes (sent_at);
        CREATE TABLE IF NOT EXISTS private_steps (
          chain_id INTEGER NOT NULL,
          parties TEXT NOT NULL,
          step INTEGER NOT NULL,
          request_key TEXT NOT NULL,
          digest TEXT NOT NULL,
          time INTEGER NOT NULL,
          PRIMARY KEY (chain_id, parties, step)
        ) STRICT;
        CREATE UNIQUE INDEX IF NOT EXISTS private_steps_by_key ON private_steps (chain_id, request_key);
        CREATE TABLE IF NOT EXISTS private_parties (
          chain_id INTEGER NOT NULL,
          parties TEXT NOT NULL,
          steps INTEGER NOT NULL,
          digest TEXT NOT NULL,
          PRIMARY KEY (chain_id, parties)
        ) STRICT;
        CREATE TABLE IF NOT EXISTS private_checks (
          chain_id INTEGER NOT NULL,
          parties TEXT NOT NULL,
          entity TEXT NOT NULL,
          at INTEGER NOT NULL,
          result TEXT NOT NULL,
          their_steps INTEGER NOT NULL,
          their_digest TEXT NOT NULL,
          our_steps INTEGER NOT NULL,
          PRIMARY KEY (chain_id, parties, entity)
        ) STRICT;
      `);
      const version = db.get(sql`SELECT max(version) AS v FROM private_ledger_version`, (r) =>
        rec(db.path, r).v === null ? 0 : int(db.path, rec(db.path, r).v, "version"),
      );
      if (version === undefined || version === 0) {
        db.run(sql`INSERT INTO private_ledger_version (version) VALUES (${LEDGER_VERSION})`);
      } else if (version > LEDGER_VERSION) {
        throw new StoreError(
          {
            code: StoreErrorCode.SchemaTooNew,
            path: db.path,
            version,
            supported: LEDGER_VERSION,
          },
          `${db.path}: private ledger version ${version} is newer than this Weft supports (${LEDGER_VERSION}); use a newer Weft`,
        );
      }
    });
    return new PrivateLedgerStore(db);
  }

  // ---- envelopes

  hasEnvelope(sender: string, id: string): boolean {
    return (
      this.#db.get(
        sql`SELECT 1 AS x FROM private_envelopes WHERE sender = ${sender} AND id = ${id}`,
        () => true,
      ) ?? false
    );
  }

  recordEnvelope(sender: string, id: string, sentAtMicros: number): void {
    this.#db.run(
      sql`INSERT INTO private_envelopes (sender, id, sent_at) VALUES (${sender}, ${id}, ${sentAtMicros})`,
    );
  }

  /** Forgets envelopes sent before `micros` (outside the replay window: refused by time). */
  forgetEnvelopesBefore(micros: number): number {
    return this.#db.run(sql`DELETE FROM private_envelopes WHERE sent_at < ${micros}`);
  }

  // ---- steps

  #head = (row: unknown): PartyHead => {
    const r = rec(this.#path, row);
    return {
      chainId: int(this.#path, r.chain_id, "chain_id"),
      parties: str(this.#path, r.parties, "parties"),
      steps: int(this.#path, r.steps, "steps"),
      digest: str(this.#path, r.digest, "digest"),
    };
  };

  #step = (row: unknown): PartyStep => {
    const r = rec(this.#path, row);
    return {
      chainId: int(this.#path, r.chain_id, "chain_id"),
      parties: str(this.#path, r.parties, "parties"),
      step: int(this.#path, r.step, "step"),
      requestKey: str(this.#path, r.request_key, "request_key"),
      digest: str(this.#path, r.digest, "digest"),
      timeMicros: int(this.#path, r.time, "time"),
    };
  };

  /** The party set's newest step, or undefined before its first. */
  head(chainId: number, parties: string): PartyHead | undefined {
    return this.#db.get(
      sql`SELECT chain_id, parties, steps, digest FROM private_parties
          WHERE chain_id = ${chainId} AND parties = ${parties}`,
      this.#head,
    );
  }

  /** Step `step` (1, 2, …) of the party set's chain. */
  stepAt(chainId: number, parties: string, step: number): PartyStep | undefined {
    return this.#db.get(
      sql`SELECT chain_id, parties, step, request_key, digest, time FROM private_steps
          WHERE chain_id = ${chainId} AND parties = ${parties} AND step = ${step}`,
      this.#step,
    );
  }

  /** The step that ran `requestKey` on `chainId`. */
  stepOf(chainId: number, requestKey: string): PartyStep | undefined {
    return this.#db.get(
      sql`SELECT chain_id, parties, step, request_key, digest, time FROM private_steps
          WHERE chain_id = ${chainId} AND request_key = ${requestKey}`,
      this.#step,
    );
  }

  /** Appends a step and makes it the party set's head. */
  insertStep(s: PartyStep): void {
    this.#db.run(
      sql`INSERT INTO private_steps (chain_id, parties, step, request_key, digest, time)
          VALUES (${s.chainId}, ${s.parties}, ${s.step}, ${s.requestKey}, ${s.digest}, ${s.timeMicros})`,
    );
    this.#db.run(
      sql`INSERT INTO private_parties (chain_id, parties, steps, digest)
          VALUES (${s.chainId}, ${s.parties}, ${s.step}, ${s.digest})
          ON CONFLICT (chain_id, parties) DO UPDATE SET steps = excluded.steps, digest = excluded.digest`,
    );
  }

  /** Every party set's head, by chain and parties. */
  heads(): PartyHead[] {
    return this.#db.all(
      sql`SELECT chain_id, parties, steps, digest FROM private_parties ORDER BY chain_id, parties`,
      this.#head,
    );
  }

  // ---- checks

  setCheck(c: PartyCheck): void {
    this.#db.run(
      sql`INSERT INTO private_checks
            (chain_id, parties, entity, at, result, their_steps, their_digest, our_steps)
          VALUES (${c.chainId}, ${c.parties}, ${c.entity}, ${c.at}, ${c.result},
                  ${c.theirSteps}, ${c.theirDigest}, ${c.ourSteps})
          ON CONFLICT (chain_id, parties, entity) DO UPDATE SET
            at = excluded.at, result = excluded.result, their_steps = excluded.their_steps,
            their_digest = excluded.their_digest, our_steps = excluded.our_steps`,
    );
  }

  checks(): PartyCheck[] {
    return this.#db.all(
      sql`SELECT chain_id, parties, entity, at, result, their_steps, their_digest, our_steps
          FROM private_checks ORDER BY chain_id, parties, entity`,
      (row) => {
        const r = rec(this.#path, row);
        const result = str(this.#path, r.result, "result");
        if (!RESULTS.includes(result)) {
          throw new StoreError(
            { code: StoreErrorCode.Corrupt, path: this.#path, reason: "result" },
            `${this.#path}: private ledger: result ${JSON.stringify(result)}`,
          );
        }
        return {
          chainId: int(this.#path, r.chain_id, "chain_id"),
          parties: str(this.#path, r.parties, "parties"),
          entity: str(this.#path, r.entity, "entity"),
          at: int(this.#path, r.at, "at"),
          result: result as PartyCheckResult,
          theirSteps: int(this.#path, r.their_steps, "their_steps"),
          theirDigest: str(this.#path, r.their_digest, "their_digest"),
          ourSteps: int(this.#path, r.our_steps, "our_steps"),
        };
      },
    );
  }
}
