/**
 * The genesis payloads of a network: for each chain, the payload
 * (chain/genesisPayload.ts) holding its genesis transactions with their
 * outputs, computed by running them on an in-memory contract storage. A
 * payload's hash is in the chain's genesis header, so these define the
 * network's genesis hashes.
 *
 * Computed once per network per process, on first use (every chain at
 * once), and kept: the node asks for them each time it opens its block
 * database.
 * @module
 */
import { buildGenesisPayload } from "../chain/genesisPayload.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import type { PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import { createMemoryStorage } from "../contract/storage/memoryStorage.ts";
import { precomputedGenesis } from "./precomputedGenesis.ts";
import { runGenesis } from "./runGenesis.ts";

const encoder = new TextEncoder();
const cache = new Map<string, ReadonlyMap<number, PayloadWithOutputs>>();

/**
 * The genesis payload of one chain, computed from a fresh storage, or, in compiled code,
 * from the texts the build precomputed with the same code (precomputedGenesis.ts).
 */
export function computeGenesisPayload(
  version: NetworkVersion,
  chainId: number,
): PayloadWithOutputs {
  const results =
    precomputedGenesis(version.name, chainId) ??
    runGenesis(version, chainId, createMemoryStorage());
  return buildGenesisPayload(
    results.map((r) => ({
      transaction: encoder.encode(r.commandJson),
      output: encoder.encode(r.resultJson),
    })),
  );
}

/** Every chain's genesis payload (cached per network name). */
export function genesisPayloads(version: NetworkVersion): ReadonlyMap<number, PayloadWithOutputs> {
  let payloads = cache.get(version.name);
  if (payloads === undefined) {
    payloads = new Map(
      version.chainIds.map((c) => [c, computeGenesisPayload(version, c)] as const),
    );
    cache.set(version.name, payloads);
  }
  return payloads;
}

/**
 * The genesis payload of `chainId`, as BlockDb's `genesisPayload` option
 * takes it.
 * @throws {ChainError} CHAIN_BAD_CHAIN_ID when the network has no such chain.
 */
export function genesisPayloadOf(version: NetworkVersion, chainId: number): PayloadWithOutputs {
  const p = genesisPayloads(version).get(chainId);
  return p ?? computeGenesisPayload(version, chainId);
}
