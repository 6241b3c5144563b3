/**
 * Reading a copy of state.sqlite (the contract state) for the manifest: per
 * chain, the newest block whose execution the copy holds. A restored node
 * serves the state after those blocks, and executes any later blocks of the
 * restored block database on top.
 * @module
 */
import type { NetworkVersion } from "../chain/networkVersion.ts";
import { StateDb } from "../store/stateDb.ts";
import type { CopyDescription } from "./backupDatabase.ts";
import type { ChainHeads } from "./backupManifest.ts";

/** The newest block per chain a copy of state.sqlite holds (chains without any are left out). */
export function readStateHeads(path: string, version: NetworkVersion): ChainHeads {
  const state = StateDb.open({ path });
  try {
    const heads: Record<string, { height: number; hash: string }> = {};
    for (const chainId of version.chainIds) {
      const b = state.head(chainId);
      if (b !== undefined) heads[String(chainId)] = { height: b.height, hash: b.hash };
    }
    return heads;
  } finally {
    state.close();
  }
}

/** The manifest's description of a contract-state copy. */
export function describeStateCopy(version: NetworkVersion): (path: string) => CopyDescription {
  return (path) => ({ heads: readStateHeads(path, version) });
}
