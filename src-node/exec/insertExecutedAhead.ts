/**
 * `insertExecutedAhead`: how the node stores a block it did not get from its
 * own database — a miner's solution, later a peer's block — without holding
 * its event loop while the block executes: the execution host runs the
 * block first on a read snapshot of its parent's state (an execution
 * worker), then `BlockDb.insertBlock` validates the header and writes the
 * rows that execution gave (or rejects the block with its verdict). Where
 * nothing could be prepared, the insert executes the block itself, as it
 * always may.
 * @module
 */
import type { Block, BlockDb, InsertResult } from "../store/blockDb.ts";
import type { ChainExecutor } from "./chainExecutor.ts";
import type { ExecutionHost } from "./executionHost.ts";

export async function insertExecutedAhead(
  parts: {
    readonly blocks: BlockDb;
    readonly executor: ChainExecutor;
    readonly execution: ExecutionHost;
  },
  block: Block,
): Promise<InsertResult> {
  const { blocks, executor, execution } = parts;
  const hash = block.header.hash;
  // A known block changes nothing; an empty one executes its coinbase only, cheaper here
  // than the round trip to a worker (a node catching up inserts thousands of them). Empty
  // first: insertBlock looks the block up itself, and a new one is a SQLite lookup each time.
  if (block.payload.transactions.length === 0 || blocks.header(hash) !== undefined) {
    return blocks.insertBlock(block);
  }
  await execution.prepareBlock(block);
  try {
    return blocks.insertBlock(block);
  } finally {
    executor.dropPrepared(hash);
  }
}
