/**
 * Reading a copy of blocks.sqlite (a backup, or a restored file before it is
 * put in place): its network and its best cut, from the copy itself, and the
 * checks restore makes on it (the network, a stored cut whose blocks exist and
 * are braided).
 * @module
 */
import { type Cut, cutOf } from "../chain/cut.ts";
import { cutBraidingProblems } from "../chain/cutBraiding.ts";
import { type CutJson, cutToJson } from "../chain/cutJson.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import { BlockStore } from "../store/blockStore.ts";
import type { CopyDescription } from "./backupDatabase.ts";
import { BackupError, BackupErrorCode } from "./errors.ts";

export type BlocksCopy = { readonly network: string | undefined; readonly cut: CutJson };

function integrityFailed(path: string, reason: string): BackupError {
  return new BackupError(
    { code: BackupErrorCode.IntegrityFailed, path, reason },
    `${path}: ${reason}`,
  );
}

function storedCut(store: BlockStore, path: string): Cut {
  const heads = store.cutHeads().map((row) => {
    const h = store.header(row.hash);
    if (h === undefined || h.chainId !== row.chainId) {
      throw integrityFailed(path, `the cut names a missing block on chain ${row.chainId}`);
    }
    return h;
  });
  if (heads.length === 0) throw integrityFailed(path, "no cut stored");
  return cutOf(heads);
}

/**
 * The network and best cut a copy of blocks.sqlite holds.
 * @param expectedNetwork checked first, when given.
 * @throws {BackupError} BACKUP_WRONG_NETWORK when the copy is of another
 *   network than `expectedNetwork`; BACKUP_INTEGRITY_FAILED when its cut
 *   names missing blocks or is not braided; StoreError when it is not a
 *   block database.
 */
export function readBlocksCopy(
  path: string,
  version: NetworkVersion,
  expectedNetwork?: string,
): BlocksCopy {
  const store = BlockStore.open(path);
  try {
    const network = store.meta("network");
    if (expectedNetwork !== undefined && network !== expectedNetwork) {
      throw new BackupError(
        {
          code: BackupErrorCode.WrongNetwork,
          path,
          expected: expectedNetwork,
          actual: String(network),
        },
        `${path}: holds the blocks of network ${String(network)}, the manifest says ${expectedNetwork}`,
      );
    }
    const cut = storedCut(store, path);
    const [problem] = cutBraidingProblems(cut, version);
    if (problem !== undefined) {
      throw integrityFailed(path, `the stored cut is not braided: ${problem}`);
    }
    return { network, cut: cutToJson(cut, version) };
  } finally {
    store.close();
  }
}

/** The manifest's description of a block database copy: its cut. */
export function describeBlocksCopy(version: NetworkVersion): (path: string) => CopyDescription {
  return (path) => {
    const { cut } = readBlocksCopy(path, version);
    return { heads: cut.hashes, cut };
  };
}
