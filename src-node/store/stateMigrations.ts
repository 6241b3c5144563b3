/**
 * The migrations of state.sqlite, in order. Add a file
 * `migrations/state/NNNN-name.ts` and append it here; never edit or remove one.
 * @module
 */
import type { Migration } from "./migration.ts";
import { stateMigration0001 } from "./migrations/state/0001-state-tables.ts";
import { stateMigration0002 } from "./migrations/state/0002-compaction.ts";

export const stateMigrations: readonly Migration[] = [stateMigration0001, stateMigration0002];
