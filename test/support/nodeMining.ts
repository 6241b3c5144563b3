/**
 * Mining on a test node without HTTP: work from the node's mining service,
 * submitted as solved at once (test-singleton's target takes any nonce), so
 * blocks go through the same execution as blocks from /mining/solved.
 */
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import type { MinerInfo } from "../../src-node/chain/minerData.ts";
import type { WeftNode } from "../../src-node/node.ts";
import { MINER } from "./execChain.ts";

/**
 * Mines one block on `chainId` (with the mempool's commands), after blocks on
 * other chains when braiding needs them first; returns its header.
 */
export async function mineOn(
  node: WeftNode,
  chainId: number,
  miner: MinerInfo = MINER,
): Promise<BlockHeader> {
  for (let i = 0; i < 50; i++) {
    const work = await node.mining.work(miner, chainId);
    const solved = node.mining.submit(work.bytes.subarray(36)).header;
    if (solved.chainId === chainId) return solved;
  }
  throw new Error(`chain ${chainId} could not be mined`);
}
