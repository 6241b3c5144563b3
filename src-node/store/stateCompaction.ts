/**
 * Compaction of a chain's contract-state history (state.sqlite), in bounded
 * steps: below a horizon block the state keeps only the newest version of
 * each row, so state.sqlite grows with the live state instead of with
 * history. The policy (which horizon, when, how often) is the caller's
 * (exec/stateCompactor.ts); this file owns the SQL.
 *
 * A round compacts against one horizon block H (end transaction id E):
 * {@link beginCompaction} records H first, so from then on the state counts
 * as exact only at heights ≥ H (/local below refuses, a rewind below starts
 * the chain again). Each {@link compactionStep} then takes the next chunk of
 * versions written in [cursor, E) (at most `maxRows`, by the index on
 * transaction ids) and, for every row they wrote, deletes its versions below
 * the chunk's end except its newest version below E. By induction, once the
 * cursor reaches E every row keeps exactly one version below E, which is
 * what any read bounded at or above E sees. A step deletes at most the
 * chunk's rows plus one older version per row, whatever the history's size.
 * After the round, steps delete the `state_blocks` rows between the chain's
 * genesis (always kept: it anchors the state) and H.
 *
 * Every step is one SQLite transaction that also moves the cursor, so a
 * crash leaves either the step done or nothing of it; the next run goes on
 * from the recorded cursor. Reads at E or above see the same values before,
 * during and after a round.
 *
 * Not kept below H: the history `txids`, `txlog` and `keylog` read (they run
 * in /local only, DisableHistoryInTransactionalMode), and the state of the
 * blocks between genesis and H. Kept: the results by request key (/poll at
 * any depth, duplicate checks, SPV), user tables, the genesis block's row.
 * @module
 */
import { StoreError, StoreErrorCode } from "./errors.ts";
import { sql } from "./sql.ts";
import type { StateDb } from "./stateDb.ts";

export type CompactionStep = {
  /** Row versions and held-block rows deleted by the step. */
  readonly deleted: number;
  /** True when the chain has more to do for its current horizon. */
  readonly more: boolean;
};

/** Test hooks: `beforeCommit` runs inside a step's transaction (a throw rolls the step back). */
export type CompactionHooks = { readonly beforeCommit?: (() => void) | undefined };

/**
 * Starts a round of `chainId` towards the block the state holds at
 * `height`. Refused (false) while a round is unfinished, when `height` is
 * not above the current horizon, or when no block is held there.
 */
export function beginCompaction(state: StateDb, chainId: number, height: number): boolean {
  return state.transaction(() => {
    const current = state.compaction(chainId);
    if (current !== undefined) {
      if (current.cursorTxId < current.horizonEndTxId) return false;
      if (height <= current.horizonHeight) return false;
    }
    const block = state.blockAt(chainId, height);
    const head = state.head(chainId);
    if (block === undefined || head === undefined || height >= head.height) return false;
    state.setCompaction({
      chainId,
      horizonHeight: height,
      horizonEndTxId: block.endTxId,
      // The previous round left one version per row below its horizon.
      cursorTxId: current?.horizonEndTxId ?? 0,
    });
    return true;
  });
}

type RowId = { readonly tbl: string; readonly key: string; readonly txid: number };

function corrupt(state: StateDb, reason: string): never {
  throw new StoreError(
    { code: StoreErrorCode.Corrupt, path: state.path, reason },
    `${state.path}: ${reason}`,
  );
}

function rowIdOf(state: StateDb): (row: unknown) => RowId {
  return (row) => {
    const r = row as { tbl: unknown; key: unknown; txid: unknown };
    if (typeof r.tbl !== "string" || typeof r.key !== "string" || !Number.isSafeInteger(r.txid)) {
      corrupt(state, "a version row without tbl, key or txid");
    }
    return { tbl: r.tbl, key: r.key, txid: r.txid as number };
  };
}

/** One bounded step of `chainId`'s round (see the module comment). */
export function compactionStep(
  state: StateDb,
  chainId: number,
  maxRows: number,
  hooks: CompactionHooks = {},
): CompactionStep {
  const db = state.db;
  return state.transaction(() => {
    const c = state.compaction(chainId);
    if (c === undefined) return { deleted: 0, more: false };
    const end = c.horizonEndTxId;
    let deleted = 0;
    if (c.cursorTxId < end) {
      const rows = db.all(
        sql`SELECT tbl, key, txid FROM versions
            WHERE chain_id = ${chainId} AND txid >= ${c.cursorTxId} AND txid < ${end}
            ORDER BY txid LIMIT ${maxRows}`,
        rowIdOf(state),
      );
      // Rows below `upTo` are all in this chunk; the cursor moves there.
      let upTo = end;
      let chunk = rows;
      const last = rows[rows.length - 1];
      if (rows.length === maxRows && last !== undefined) {
        if (last.txid > c.cursorTxId) {
          // The last transaction may be cut: it is taken whole next time.
          upTo = last.txid;
          chunk = rows.filter((r) => r.txid < upTo);
        } else {
          // One transaction wrote more than a chunk: taken whole (its writes are bounded by gas).
          upTo = c.cursorTxId + 1;
          chunk = db.all(
            sql`SELECT tbl, key, txid FROM versions
                WHERE chain_id = ${chainId} AND txid = ${c.cursorTxId}`,
            rowIdOf(state),
          );
        }
      }
      const seen = new Set<string>();
      for (const r of chunk) {
        const id = `${r.tbl}\u0000${r.key}`;
        if (seen.has(id)) continue;
        seen.add(id);
        deleted += db.run(
          sql`DELETE FROM versions
              WHERE chain_id = ${chainId} AND tbl = ${r.tbl} AND key = ${r.key} AND txid < ${upTo}
                AND (txid, seq) < (
                  SELECT txid, seq FROM versions
                  WHERE chain_id = ${chainId} AND tbl = ${r.tbl} AND key = ${r.key}
                    AND txid < ${end}
                  ORDER BY txid DESC, seq DESC LIMIT 1)`,
        );
      }
      state.setCompaction({ ...c, cursorTxId: upTo });
      hooks.beforeCommit?.();
      return { deleted, more: true };
    }
    // The round is over: the blocks between genesis and the horizon are no longer held.
    const next = db.get(
      sql`SELECT height FROM state_blocks
          WHERE chain_id = ${chainId} AND height < ${c.horizonHeight}
            AND height > (SELECT min(height) FROM state_blocks WHERE chain_id = ${chainId})
          ORDER BY height LIMIT 1`,
      (row) => {
        const h = (row as { height: unknown }).height;
        if (!Number.isSafeInteger(h)) corrupt(state, "a state_blocks height is not an integer");
        return h as number;
      },
    );
    if (next === undefined) return { deleted: 0, more: false };
    const below = Math.min(c.horizonHeight, next + maxRows);
    deleted += db.run(
      sql`DELETE FROM state_blocks
          WHERE chain_id = ${chainId} AND height >= ${next} AND height < ${below}`,
    );
    hooks.beforeCommit?.();
    return { deleted, more: below < c.horizonHeight };
  });
}
