/**
 * The contract storage implementations every `.repl` file runs against. The
 * in-memory store is the reference; its serializing variant stores every row
 * and record as text through the lossless codec, as a database does. The
 * execution area adds its SQLite implementation here so the same scripts pin
 * its behaviour.
 */
import type { StorageFactory } from "../../src-node/contract/repl/replSession.ts";
import { createMemoryStorage } from "../../src-node/contract/storage/memoryStorage.ts";
import { NO_TXID_LIMIT, StateDb } from "../../src-node/store/stateDb.ts";

export type StorageImplementation = { readonly name: string; readonly create: StorageFactory };

export const storageImplementations: readonly StorageImplementation[] = [
  { name: "memory", create: () => createMemoryStorage() },
  { name: "memory-serialized", create: () => createMemoryStorage({ serialize: true }) },
  {
    // state.sqlite's storage (src-node/store/sqliteContractStorage.ts) on a throw-away database.
    name: "sqlite",
    create: () =>
      StateDb.open({ path: ":memory:" }).storage(0, {
        readLimit: NO_TXID_LIMIT,
        writeHeight: 0,
        nextTxId: 0,
      }),
  },
];
