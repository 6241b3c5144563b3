/**
 * Brings the node's blocks up to a peer's cut: fetches the blocks it lacks
 * in windows of block heights (every chain up to the same height, so each
 * block's parent and adjacent parents arrive first), over the seed's
 * `POST …/block/branch` (lower bounds: a locator of this node's chain, so
 * that the peer's walk stops at the fork point), and inserts them in height
 * order through `BlockDb.insertBlock`: validated and executed exactly as
 * mined blocks, never trusted. Every inserted block is stored at once, so an
 * interrupted sync resumes from where it stopped (its checkpoint is the
 * node's own cut). The heaviest cut wins by BlockDb's own fork choice.
 *
 * A block that breaks a rule (a forged header, a payload that does not match
 * or does not execute to its outputs) is the peer's misbehaviour
 * (P2P_PEER_MISBEHAVED); a block whose parent is missing only ends the round.
 * @module
 */
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { BlockHeader } from "../chain/blockHeader.ts";
import { ChainErrorCode } from "../chain/errors.ts";
import type { Hash32 } from "../encoding/hash32.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { Block, BlockDb, InsertResult } from "../store/blockDb.ts";
import { P2pError, P2pErrorCode } from "./errors.ts";
import type { PeerClient } from "./peerClient.ts";
import type { PeerCut } from "./peerCut.ts";

/** Block heights fetched per round and chain. */
export const SYNC_WINDOW = 100;
/** Blocks per branch page (the seed's maximum). */
const PAGE = 360;
/** Most lower bounds of a branch query (the seed's service API allows 32). */
const LOCATOR = 30;

/** Codes of a block that may be valid once other blocks arrive: not misbehaviour. */
const NOT_YET = new Set<string>([
  ChainErrorCode.ParentUnknown,
  ChainErrorCode.AdjacentParentUnknown,
  ChainErrorCode.BlockInFuture,
]);

export type SyncOptions = {
  readonly blocks: BlockDb;
  /**
   * How a fetched block is stored (default `blocks.insertBlock`); the node passes
   * its `insertBlock`, which executes the block in an execution worker first.
   */
  readonly insertBlock?: ((block: Block) => Promise<InsertResult>) | undefined;
  readonly peer: PeerClient;
  readonly target: PeerCut;
  /** Called after each round with the blocks inserted so far. */
  readonly onProgress?: ((inserted: number) => void) | undefined;
  /** Stops between rounds when it returns true (the node closes). */
  readonly stopped?: (() => boolean) | undefined;
  readonly window?: number | undefined;
};

/**
 * Hashes on this node's chain below `head`: the head, then ancestors 1, 2,
 * 4, 8, … blocks down, and genesis: the peer's walk stops at the first it
 * knows, whatever fork we are on.
 */
function locator(blocks: BlockDb, head: BlockHeader): Hash32[] {
  const out: Hash32[] = [head.hash];
  for (let step = 1; out.length < LOCATOR - 1 && head.height - step > 0; step *= 2) {
    const a = blocks.ancestorAt(head, head.height - step);
    if (a !== undefined) out.push(a.hash);
  }
  const genesis = blocks.genesis.get(head.chainId);
  if (genesis !== undefined && !out.includes(genesis.hash)) out.push(genesis.hash);
  return out;
}

/** The newest hash of `locator` the peer holds (genesis, the last, when none is asked). */
async function knownLower(peer: PeerClient, chainId: number, locator: Hash32[]): Promise<Hash32[]> {
  for (const hash of locator.slice(0, -1)) {
    if (await peer.knows(chainId, hash)) return [hash];
  }
  return locator.slice(-1);
}

/** All blocks of `chainId` on the peer up to `maxHeight` above the fork point with our chain. */
async function fetchChain(
  blocks: BlockDb,
  peer: PeerClient,
  chainId: number,
  upper: Hash32,
  maxHeight: number,
): Promise<Block[]> {
  const head = blocks.cut().get(chainId) ?? blocks.genesis.get(chainId);
  let lower = head === undefined ? [] : locator(blocks, head);
  const out: Block[] = [];
  let next: string | undefined;
  do {
    let page: { blocks: Block[]; next: string | undefined };
    try {
      page = await peer.branchBlocks(chainId, {
        upper: [upper],
        lower,
        maxHeight,
        limit: PAGE,
        next,
      });
    } catch (e) {
      // A lower key the peer does not hold (our own fork's blocks) is refused with 404:
      // ask again with the newest locator hash it holds, the fork point it knows.
      const t = e instanceof P2pError ? e.type : undefined;
      const refused = t?.code === P2pErrorCode.PeerUnreachable && t.status === 404;
      if (!refused || next !== undefined || lower.length <= 1) throw e;
      lower = await knownLower(peer, chainId, lower);
      continue;
    }
    out.push(...page.blocks);
    next = page.next;
  } while (next !== undefined);
  return out;
}

/**
 * Syncs towards `target` until every head of it is stored here, a round
 * brings nothing new, or `stopped()`.
 * @returns blocks inserted.
 * @throws {P2pError} P2P_PEER_MISBEHAVED (an invalid block), P2P_PEER_UNREACHABLE.
 */
export async function syncFromPeer(options: SyncOptions): Promise<number> {
  const { blocks, peer, target } = options;
  const window = options.window ?? SYNC_WINDOW;
  const top = Math.max(...[...target.heads.values()].map((h) => h.height));
  let maxHeight = Math.min(...[...blocks.cut().values()].map((h) => h.height)) + window;
  let inserted = 0;
  for (;;) {
    if (options.stopped?.() === true || !blocks.isOpen) return inserted;
    const missing = [...target.heads].filter(([, h]) => !blocks.store.hasHeader(h.hash));
    if (missing.length === 0) return inserted;
    const fetched = await Promise.all(
      // Above its head a chain has no blocks: the peer would answer 404 for such a bound.
      missing.map(([chainId, h]) =>
        fetchChain(blocks, peer, chainId, h.hash, Math.min(maxHeight, h.height)),
      ),
    );
    const round = fetched
      .flat()
      .sort((a, b) => a.header.height - b.header.height || a.header.chainId - b.header.chainId);
    let roundInserted = 0;
    let blocked = false;
    for (const [i, block] of round.entries()) {
      if (!blocks.isOpen) return inserted;
      try {
        const r = await (options.insertBlock?.(block) ?? blocks.insertBlock(block));
        if (r.status === "inserted") roundInserted++;
      } catch (e) {
        if (!isNodeError(e)) throw e;
        if (NOT_YET.has(e.code)) {
          blocked = true;
          break;
        }
        throw peer.misbehaved(
          `block ${block.header.hash} (chain ${block.header.chainId}, height ${block.header.height}): ${e.message}`,
        );
      }
      // Let the HTTP server and timers run during long catch-ups.
      if (i % 64 === 63) await yieldToLoop();
    }
    inserted += roundInserted;
    options.onProgress?.(inserted);
    if (blocked || (maxHeight >= top && roundInserted === 0)) return inserted;
    // The next window starts where this one ended, or above the (moved) cut.
    const cutBase = Math.min(...[...blocks.cut().values()].map((h) => h.height));
    maxHeight = Math.max(maxHeight, cutBase) + window;
  }
}
