/**
 * The chain most API and store tests share (test-singleton, 10 chains):
 * every chain is built to height 6; there a second branch ("side") starts.
 * The main branch grows to height 8 on every chain; the side branch gets one
 * block on every chain at height 7, which stays off the best cut (lighter):
 * orphans, listed by the ascending endpoints and skipped by branch queries.
 */
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import type { Block, BlockDb } from "../../src-node/store/blockDb.ts";
import { ChainBuilder } from "./chainBuilder.ts";
import { executingPayloads } from "./executingPayloads.ts";

export type ForkedChain = {
  readonly main: ChainBuilder;
  readonly side: ChainBuilder;
  /** Every block inserted, in insertion order. */
  readonly blocks: readonly Block[];
  /** The side blocks at height 7 (orphans), by chain. */
  readonly orphans: ReadonlyMap<number, BlockHeader>;
  /** The main branch's header of `chainId` at `height`. */
  mainAt(chainId: number, height: number): BlockHeader;
};

export function buildForkedChain(db: BlockDb): ForkedChain {
  // Executed payloads: nodes execute every block they accept.
  const main = ChainBuilder.create(db.version, "main", db.genesis, executingPayloads(db));
  const blocks: Block[] = [...main.rounds(6)];
  const side = main.fork("side");
  blocks.push(...main.rounds(2));
  const sideBlocks = side.round();
  blocks.push(...sideBlocks);
  for (const b of blocks) db.insertBlock(b);
  const mainAt = (chainId: number, height: number): BlockHeader => {
    let h = main.cut.get(chainId);
    while (h !== undefined && h.height > height) h = main.headers.get(h.parent);
    if (h === undefined || h.height !== height)
      throw new Error(`no main block ${chainId}@${height}`);
    return h;
  };
  return {
    main,
    side,
    blocks,
    orphans: new Map(sideBlocks.map((b) => [b.header.chainId, b.header] as const)),
    mainAt,
  };
}
