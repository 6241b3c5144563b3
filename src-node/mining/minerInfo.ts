/**
 * Miner information as the mining API and the miners take it: the body of
 * `GET /mining/work` (`{"account", "predicate", "public-keys"}`), checked
 * more strictly than the chain's miner-data parser because it decides who a
 * block's reward goes to: the account is a non-empty string, the predicate
 * one of `keys-all`, `keys-any`, `keys-2`, and the public keys a non-empty
 * list of ed25519 keys in hex (64 characters each).
 * @module
 */
import type { MinerInfo } from "../chain/minerData.ts";
import { MiningError, MiningErrorCode } from "./errors.ts";

export const MINER_PREDICATES = ["keys-all", "keys-any", "keys-2"] as const;
export type MinerPredicate = (typeof MINER_PREDICATES)[number];

const PUBLIC_KEY = /^[0-9a-fA-F]{64}$/;
const KEYS = new Set(["account", "predicate", "public-keys"]);
/** Longest account name accepted (the reference coin contract allows 256 characters). */
const MAX_ACCOUNT = 256;

function bad(field: string, reason: string): never {
  throw new MiningError(
    { code: MiningErrorCode.BadMinerInfo, field, reason },
    `miner information: ${field}: ${reason}`,
  );
}

/** True for an ed25519 public key in hex. */
export function isMinerPublicKey(text: unknown): text is string {
  return typeof text === "string" && PUBLIC_KEY.test(text);
}

/**
 * Checks a parsed JSON value as miner information.
 * @throws {MiningError} MINING_BAD_MINER_INFO naming the key that is wrong.
 */
export function parseMinerInfoJson(value: unknown): MinerInfo {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    bad("body", 'expected a JSON object {"account", "predicate", "public-keys"}');
  }
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!KEYS.has(k)) bad(k, "unknown key");
  const { account, predicate } = o;
  const keys = o["public-keys"];
  if (typeof account !== "string" || account.length === 0) {
    bad("account", "expected a non-empty string");
  }
  if (account.length > MAX_ACCOUNT) bad("account", `longer than ${MAX_ACCOUNT} characters`);
  if (
    typeof predicate !== "string" ||
    !(MINER_PREDICATES as readonly string[]).includes(predicate)
  ) {
    bad("predicate", `expected one of ${MINER_PREDICATES.join(", ")}`);
  }
  if (!Array.isArray(keys) || keys.length === 0) {
    bad("public-keys", "expected a non-empty array of public keys");
  }
  keys.forEach((k: unknown, i: number) => {
    if (!isMinerPublicKey(k)) bad(`public-keys[${i}]`, "expected 64 hex characters");
  });
  if (account.startsWith("k:")) checkKAccount(account, predicate, keys as string[]);
  return { account, predicate, publicKeys: [...(keys as string[])] };
}

/**
 * The coin contract's rule for a `k:` account (reference pact-language.md
 * §5.2): `k:` and 64 lower-case hex characters, guarded by exactly that key
 * under keys-all. Work for another shape would make a block whose coinbase
 * the contract refuses: the reward would be lost, so it is refused here.
 */
function checkKAccount(account: string, predicate: string, keys: readonly string[]): void {
  const own = /^k:([0-9a-f]{64})$/.exec(account)?.[1];
  if (own === undefined)
    bad("account", "a k: account is k: and 64 lower-case hex characters (its public key)");
  if (predicate !== "keys-all" || keys.length !== 1 || keys[0] !== own)
    bad(
      "public-keys",
      `a k: account is guarded by its own key alone under keys-all: expected ["${own}"] and keys-all`,
    );
}

/**
 * Parses the UTF-8 JSON text of a work request body.
 * @throws {MiningError} MINING_BAD_MINER_INFO (field `body` when the text is no JSON).
 */
export function parseMinerInfoText(text: string): MinerInfo {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    bad("body", "not JSON");
  }
  return parseMinerInfoJson(value);
}

const K_ACCOUNT = /^k:([0-9a-fA-F]{64})$/;

/**
 * Miner information from command-line, configuration or app values: an
 * account and its keys (predicate `keys-all` unless given). Without keys, a
 * `k:<public key>` account names its own key.
 * @throws {MiningError} MINING_BAD_MINER_INFO (`public-keys` when there are
 *   none and the account is not a `k:` account).
 */
export function minerInfoOf(
  account: string,
  publicKeys: readonly string[] = [],
  predicate: string = "keys-all",
): MinerInfo {
  const own = K_ACCOUNT.exec(account)?.[1];
  if (publicKeys.length === 0 && own === undefined && typeof account === "string") {
    if (account.length === 0) bad("account", "expected a non-empty string");
    bad(
      "public-keys",
      `needed for account ${JSON.stringify(account)} (only a k: account names its own key)`,
    );
  }
  const keys = publicKeys.length > 0 ? [...publicKeys] : [own as string];
  return parseMinerInfoJson({ account, predicate, "public-keys": keys });
}

/** The work request body for `info` (keys in the reference order). */
export function minerInfoBody(info: MinerInfo): string {
  return JSON.stringify({
    account: info.account,
    predicate: info.predicate,
    "public-keys": info.publicKeys,
  });
}
