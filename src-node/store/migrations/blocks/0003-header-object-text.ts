/**
 * blocks.sqlite version 3: `headers.header_object`, each header's object
 * encoding as JSON text (store/headerObjectText.ts), kept beside the binary
 * header so header pages join stored texts instead of decoding and encoding
 * every header (issue 23). Existing rows are filled from their binary
 * headers here; the store writes the text with every new header.
 * @module
 */

import { headerFromBlob } from "../../blockRows.ts";
import { headerObjectText } from "../../headerObjectText.ts";
import type { Migration } from "../../migration.ts";
import { sql } from "../../sql.ts";

export const migration0003: Migration = {
  version: 3,
  name: "header-object-text",
  up(db) {
    db.exec(sql`ALTER TABLE headers ADD COLUMN header_object TEXT`);
    // In batches by rowid: a large chain's texts never sit in memory at once.
    let after = 0;
    for (;;) {
      const rows = db.all(
        sql`SELECT rowid AS id, header FROM headers WHERE rowid > ${after} ORDER BY rowid LIMIT 2000`,
        (r) => {
          const o = r as { id: unknown; header: unknown };
          return { id: Number(o.id), text: headerObjectText(headerFromBlob(o.header)) };
        },
      );
      for (const r of rows) {
        db.run(sql`UPDATE headers SET header_object = ${r.text} WHERE rowid = ${r.id}`);
      }
      const last = rows[rows.length - 1];
      if (last === undefined) break;
      after = last.id;
    }
  },
};
