/**
 * Numbered schema migrations on `PRAGMA user_version`. Migration N lives in a
 * file `NNNN-name.ts`; {@link runMigrations} applies, in order, every
 * migration above the database's version, each with its `PRAGMA
 * user_version = N` in one transaction, so a crash leaves the database at a
 * whole version. A shipped migration is never edited; a change is a new one.
 * @module
 */
import { StoreError, StoreErrorCode, storeInvariant } from "./errors.ts";
import type { SqlDatabase } from "./sqlDatabase.ts";

export type Migration = {
  /** 1, 2, 3, … without gaps. */
  readonly version: number;
  readonly name: string;
  up(db: SqlDatabase): void;
};

/**
 * Brings the database to the latest version of `migrations`.
 * @returns the versions applied (empty when already current).
 * @throws {StoreError} STORE_SCHEMA_TOO_NEW when the database was written by a newer Weft.
 */
export function runMigrations(db: SqlDatabase, migrations: readonly Migration[]): number[] {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) storeInvariant(`migration ${m.name} has version ${m.version}`);
  });
  const latest = migrations.length;
  const current = db.userVersion();
  if (current > latest) {
    throw new StoreError(
      { code: StoreErrorCode.SchemaTooNew, path: db.path, version: current, supported: latest },
      `${db.path}: schema version ${current} is newer than this Weft supports (${latest}); use a newer Weft`,
    );
  }
  const applied: number[] = [];
  for (const m of migrations.slice(current)) {
    db.transaction(() => {
      m.up(db);
      db.setUserVersion(m.version);
    });
    applied.push(m.version);
  }
  return applied;
}
