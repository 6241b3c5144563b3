/**
 * The system contracts shipped with the node, as `.pact` source files in
 * `pact/` (written for Weft; docs/system-contracts.md), in the order genesis
 * installs them, and the namespace policy the node runs user transactions
 * with once they are installed.
 * @module
 */
import { readFileSync } from "node:fs";
import type { NamespacePolicy } from "../contract/eval/runtimeContext.ts";
import { GenesisError, GenesisErrorCode } from "./errors.ts";

/** The system contracts in installation order (each needs the ones before it). */
export const SYSTEM_CONTRACTS = [
  "fungible-v2",
  "fungible-xchain-v1",
  "coin",
  "ns",
  "gas-payer-v1",
  "gas-station",
] as const;
export type SystemContract = (typeof SYSTEM_CONTRACTS)[number];

/**
 * The policy of every transaction after genesis (reference §9.1): nothing is
 * defined at the root; a new namespace needs `(ns.validate name admin-guard)`.
 * Genesis itself runs with the permissive `simple` policy.
 */
export const SYSTEM_NAMESPACE_POLICY: NamespacePolicy = {
  kind: "smart",
  allowRoot: false,
  validator: "ns.validate",
};

/** The gas station's coin account (gas-station.pact `STATION_ACCOUNT`). */
export const GAS_STATION_ACCOUNT = "xchain-gas";

const sources = new Map<SystemContract, string>();

/** The URL of a contract's source file. */
export function systemContractUrl(name: SystemContract): URL {
  return new URL(`./pact/${name}.pact`, import.meta.url);
}

/**
 * The source text of a system contract (read once, then cached).
 * @throws {GenesisError} GENESIS_SOURCE_UNREADABLE when the file cannot be read.
 */
export function systemContractSource(name: SystemContract): string {
  let text = sources.get(name);
  if (text === undefined) {
    const url = systemContractUrl(name);
    try {
      text = readFileSync(url, "utf8");
    } catch (e) {
      throw new GenesisError(
        {
          code: GenesisErrorCode.SourceUnreadable,
          file: url.pathname,
          reason: e instanceof Error ? e.message : String(e),
        },
        `cannot read the system contract ${url.pathname}`,
        { cause: e },
      );
    }
    sources.set(name, text);
  }
  return text;
}
