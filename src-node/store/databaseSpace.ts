/**
 * What a database's tables take on disk (SQLite's `dbstat`): per table or
 * index, the pages it uses (overflow pages included) and the bytes of its
 * rows. The storage benchmark reports from it; a node can log it.
 * @module
 */
import { sql } from "./sql.ts";
import type { SqlDatabase } from "./sqlDatabase.ts";

/** One table's or index's space: `bytes` on disk, `payload` of its cells, `overflowPages`. */
export type ObjectSpace = {
  readonly bytes: number;
  readonly payload: number;
  readonly overflowPages: number;
};

function num(v: unknown): number {
  return typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : 0;
}

/** Space per table and index name, plus the file's page size and page count. */
export function databaseSpace(db: SqlDatabase): {
  readonly objects: ReadonlyMap<string, ObjectSpace>;
  readonly pageSize: number;
  readonly pageCount: number;
  readonly freePages: number;
} {
  const rows = db.all(
    sql`SELECT name, sum(pgsize) AS bytes, sum(payload) AS payload,
               sum(pagetype = 'overflow') AS overflow
        FROM dbstat GROUP BY name`,
    (r) => r as Record<string, unknown>,
  );
  const objects = new Map<string, ObjectSpace>();
  for (const r of rows) {
    objects.set(String(r.name), {
      bytes: num(r.bytes),
      payload: num(r.payload),
      overflowPages: num(r.overflow),
    });
  }
  const pragma = (q: "page_size" | "page_count" | "freelist_count"): number =>
    num(
      db.get(
        q === "page_size"
          ? sql`SELECT page_size AS v FROM pragma_page_size`
          : q === "page_count"
            ? sql`SELECT page_count AS v FROM pragma_page_count`
            : sql`SELECT freelist_count AS v FROM pragma_freelist_count`,
        (r) => (r as { v: unknown }).v,
      ),
    );
  return {
    objects,
    pageSize: pragma("page_size"),
    pageCount: pragma("page_count"),
    freePages: pragma("freelist_count"),
  };
}
