/**
 * Genesis transaction texts precomputed by the build (`npm run build`, build/genesisCache.ts):
 * for each network the node runs, each chain's genesis commands and their results as
 * `runGenesis` produces them, in `payloads/<network>.json` beside the compiled module.
 * Running the genesis of twenty chains dominates a node's start; the build runs it once with
 * the very code it compiles, and deletes these files whenever that code changes.
 *
 * Only compiled code reads them: from the TypeScript sources (tests, `npm run dev`) there
 * is no such folder, and genesis is always computed. A file that does not parse is ignored.
 * @module
 */
import { existsSync, readFileSync } from "node:fs";

/** One genesis transaction: the payload's transaction and output texts. */
export type GenesisText = { readonly commandJson: string; readonly resultJson: string };

/** The file's form: `{network, chains: {"<chainId>": [[commandJson, resultJson], …]}}`. */
export type PrecomputedGenesisFile = {
  readonly network: string;
  readonly chains: Readonly<Record<string, readonly (readonly [string, string])[]>>;
};

const COMPILED = import.meta.url.endsWith(".js");
const loaded = new Map<string, ReadonlyMap<number, readonly GenesisText[]> | null>();

/** Where the build writes a network's file, relative to this module. */
export function precomputedGenesisUrl(network: string): URL {
  return new URL(`./payloads/${network}.json`, import.meta.url);
}

/** Parses a file's text; null when it is not of the expected form or network. */
export function parsePrecomputedGenesis(
  text: string,
  network: string,
): ReadonlyMap<number, readonly GenesisText[]> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const file = value as Partial<PrecomputedGenesisFile>;
  if (file.network !== network || typeof file.chains !== "object" || file.chains === null) {
    return null;
  }
  const out = new Map<number, readonly GenesisText[]>();
  for (const [key, txs] of Object.entries(file.chains)) {
    const chainId = Number(key);
    if (!Number.isInteger(chainId) || chainId < 0 || String(chainId) !== key) return null;
    if (!Array.isArray(txs)) return null;
    const texts: GenesisText[] = [];
    for (const tx of txs as unknown[]) {
      if (!Array.isArray(tx) || tx.length !== 2) return null;
      const [commandJson, resultJson] = tx as unknown[];
      if (typeof commandJson !== "string" || typeof resultJson !== "string") return null;
      texts.push({ commandJson, resultJson });
    }
    out.set(chainId, texts);
  }
  return out;
}

/** The precomputed genesis texts of `chainId` on `network`, or undefined (compute them). */
export function precomputedGenesis(
  network: string,
  chainId: number,
): readonly GenesisText[] | undefined {
  if (!COMPILED) return undefined;
  let chains = loaded.get(network);
  if (chains === undefined) {
    const url = precomputedGenesisUrl(network);
    chains = existsSync(url) ? parsePrecomputedGenesis(readFileSync(url, "utf8"), network) : null;
    loaded.set(network, chains);
  }
  return chains?.get(chainId);
}
