/**
 * Miner information and miner data. Miner data (a payload's Merkle leaf, tag
 * 0x0017) is the miner information re-serialized as compact JSON with the keys
 * exactly `account`, `predicate`, `public-keys`, in that order (reference
 * chainweb-api.md §6.4), so its bytes are reproducible.
 * @module
 */
import { ChainError, ChainErrorCode } from "./errors.ts";

export type MinerInfo = {
  readonly account: string;
  readonly predicate: string;
  readonly publicKeys: readonly string[];
};

/** The miner of genesis blocks: no account, the `<` predicate, no keys. */
export const NO_MINER: MinerInfo = { account: "NoMiner", predicate: "<", publicKeys: [] };

/** The compact miner-data JSON text. */
export function minerDataJson(info: MinerInfo): string {
  return `{"account":${JSON.stringify(info.account)},"predicate":${JSON.stringify(info.predicate)},"public-keys":${JSON.stringify(info.publicKeys)}}`;
}

/** The miner-data bytes (UTF-8 of {@link minerDataJson}). */
export function minerDataBytes(info: MinerInfo): Uint8Array {
  return new TextEncoder().encode(minerDataJson(info));
}

function bad(field: string, reason: string): never {
  throw new ChainError({ code: ChainErrorCode.BadMinerData, field, reason }, `${field}: ${reason}`);
}

/**
 * Parses miner information given as a JSON value `{"account", "predicate",
 * "public-keys"}` (the body of a mining work request); other keys are refused.
 * @throws {ChainError} CHAIN_BAD_MINER_DATA naming the key.
 */
export function parseMinerInfo(value: unknown, field = "minerInfo"): MinerInfo {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    bad(field, "expected an object with account, predicate and public-keys");
  }
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (k !== "account" && k !== "predicate" && k !== "public-keys")
      bad(`${field}.${k}`, "unknown key");
  }
  if (typeof o.account !== "string" || o.account.length === 0)
    bad(`${field}.account`, "expected a non-empty string");
  if (typeof o.predicate !== "string" || o.predicate.length === 0) {
    bad(`${field}.predicate`, "expected a non-empty string");
  }
  const keys = o["public-keys"];
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === "string")) {
    bad(`${field}.public-keys`, "expected an array of strings");
  }
  return { account: o.account, predicate: o.predicate, publicKeys: [...keys] };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
/** The miner data parsed last (a MinerInfo is never changed once parsed). */
let last: { readonly text: string; readonly miner: MinerInfo } | undefined;

/**
 * Parses miner-data bytes (as stored in a payload).
 * @throws {ChainError} CHAIN_BAD_MINER_DATA.
 */
export function parseMinerData(bytes: Uint8Array): MinerInfo {
  let text: string;
  let value: unknown;
  try {
    text = utf8.decode(bytes);
    // Every block names its miner, usually the same one block after block.
    if (text === last?.text) return last.miner;
    value = JSON.parse(text);
  } catch {
    bad("minerData", "not UTF-8 JSON");
  }
  const miner = parseMinerInfo(value, "minerData");
  last = { text, miner };
  return miner;
}
