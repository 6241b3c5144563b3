/**
 * Genesis payloads. Like the reference's (chainweb-api.md §3), a genesis
 * payload has the "no miner" miner data and the NO_COINBASE output as its
 * coinbase; its transactions are the genesis transactions (with their
 * outputs), which the system-contracts work supplies. Weft's genesis payloads
 * are derived from that list, never hard-coded, so a network's genesis hashes
 * follow from its genesis transactions.
 * @module
 */
import { minerDataBytes, NO_MINER } from "./minerData.ts";
import {
  buildPayloadWithOutputs,
  type PayloadTransaction,
  type PayloadWithOutputs,
} from "./payloadWithOutputs.ts";

/** The coinbase output of every genesis block (reference "no coinbase" command result). */
export const NO_COINBASE_OUTPUT =
  '{"gas":0,"result":{"status":"success","data":"NO_COINBASE"},"reqKey":"DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g","logs":null,"metaData":null,"continuation":null,"txId":null}';

/** The genesis payload holding `transactions` (empty until the system contracts exist). */
export function buildGenesisPayload(
  transactions: readonly PayloadTransaction[],
): PayloadWithOutputs {
  return buildPayloadWithOutputs({
    transactions,
    minerData: minerDataBytes(NO_MINER),
    coinbase: new TextEncoder().encode(NO_COINBASE_OUTPUT),
  });
}
