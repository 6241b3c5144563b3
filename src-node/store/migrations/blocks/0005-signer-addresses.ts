/**
 * blocks.sqlite version 5: no schema change, a one-time check of the stored
 * blocks. Weft before issue 31 accepted a command whose signer named another
 * key in `addr` and let that signature count for the other key's accounts,
 * so a development chain may hold a block that moved coins nobody signed
 * for. Such a chain is not kept: this migration reads every stored
 * transaction that mentions `addr` (a byte search in SQLite, so the others
 * are not decoded) and, at the first signer whose `addr` is not its `pubKey`
 * (the same text: the rule of command/verifySignatures.ts `signerAddressError`,
 * restated here because the store does not depend on the command model), fails
 * with STORE_INVALID_BLOCK
 * naming the chain, height and hash of a block holding it. The migration's
 * transaction rolls back, the file stays at version 4 and the node does not
 * start: the user restores a backup from before that block (`weft restore`)
 * or removes the data folder. A clean file passes once and is never read
 * again for this. Only this rule is applied retroactively: it is the one
 * whose absence let state change without its owner's signature.
 * @module
 */
import { hash32FromBytes } from "../../../encoding/hash32.ts";
import { blobValue, integerValue } from "../../blockRows.ts";
import { StoreError, StoreErrorCode } from "../../errors.ts";
import type { Migration } from "../../migration.ts";
import { sql } from "../../sql.ts";
import type { SqlDatabase } from "../../sqlDatabase.ts";

const BATCH = 500;

type Row = {
  readonly id: number;
  readonly payloadHash: Buffer;
  readonly position: number;
  readonly text: string;
};

function objectOf(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : null;
}

/** The first signer of a stored transaction's text whose `addr` is not its `pubKey`, in words. */
function impersonation(text: string): string | null {
  let cmdText: unknown;
  let signers: unknown;
  try {
    cmdText = objectOf(JSON.parse(text))?.cmd;
    signers = typeof cmdText === "string" ? objectOf(JSON.parse(cmdText))?.signers : undefined;
  } catch {
    // Not this check's business: the block was validated when it was stored.
    return null;
  }
  if (!Array.isArray(signers)) return null;
  for (const [i, s] of signers.entries()) {
    const o = objectOf(s);
    if (o === null || typeof o.pubKey !== "string" || typeof o.addr !== "string") continue;
    if (o.addr !== o.pubKey) {
      return `cmd.signers[${i}].addr: the address does not match the signer's public key: addr ${o.addr}, pubKey ${o.pubKey}`;
    }
  }
  return null;
}

/** The block (lowest chain and height) whose payload holds `row`; none for a payload no header names. */
function blockOf(db: SqlDatabase, row: Row) {
  return db.get(
    sql`SELECT chain_id, height, hash FROM headers WHERE payload_hash = ${row.payloadHash}
        ORDER BY chain_id, height LIMIT 1`,
    (r) => {
      const o = r as Record<string, unknown>;
      return {
        chainId: integerValue(o.chain_id, "chain_id"),
        height: integerValue(o.height, "height"),
        hash: hash32FromBytes(blobValue(o.hash, "hash")),
      };
    },
  );
}

function invalidBlock(db: SqlDatabase, row: Row, reason: string): StoreError | null {
  const block = blockOf(db, row);
  // A payload no header names belongs to no chain: nothing to refuse.
  if (block === undefined) return null;
  return new StoreError(
    { code: StoreErrorCode.InvalidBlock, path: db.path, ...block, reason },
    `${db.path}: block ${block.hash} (chain ${block.chainId}, height ${block.height}) is not valid: its transaction ${row.position} has a signer whose signature counted for another key (${reason}). An older Weft accepted it; this one does not keep such a chain. Restore a backup made before that block (weft restore) or remove the data folder, then start the node again to sync.`,
  );
}

export const migration0005: Migration = {
  version: 5,
  name: "signer-addresses",
  up(db) {
    let after = 0;
    for (;;) {
      const rows = db.all(
        sql`SELECT id, payload_hash, position, transaction_bytes FROM payload_transactions
            WHERE id > ${after} AND instr(transaction_bytes, X'61646472') > 0
            ORDER BY id LIMIT ${BATCH}`,
        (r): Row => {
          const o = r as Record<string, unknown>;
          return {
            id: integerValue(o.id, "id"),
            payloadHash: blobValue(o.payload_hash, "payload_hash"),
            position: integerValue(o.position, "position"),
            text: blobValue(o.transaction_bytes, "transaction_bytes").toString("utf8"),
          };
        },
      );
      for (const row of rows) {
        const reason = impersonation(row.text);
        const error = reason === null ? null : invalidBlock(db, row, reason);
        if (error !== null) throw error;
      }
      const last = rows[rows.length - 1];
      if (last === undefined) return;
      after = last.id;
    }
  },
};
