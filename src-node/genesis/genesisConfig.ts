/**
 * What each network funds at genesis, on every one of its chains: keyset
 * accounts with amounts, and the gas station's coins. `development` (and the
 * test networks, which tests run transactions on) fund the ten published test
 * accounts, both as `senderNN` and as `k:<key>`, and the ten `k:` accounts of
 * the published wallet phrase (docs/dev-accounts.md);
 * `testnet04` and `mainnet01` fund nothing: their coins come from mining.
 * @module
 */
import type { NetworkVersion } from "../chain/networkVersion.ts";
import { DEV_ACCOUNT_KEYS } from "./devAccountKeys.ts";
import { PHRASE_PUBLIC_KEYS } from "./devAccounts.ts";
import { GenesisError, GenesisErrorCode } from "./errors.ts";

/** An account funded at genesis, guarded by a keyset. */
export type GenesisAccount = {
  readonly account: string;
  readonly keys: readonly string[];
  readonly pred: "keys-all" | "keys-any" | "keys-2";
  /** Decimal text with a point and at most 12 places, e.g. `"1000000.0"`. */
  readonly amount: string;
};

export type GenesisConfig = {
  readonly accounts: readonly GenesisAccount[];
  /** Coins of the gas station's account (`"0.0"`: the account is created empty). */
  readonly gasStationFunds: string;
};

/** Each test account's coins on each chain of development. */
export const DEV_ACCOUNT_FUNDS = "1000000.0";
/** The gas station's coins on each chain of development. */
export const DEV_GAS_STATION_FUNDS = "1000.0";

function devConfig(): GenesisConfig {
  const account = (name: string, key: string): GenesisAccount => ({
    account: name,
    keys: [key],
    pred: "keys-all",
    amount: DEV_ACCOUNT_FUNDS,
  });
  return {
    accounts: [
      ...DEV_ACCOUNT_KEYS.map((k) => account(k.account, k.publicKey)),
      ...DEV_ACCOUNT_KEYS.map((k) => account(`k:${k.publicKey}`, k.publicKey)),
      ...PHRASE_PUBLIC_KEYS.map((key) => account(`k:${key}`, key)),
    ],
    gasStationFunds: DEV_GAS_STATION_FUNDS,
  };
}

const NOTHING: GenesisConfig = { accounts: [], gasStationFunds: "0.0" };

const configs: Readonly<Record<string, GenesisConfig>> = {
  development: devConfig(),
  "test-singleton": devConfig(),
  "test-transition": devConfig(),
  testnet04: NOTHING,
  mainnet01: NOTHING,
  "recap-development": NOTHING,
};

const AMOUNT = /^(0|[1-9][0-9]*)\.[0-9]{1,12}$/;
const KEY = /^[0-9a-f]{64}$/;
/** Printable ASCII without quote or backslash: safe inside a contract string literal. */
const NAME = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{3,256}$/;

/**
 * Checks a configuration (amounts, keys, names) before it becomes code.
 * @throws {GenesisError} GENESIS_BAD_ALLOCATION naming the account and why.
 */
export function checkGenesisConfig(network: string, config: GenesisConfig): GenesisConfig {
  const bad = (account: string, reason: string): never => {
    throw new GenesisError(
      { code: GenesisErrorCode.BadAllocation, network, account, reason },
      `genesis of ${network}: account ${account}: ${reason}`,
    );
  };
  if (!AMOUNT.test(config.gasStationFunds))
    bad("gas station", "funds are not decimal text such as 1000.0");
  const seen = new Set<string>();
  for (const a of config.accounts) {
    if (!NAME.test(a.account))
      bad(a.account, 'the name must be 3-256 printable ASCII characters without " or \\');
    if (seen.has(a.account)) bad(a.account, "listed twice");
    seen.add(a.account);
    if (!AMOUNT.test(a.amount))
      bad(a.account, `amount ${a.amount} is not decimal text such as 1000.0`);
    if (a.keys.length === 0 || !a.keys.every((k) => KEY.test(k)))
      bad(a.account, "keys must be 64 lowercase hex digits");
  }
  return config;
}

/** The genesis funding of a network (nothing for a network without a configuration). */
export function genesisConfigOf(version: NetworkVersion): GenesisConfig {
  return checkGenesisConfig(version.name, configs[version.name] ?? NOTHING);
}
