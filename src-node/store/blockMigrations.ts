/**
 * The migrations of blocks.sqlite, in order. Add a file
 * `migrations/blocks/NNNN-name.ts` and append it here; never edit or remove one.
 * @module
 */
import type { Migration } from "./migration.ts";
import { migration0001 } from "./migrations/blocks/0001-block-tables.ts";
import { migration0002 } from "./migrations/blocks/0002-payload-transactions-rowid.ts";
import { migration0003 } from "./migrations/blocks/0003-header-object-text.ts";
import { migration0004 } from "./migrations/blocks/0004-header-texts.ts";
import { migration0005 } from "./migrations/blocks/0005-signer-addresses.ts";

export const blockMigrations: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
];
