/**
 * The migrations of mempool.sqlite, in order. Add a file
 * `migrations/mempool/NNNN-name.ts` and append it here; never edit or remove one.
 * @module
 */
import type { Migration } from "./migration.ts";
import { mempoolMigration0001 } from "./migrations/mempool/0001-pending-commands.ts";

export const mempoolMigrations: readonly Migration[] = [mempoolMigration0001];
