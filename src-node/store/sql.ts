/**
 * The `sql` tagged template: the only way SQL text is written in the node.
 * Every interpolation becomes a bound `?` parameter, never text, so values
 * cannot change a statement. The template's string parts identify the
 * statement, so {@link SqlDatabase} prepares each call site once.
 *
 * @example
 *   db.get(sql`SELECT header FROM headers WHERE hash = ${hash}`, headerRow)
 * @module
 */

/** What a statement parameter may be (better-sqlite3's bindable values). */
export type SqlValue = number | bigint | string | Uint8Array | null;

export type SqlQuery = {
  /** The literal parts; the same array object for every evaluation of one call site. */
  readonly strings: TemplateStringsArray;
  readonly values: readonly SqlValue[];
};

export function sql(strings: TemplateStringsArray, ...values: SqlValue[]): SqlQuery {
  return { strings, values };
}

/** The statement text with `?` for every parameter. */
export function sqlText(query: SqlQuery): string {
  return query.strings.join("?");
}
