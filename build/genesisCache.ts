/**
 * Precomputes the genesis transactions of every network the node runs, for the compiled node
 * (src-node/genesis/precomputedGenesis.ts reads them): `dist/src-node/genesis/payloads/`.
 * Runs the same sources that were just compiled; build/compileNode.ts deletes the folder
 * whenever the compiled code changes, and `npm run build` then writes it again.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { NetworkVersion } from "../src-node/chain/networkVersion.ts";
import {
  developmentVersion,
  mainnet01Version,
  testnet04Version,
  testSingletonVersion,
} from "../src-node/chain/versions.ts";
import { createMemoryStorage } from "../src-node/contract/storage/memoryStorage.ts";
import type { PrecomputedGenesisFile } from "../src-node/genesis/precomputedGenesis.ts";
import { runGenesis } from "../src-node/genesis/runGenesis.ts";

/** The networks `weft node --network` takes. */
export const PRECOMPUTED_NETWORKS: readonly NetworkVersion[] = [
  developmentVersion,
  testnet04Version,
  mainnet01Version,
  testSingletonVersion,
];

/** The folder, relative to the repository. */
export const GENESIS_CACHE_DIR = "dist/src-node/genesis/payloads";

/** A network's file (relative to the repository). */
export function genesisCacheFile(network: string): string {
  return `${GENESIS_CACHE_DIR}/${network}.json`;
}

export function genesisCacheComplete(repo: string): boolean {
  return PRECOMPUTED_NETWORKS.every((v) => existsSync(join(repo, genesisCacheFile(v.name))));
}

/** The file of one network, as runGenesis computes it now. */
export function genesisFileOf(version: NetworkVersion): PrecomputedGenesisFile {
  const chains: Record<string, (readonly [string, string])[]> = {};
  for (const chainId of version.chainIds) {
    chains[String(chainId)] = runGenesis(version, chainId, createMemoryStorage()).map(
      (r) => [r.commandJson, r.resultJson] as const,
    );
  }
  return { network: version.name, chains };
}

/** Writes every network's file (each through a temporary name, so none is ever half written). */
export function writeGenesisCache(repo: string): void {
  for (const version of PRECOMPUTED_NETWORKS) {
    const file = join(repo, genesisCacheFile(version.name));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(genesisFileOf(version)));
    renameSync(`${file}.tmp`, file);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeGenesisCache(fileURLToPath(new URL("..", import.meta.url)));
}
