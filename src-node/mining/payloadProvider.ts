/**
 * Where the payload of a new block comes from. The mining service asks a
 * {@link PayloadProvider} for the payload (transactions with their outputs,
 * miner data, coinbase output) of each block it hands out as work; the
 * provider is pluggable so that the execution area can replace the empty
 * payload below with mempool transactions executed on the parent's state.
 *
 * The empty payload: no transactions; miner data = the miner information as
 * compact JSON with the keys `account`, `predicate`, `public-keys` (reference
 * chainweb-api.md §6.4); coinbase output = {@link placeholderCoinbase}, a
 * command-result-shaped JSON text that marks the coinbase as not executed
 * (no reward is paid until the contract engine runs `coin.coinbase`). Its
 * request key follows the reference's Pact-5 rule (base64url of the parent
 * hash's text), so each block's coinbase output differs.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { type MinerInfo, minerDataBytes } from "../chain/minerData.ts";
import { buildPayloadWithOutputs, type PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import { base64UrlEncodeText } from "../encoding/base64url.ts";

/**
 * The payload of the next block on `chainId` on top of `parent`, for the
 * miner `minerInfo`. May be asynchronous (execution may wait for state).
 */
export type PayloadProvider = (
  chainId: number,
  parent: BlockHeader,
  minerInfo: MinerInfo,
) => PayloadWithOutputs | Promise<PayloadWithOutputs>;

const encoder = new TextEncoder();

/** The data of the placeholder coinbase result: the coinbase was not executed. */
export const COINBASE_NOT_EXECUTED = "COINBASE_NOT_EXECUTED";

/** The placeholder coinbase output (UTF-8 JSON) of a block on top of `parent`. */
export function placeholderCoinbase(parent: BlockHeader): Uint8Array {
  const reqKey = base64UrlEncodeText(parent.hash);
  return encoder.encode(
    `{"gas":0,"result":{"status":"success","data":"${COINBASE_NOT_EXECUTED}"},"reqKey":"${reqKey}","logs":null,"metaData":null,"continuation":null,"txId":null}`,
  );
}

/** A payload without transactions, with the miner's data and the placeholder coinbase. */
export const emptyPayloadProvider: PayloadProvider = (_chainId, parent, minerInfo) =>
  buildPayloadWithOutputs({
    transactions: [],
    minerData: minerDataBytes(minerInfo),
    coinbase: placeholderCoinbase(parent),
  });
