/**
 * The coinbase of a block (reference chainweb-api.md §6.4): executed first,
 * it pays the block reward of the network's schedule at the block's height
 * (chain/networkVersion.ts `blockRewardAt`) to the miner named by the
 * payload's miner data. Its output is the payload's `coinbase`; its request
 * key is the unpadded base64url of the parent hash's text (the reference's
 * Pact-5 rule). A coinbase that fails (e.g. a miner account the coin
 * contract refuses) is a failure result in the output: the block stays
 * valid and no reward is paid.
 * @module
 */
import type { MinerInfo } from "../chain/minerData.ts";
import { blockRewardAt } from "../chain/networkVersion.ts";
import { base64UrlEncodeText } from "../encoding/base64url.ts";
import type { BlockEnv } from "./blockEnv.ts";
import { commandResultText } from "./commandResult.ts";
import { decimalOfText } from "./gasMath.ts";
import { runCoinbase } from "./systemCalls.ts";

/** The request key of the coinbase of a block on top of `parentHash`. */
export function coinbaseRequestKey(parentHash: string): string {
  return base64UrlEncodeText(parentHash);
}

/** Runs the coinbase on `env.storage`; returns its output JSON text. */
export function coinbaseOutput(env: BlockEnv, miner: MinerInfo): string {
  return coinbaseRun(env, miner).output;
}

/**
 * Runs the coinbase on `env.storage`: its output JSON text, and why the
 * coin contract refused it (null when it paid the reward).
 */
export function coinbaseRun(
  env: BlockEnv,
  miner: MinerInfo,
): { readonly output: string; readonly failure: string | null } {
  const height = env.parent.height + 1;
  const reward = decimalOfText(blockRewardAt(env.version, height));
  const reqKey = coinbaseRequestKey(env.parent.hash);
  const out = runCoinbase(env, miner, reward, reqKey);
  const ok = out.result.ok;
  const output = commandResultText({
    reqKey,
    gas: 0,
    result: out.result,
    logs: ok ? out.logs : [],
    events: out.events,
    metaData: null,
    continuation: null,
    txId: ok ? out.txId : null,
  });
  return { output, failure: out.result.ok ? null : out.result.error.message };
}
