/**
 * blocks.sqlite version 4: each header's page texts in a table of their
 * own, `header_texts`, clustered in page order (a WITHOUT ROWID table keyed
 * by chain, height and hash): the object encoding's JSON text (moved from
 * `headers.header_object`, version 3) and the base64url encoding's JSON
 * text (the quoted base64url of the binary header). A page of 360 headers
 * then reads its texts from some 70 consecutive pages of that table instead
 * of 360 `headers` rows on 360 scattered pages (a chain's rows are every
 * tenth row of `headers`, in the order blocks arrived), and SQLite joins
 * them into the page's one value (issue 23). Existing rows are filled here
 * from their binary headers (the object text is kept when stored), in key
 * order so the table's pages are written full; the store writes both texts
 * with every new header, in the header's own insert.
 * @module
 */

import { blobValue, headerFromBlob, integerValue } from "../../blockRows.ts";
import { headerBase64Text } from "../../headerBase64Text.ts";
import { headerObjectText } from "../../headerObjectText.ts";
import type { Migration } from "../../migration.ts";
import { sql } from "../../sql.ts";

const BATCH = 2000;

type Key = { readonly chainId: number; readonly height: number; readonly hash: Buffer };

export const migration0004: Migration = {
  version: 4,
  name: "header-texts",
  up(db) {
    db.exec(sql`
      CREATE TABLE header_texts (
        chain_id INTEGER NOT NULL,
        height INTEGER NOT NULL,
        hash BLOB NOT NULL,
        object_json TEXT NOT NULL,
        base64_json TEXT NOT NULL,
        PRIMARY KEY (chain_id, height, hash)
      ) STRICT, WITHOUT ROWID;
    `);
    // In batches in key order: a large chain's texts never sit in memory at once.
    let after: Key = { chainId: -1, height: 0, hash: Buffer.alloc(0) };
    for (;;) {
      const rows = db.all(
        sql`SELECT chain_id, height, hash, header, header_object FROM headers
            WHERE (chain_id, height, hash) > (${after.chainId}, ${after.height}, ${after.hash})
            ORDER BY chain_id, height, hash LIMIT ${BATCH}`,
        (r) => {
          const o = r as Record<string, unknown>;
          const header = blobValue(o.header, "header");
          return {
            chainId: integerValue(o.chain_id, "chain_id"),
            height: integerValue(o.height, "height"),
            hash: blobValue(o.hash, "hash"),
            object:
              typeof o.header_object === "string"
                ? o.header_object
                : headerObjectText(headerFromBlob(header)),
            base64: headerBase64Text(header),
          };
        },
      );
      for (const r of rows) {
        db.run(
          sql`INSERT INTO header_texts (chain_id, height, hash, object_json, base64_json)
              VALUES (${r.chainId}, ${r.height}, ${r.hash}, ${r.object}, ${r.base64})`,
        );
      }
      const last = rows[rows.length - 1];
      if (last === undefined) break;
      after = last;
    }
    db.exec(sql`ALTER TABLE headers DROP COLUMN header_object`);
  },
};
