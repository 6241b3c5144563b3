/**
 * The migrations of index.sqlite, in order. Add a file
 * `migrations/index/NNNN-name.ts` and append it here; never edit or remove one.
 * @module
 */
import type { Migration } from "./migration.ts";
import { indexMigration0001 } from "./migrations/index/0001-index-tables.ts";

export const indexMigrations: readonly Migration[] = [indexMigration0001];
