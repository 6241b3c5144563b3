/**
 * Brings the node's blocks up to a peer's cut. Per chain it fetches the
 * branch of the peer's head above the highest block of that branch this
 * node holds (the fork point), over the seed's `POST …/block/branch` with
 * only an upper bound and a height range: no lower bound names a block of
 * this node's own fork, which the peer would not know.
 *
 * - **Fork points.** Each chain is first probed at this node's head height:
 *   the peer's blocks from there up to a few heights above are fetched, and
 *   when the first of them not held here sits on a block held here, that is
 *   the fork point and the blocks above it are kept (one request when a node
 *   follows its peer); otherwise the peer's hashes below are read
 *   (`POST …/hash/branch`, spans of 64, 128, … heights) for the highest one
 *   held here.
 * - **Windows.** Every chain is fetched up to the same height, so each
 *   block's parent and adjacent parents arrive in the same or an earlier
 *   window; blocks are inserted in height order, the blocks of one height
 *   together (execution workers run them side by side). A window spans as
 *   many heights as hold about {@link WINDOW_TXS} transactions (up to
 *   {@link SYNC_WINDOW} heights of empty blocks, a few of full ones); the
 *   next windows are fetched while one is inserted ({@link AHEAD} ahead), a
 *   request per chain and window (pages of up to 360 blocks), never one per
 *   block. A page past its size limit (peerClient.ts) is asked again with
 *   half as many blocks, down to one block, which alone must fit its limit.
 * - **Trust.** Blocks go through the node's `insertBlock`: validated and
 *   executed exactly as mined blocks. Every inserted block is stored at
 *   once, so an interrupted sync resumes from where it stopped (its
 *   checkpoint is the node's own cut). The heaviest cut wins by BlockDb's
 *   own fork choice.
 *
 * A block that breaks a rule (a forged header, a payload that does not match
 * or does not execute to its outputs) is the peer's misbehaviour (kind
 * `invalid-block`); a branch that does not link up (a block whose parent is
 * not the block below it) is `malformed`; a cut the peer's blocks do not bear
 * out (a head whose branch it cannot serve, or a weight or height its heads'
 * headers do not give) is `false-cut`; a block whose parent is missing here
 * only ends the sync (the next poll retries).
 * @module
 */
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { ChainErrorCode } from "../chain/errors.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { Block, BlockDb, InsertResult } from "../store/blockDb.ts";
import { P2pError, P2pErrorCode } from "./errors.ts";
import type { PeerClient } from "./peerClient.ts";
import type { PeerCut, PeerCutHead } from "./peerCut.ts";

/** Most block heights fetched per window (every chain up to the same height). */
export const SYNC_WINDOW = 100;
/** Heights of the first window, before the blocks' size is known. */
const FIRST_SPAN = 16;
/** Heights probed above a chain's head for its fork point. */
const PROBE_SPAN = 8;
/**
 * Transactions a window aims at: windows of empty blocks span SYNC_WINDOW
 * heights, windows of full blocks (250 transfers, about 0.5 MB) a few, so
 * the windows in memory stay within tens of MB.
 */
const WINDOW_TXS = 5_000;
/** Windows fetched ahead of the one being inserted. */
const AHEAD = 2;
/** Blocks per branch page (the seed's maximum). */
const BLOCK_PAGE = 360;
/** Heights first searched below a fork, doubled each time; at most a hash page. */
const FORK_SPAN = 64;
const HASH_PAGE = 4096;

/** Blocks inserted between progress calls and turns of the event loop. */
const PROGRESS_EVERY = 64;
/**
 * Most blocks without transactions stored in one batch (one commit per
 * database): each commit writes the pages the batch touched (the cut's
 * rows, index pages) to the WAL again, so fewer commits write less.
 */
const BATCH_BLOCKS = 256;

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
   * A block without transactions must be stored (or refused) before the call
   * returns: its promise only reports the outcome (see `batch`).
   */
  readonly insertBlock?: ((block: Block) => Promise<InsertResult>) | undefined;
  /**
   * Runs `run` inside one transaction of every database an insert writes
   * (node.ts: blocks, state, index), so the blocks without transactions it
   * inserts commit together rather than one commit per database and block
   * (default: runs it as it is).
   */
  readonly batch?: ((run: () => void) => void) | undefined;
  readonly peer: PeerClient;
  readonly target: PeerCut;
  /** Called about every {@link PROGRESS_EVERY} blocks and after each window with the blocks inserted so far. */
  readonly onProgress?: ((inserted: number) => void) | undefined;
  /** Stops between windows when it returns true (the node closes). */
  readonly stopped?: (() => boolean) | undefined;
  /** Most heights per window (default {@link SYNC_WINDOW}). */
  readonly window?: number | undefined;
};

/** One chain to bring up to the peer's head. */
type ChainPlan = {
  readonly chainId: number;
  readonly head: PeerCutHead;
  /** Genesis height of the chain: no fork point lies below it. */
  readonly floor: number;
  /** Height up to which the head's branch is held here (a guess until probed) or fetched. */
  base: number;
};

/**
 * The head's branch at heights `from`…`to`, ascending (one block per height).
 * The peer announced the head, so it must serve every height of its branch:
 * a 404 (head or height unknown there), fewer blocks than heights, or a top
 * block at the head's height that is not the head is a false cut.
 */
async function fetchRange(
  peer: PeerClient,
  chainId: number,
  head: PeerCutHead,
  from: number,
  to: number,
): Promise<Block[]> {
  const out: Block[] = [];
  const heights = to - from + 1;
  let next: string | undefined;
  // The seed's page size (a smaller one answers a full page with a cursor to one more request).
  let limit = BLOCK_PAGE;
  for (;;) {
    let page: Awaited<ReturnType<PeerClient["branchBlocks"]>>;
    try {
      page = await peer.branchBlocks(chainId, {
        upper: [head.hash],
        lower: [],
        minHeight: from,
        maxHeight: to,
        limit,
        next,
      });
    } catch (e) {
      // A page past its size limit: large blocks, maybe; fewer per page, down to one.
      if (
        e instanceof P2pError &&
        e.type.code === P2pErrorCode.PeerMisbehaved &&
        e.type.kind === "oversized" &&
        Math.min(limit, heights) > 1
      ) {
        limit = Math.max(1, Math.floor(Math.min(limit, heights) / 2));
        continue;
      }
      if (
        e instanceof P2pError &&
        e.type.code === P2pErrorCode.PeerUnreachable &&
        e.type.status === 404
      ) {
        throw peer.misbehaved(
          "false-cut",
          `chain ${chainId}: it announced head ${head.hash} at height ${head.height} and cannot serve its branch at heights ${from}–${to} (${e.message})`,
        );
      }
      throw e;
    }
    out.push(...page.blocks);
    next = page.next;
    // One block per height: more is not the branch asked for (and a peer must not page forever).
    if (out.length > heights) {
      throw peer.misbehaved(
        "malformed",
        `chain ${chainId}: more than ${heights} blocks for heights ${from}–${to} of one branch`,
      );
    }
    if (next === undefined) break;
  }
  out.reverse();
  const top = out[out.length - 1];
  if (out.length < heights || (to === head.height && top?.header.hash !== head.hash)) {
    throw peer.misbehaved(
      "false-cut",
      `chain ${chainId}: it announced head ${head.hash} at height ${head.height}; its branch at heights ${from}–${to} has ${out.length} blocks${to === head.height && top !== undefined ? `, the top one ${top.header.hash}` : ""}`,
    );
  }
  return out;
}

/**
 * Once every head of the peer's cut is held here, its weight and heights
 * must be what those headers give (a cut's weight is the sum of its heads'
 * weights): a heavier claim is a false cut, which would otherwise send this
 * node syncing towards it at every poll. Nothing is judged while a head is
 * missing.
 * @throws {P2pError} P2P_PEER_MISBEHAVED of kind `false-cut`.
 */
export function checkAnnouncedCut(blocks: BlockDb, peer: PeerClient, target: PeerCut): void {
  let weight = 0n;
  for (const [chainId, head] of target.heads) {
    const h = blocks.store.header(head.hash);
    if (h === undefined) return;
    if (h.chainId !== chainId || h.height !== head.height) {
      throw peer.misbehaved(
        "false-cut",
        `chain ${chainId}: it announced head ${head.hash} at height ${head.height}; that block is at height ${h.height} of chain ${h.chainId}`,
      );
    }
    weight += h.weight;
  }
  if (target.weight > weight) {
    throw peer.misbehaved(
      "false-cut",
      `its cut claims weight ${target.weight}; the headers of its heads give ${weight}`,
    );
  }
}

/**
 * The height of the highest block of the head's branch at or below `below`
 * that this node holds: spans of the peer's hashes, deeper each time.
 */
async function findForkPoint(
  blocks: BlockDb,
  peer: PeerClient,
  plan: ChainPlan,
  below: number,
): Promise<number> {
  const unrelated = () =>
    peer.misbehaved(
      "malformed",
      `chain ${plan.chainId}: its branch shares no block with this node's, not even genesis`,
    );
  let top = below;
  for (let span = FORK_SPAN; ; span = Math.min(2 * span, HASH_PAGE)) {
    if (top < plan.floor) throw unrelated();
    const low = Math.max(plan.floor, top - span + 1);
    const { hashes } = await peer.branchHashes(plan.chainId, {
      upper: [plan.head.hash],
      lower: [],
      minHeight: low,
      maxHeight: top,
      limit: top - low + 1,
    });
    if (hashes.length !== top - low + 1) {
      throw peer.misbehaved(
        "malformed",
        `chain ${plan.chainId}: ${hashes.length} hashes for heights ${low}–${top} of its head's branch`,
      );
    }
    // Descending: the first held is the fork point.
    const i = hashes.findIndex((h) => blocks.store.hasHeader(h));
    if (i >= 0) return top - i;
    top = low - 1;
  }
}

/**
 * Finds where the head's branch leaves this node's blocks. The guess is the
 * plan's base (this node's head height): the peer's blocks from there up to
 * {@link PROBE_SPAN} above are fetched, and when the first of them not held here sits
 * on a block held here, that block is the fork point and the blocks from it
 * up are kept; otherwise the fork point is searched below and nothing is
 * kept. The plan's base is then a height held here.
 */
async function probe(blocks: BlockDb, peer: PeerClient, plan: ChainPlan): Promise<Block[]> {
  const to = Math.min(plan.base + PROBE_SPAN, plan.head.height);
  const got = await fetchRange(peer, plan.chainId, plan.head, plan.base, to);
  const i = got.findIndex((b) => !blocks.store.hasHeader(b.header.hash));
  const fresh = got[i];
  if (fresh === undefined) {
    plan.base = Math.max(plan.base, got[got.length - 1]?.header.height ?? plan.base);
    return [];
  }
  // The first block not held here sits on one held: that one is the fork point.
  if (blocks.store.hasHeader(fresh.header.parent)) {
    plan.base = fresh.header.height - 1;
    return got.slice(i);
  }
  plan.base = await findForkPoint(blocks, peer, plan, plan.base - 1);
  return [];
}

/** Checks that a chain's fetched blocks link up, each on the one below. */
function checkLinks(peer: PeerClient, chainId: number, got: readonly Block[]): void {
  for (let i = 1; i < got.length; i++) {
    const b = got[i] as Block;
    if (b.header.parent !== (got[i - 1] as Block).header.hash) {
      throw peer.misbehaved(
        "malformed",
        `chain ${chainId}: block ${b.header.hash} at height ${b.header.height} is not on the block below it in its branch`,
      );
    }
  }
}

/** Sorts blocks in height order (then chain), the order they are inserted in. */
function byHeight(list: Block[]): Block[] {
  return list.sort(
    (a, b) => a.header.height - b.header.height || a.header.chainId - b.header.chainId,
  );
}

/** Every chain's blocks above its base up to `top`, in height order; plans move to `top`. */
async function fetchWindow(
  peer: PeerClient,
  plans: readonly ChainPlan[],
  top: number,
): Promise<Block[]> {
  const got = await Promise.all(
    plans.map(async (plan) => {
      const to = Math.min(top, plan.head.height);
      if (plan.base >= to) return [];
      const chainBlocks = await fetchRange(peer, plan.chainId, plan.head, plan.base + 1, to);
      checkLinks(peer, plan.chainId, chainBlocks);
      plan.base = to;
      return chainBlocks;
    }),
  );
  return byHeight(got.flat());
}

/** A promise whose rejection is handled later, when (if) it is awaited. */
function deferred<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * Syncs towards `target` until every head of it is stored here, a block
 * cannot be inserted yet, or `stopped()`.
 * @returns blocks inserted.
 * @throws {P2pError} P2P_PEER_MISBEHAVED (an invalid block, a branch that does
 *   not link up), P2P_PEER_UNREACHABLE.
 */
export async function syncFromPeer(options: SyncOptions): Promise<number> {
  const { blocks, peer, target } = options;
  const maxSpan = Math.max(1, options.window ?? SYNC_WINDOW);
  const insertBlock = options.insertBlock ?? (async (b: Block) => blocks.insertBlock(b));
  // A refusal thrown at once must not end a batch (its transaction would roll back stored blocks).
  const insert = (b: Block): Promise<InsertResult> => {
    try {
      return insertBlock(b);
    } catch (e) {
      return Promise.reject(e);
    }
  };
  const cut = blocks.cut();
  const plans: ChainPlan[] = [];
  for (const [chainId, head] of target.heads) {
    if (blocks.store.hasHeader(head.hash)) continue;
    const floor = blocks.genesis.get(chainId)?.height ?? 0;
    if (head.height < floor) continue;
    const ours = cut.get(chainId)?.height ?? floor;
    // A node usually follows its peers: its head is likely on the peer's branch.
    plans.push({ chainId, head, floor, base: Math.min(ours, head.height) });
  }
  if (plans.length === 0) {
    checkAnnouncedCut(blocks, peer, target);
    return 0;
  }
  const end = Math.max(...plans.map((p) => p.head.height));

  // Fork points first (with the first blocks where the guess holds); then windows that only move up.
  const probed = await Promise.all(plans.map((plan) => probe(blocks, peer, plan)));
  // Heights per window: as many as hold about WINDOW_TXS transactions, learnt from each window.
  let span = Math.min(FIRST_SPAN, maxSpan);
  const measure = (got: readonly Block[], heights: number): void => {
    const txs = got.reduce((n, b) => n + b.payload.transactions.length, 0);
    span = Math.max(1, Math.min(maxSpan, Math.floor((WINDOW_TXS * heights) / Math.max(1, txs))));
  };
  const base = Math.min(...plans.map((p) => p.base));
  let top = base + span;
  const kept = probed.map((got, i) => {
    const plan = plans[i] as ChainPlan;
    const below = got.filter((b) => b.header.height <= top);
    checkLinks(peer, plan.chainId, below);
    const last = below[below.length - 1];
    if (last !== undefined) plan.base = last.header.height;
    return below;
  });
  const first = byHeight([...kept.flat(), ...(await fetchWindow(peer, plans, top))]);
  measure(first, top - base);
  const queue: Promise<Block[]>[] = [Promise.resolve(first)];
  // Windows are fetched in order, one after the other, each moving the plans up.
  let fetching: Promise<unknown> = Promise.resolve();
  const enqueue = (): void => {
    if (top >= end) return;
    const heights = span;
    top += heights;
    const windowTop = top;
    const p = fetching.then(async () => {
      const got = await fetchWindow(peer, plans, windowTop);
      measure(got, heights);
      return got;
    });
    fetching = deferred(p);
    queue.push(deferred(p));
  };
  for (let i = 0; i < AHEAD; i++) enqueue();

  let inserted = 0;
  let sinceProgress = 0;
  const batch = options.batch ?? ((run: () => void) => run());
  for (;;) {
    const next = queue.shift();
    if (next === undefined) break;
    const got = await next;
    enqueue();
    for (const group of insertGroups(got)) {
      if (options.stopped?.() === true || !blocks.isOpen) return inserted;
      // Blocks of one height depend only on lower ones: they are inserted together, so
      // execution workers run them side by side; their verdicts are read in order.
      let pending: Promise<InsertResult>[] = [];
      const start = () => {
        pending = group.blocks.map((block) => insert(block));
      };
      if (group.empty) batch(start);
      else start();
      const results = await Promise.allSettled(pending);
      for (const [i, r] of results.entries()) {
        if (r.status === "fulfilled") {
          if (r.value.status === "inserted") inserted++;
          continue;
        }
        const e: unknown = r.reason;
        if (!isNodeError(e)) throw e;
        if (NOT_YET.has(e.code)) return inserted;
        const block = group.blocks[i] as Block;
        throw peer.misbehaved(
          "invalid-block",
          `block ${block.header.hash} (chain ${block.header.chainId}, height ${block.header.height}): ${e.message}`,
        );
      }
      sinceProgress += group.blocks.length;
      if (sinceProgress >= PROGRESS_EVERY) {
        sinceProgress = 0;
        options.onProgress?.(inserted);
        // Let the HTTP server and timers run during long catch-ups.
        await yieldToLoop();
      }
    }
    options.onProgress?.(inserted);
  }
  checkAnnouncedCut(blocks, peer, target);
  return inserted;
}

/**
 * Blocks in height order, grouped for insertion: one height of blocks with
 * transactions (executed ahead in workers, each awaited), or consecutive
 * heights of blocks without any, up to {@link BATCH_BLOCKS} blocks (stored
 * at once, in one batch).
 */
function insertGroups(sorted: readonly Block[]): { blocks: Block[]; empty: boolean }[] {
  const groups: { blocks: Block[]; empty: boolean }[] = [];
  let i = 0;
  while (i < sorted.length) {
    const height = (sorted[i] as Block).header.height;
    let j = i;
    while (j < sorted.length && (sorted[j] as Block).header.height === height) j++;
    const level = sorted.slice(i, j);
    const empty = level.every((b) => b.payload.transactions.length === 0);
    const last = groups[groups.length - 1];
    if (empty && last?.empty === true && last.blocks.length < BATCH_BLOCKS) {
      last.blocks.push(...level);
    } else {
      groups.push({ blocks: level, empty });
    }
    i = j;
  }
  return groups;
}
