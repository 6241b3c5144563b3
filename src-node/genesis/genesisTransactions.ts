/**
 * The genesis transactions of a network's chain, in order: one per system
 * contract (its `.pact` source as the code; coin also creates its table, ns
 * defines the open namespaces), then the allocations (the gas station's
 * account and the funded accounts of the network's genesis configuration).
 *
 * Genesis commands are unsigned: no signers, `networkId` = the network's
 * name, `meta.chainId` = the chain, sender "", gas limit 0, gas price 0,
 * ttl 0, creation time = the network's genesis time (s); the nonce names
 * the transaction. Every chain runs the same code, so module hashes are equal
 * on all chains (cross-chain yields check them).
 * @module
 */
import type { NetworkVersion } from "../chain/networkVersion.ts";
import type { CommandPayload, UnsignedCommand } from "../command/commandTypes.ts";
import type { JsonObject } from "../command/exactJson.ts";
import { nodeCommands } from "../exec/nodeCommands.ts";
import { genesisConfigOf } from "./genesisConfig.ts";
import {
  GAS_STATION_ACCOUNT,
  SYSTEM_CONTRACTS,
  type SystemContract,
  systemContractSource,
} from "./systemContracts.ts";

export type GenesisTransaction = {
  /** A system contract's name, or `allocations`. */
  readonly name: SystemContract | "allocations";
  readonly code: string;
  /** The message data (keysets of the funded accounts), or null. */
  readonly data: JsonObject | null;
  readonly payload: CommandPayload;
  /** `cmd` text and request key. */
  readonly command: UnsignedCommand;
};

/** Code run after a contract's source in the same transaction. */
const AFTER: Partial<Record<SystemContract, string>> = {
  coin: "(create-table coin.coin-table)\n",
};

function allocations(version: NetworkVersion): { code: string; data: JsonObject | null } {
  const config = genesisConfigOf(version);
  const lines: string[] = [];
  const station = JSON.stringify(GAS_STATION_ACCOUNT);
  lines.push(
    config.gasStationFunds === "0.0"
      ? `(coin.create-account ${station} (gas-station.create-gas-payer-guard))`
      : `(coin.fund-genesis-account ${station} (gas-station.create-gas-payer-guard) ${config.gasStationFunds})`,
  );
  const data: Record<string, JsonObject> = {};
  for (const a of config.accounts) {
    // Names are checked to be quote- and backslash-free ASCII (genesisConfig.ts).
    const name = JSON.stringify(a.account);
    lines.push(`(coin.fund-genesis-account ${name} (read-keyset ${name}) ${a.amount})`);
    data[a.account] = { keys: [...a.keys], pred: a.pred };
  }
  return { code: `${lines.join("\n")}\n`, data: config.accounts.length === 0 ? null : data };
}

function transaction(
  version: NetworkVersion,
  chainId: number,
  index: number,
  name: GenesisTransaction["name"],
  code: string,
  data: JsonObject | null,
): GenesisTransaction {
  const payload: CommandPayload = {
    payload: { exec: { code, data } },
    meta: {
      chainId: String(chainId),
      sender: "",
      gasLimit: 0,
      gasPrice: "0",
      ttl: 0,
      creationTime: Math.floor(version.genesisTime / 1_000_000),
    },
    signers: [],
    networkId: version.name,
    nonce: `genesis-${index}-${name}`,
  };
  return { name, code, data, payload, command: nodeCommands.buildCommand(payload) };
}

/** The genesis transactions of `chainId` on `version`, in execution order. */
export function genesisTransactions(
  version: NetworkVersion,
  chainId: number,
): GenesisTransaction[] {
  const txs = SYSTEM_CONTRACTS.map((name, i) =>
    transaction(version, chainId, i, name, systemContractSource(name) + (AFTER[name] ?? ""), null),
  );
  const a = allocations(version);
  txs.push(transaction(version, chainId, txs.length, "allocations", a.code, a.data));
  return txs;
}
