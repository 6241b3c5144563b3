/**
 * `ChainIndex`: keeps index.sqlite (store/indexStore.ts) in step with the
 * block database's best cut, for the explorer.
 *
 * - **Deferred** while the node catches up with its peers ({@link ChainIndex.defer}):
 *   cut changes are not indexed one by one (a sync inserts thousands of
 *   blocks, and indexing each in its own step cost a sixth of it); when the
 *   sync ends, a *resume* catches up in the background as after a restart.
 *   Blocks that were on the best cut only for a while in between are not
 *   indexed as orphans (a rebuild does that).
 * - **Live**: every cut change (`BlockDb.onCutChange`) is queued and
 *   applied in the background, in order, in short steps (the event loop
 *   runs between them, so a block of maximum gas does not hold the node for
 *   the whole of its indexing): on each chain, the index's best blocks above
 *   the fork point that the new branch does not hold are marked orphaned
 *   (their transactions stop counting: the account counts are taken back),
 *   then the added blocks are indexed, {@link LIVE_STEP_TRANSACTIONS}
 *   commands per index transaction with the block's own row written last,
 *   or, when the index has them already as orphans (a branch coming back),
 *   marked best again. Reading the index ({@link ChainIndex.store},
 *   {@link ChainIndex.status}) first applies whatever is queued, so a
 *   reader never sees it behind the block database or a block half
 *   indexed. A block half indexed when the node stopped (its commands'
 *   rows without its block row) is indexed again from the start.
 * - **Catching up**, in the background in steps of `stepBlocks` blocks (one
 *   transaction each, the event loop runs between steps), while the node
 *   serves; cut changes meanwhile are queued and applied, in order, after it:
 *   - a *rebuild* when the file is new, of another format, network or
 *     genesis, or an earlier rebuild did not finish: the index is emptied and
 *     every stored block of every chain is indexed, orphaned when it is not
 *     on its chain's best chain;
 *   - a *resume* otherwise (the node stopped between a block and its index
 *     write, or the blocks were restored): per chain, from the highest
 *     height where the index's best block is the block database's, up to
 *     the cut.
 * {@link ChainIndex.status} reports "catching up, N of M blocks", and each pass
 * is reported to the node's catching-up status (the app's banner) as it runs.
 * A failure while applying a cut change is logged and answered with a
 * resume, so the index never stays behind silently.
 * @module
 */
import { rmSync } from "node:fs";
import type { BlockHeader } from "../chain/blockHeader.ts";
import type { PayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import type { CatchUpReporter, CatchUpTask } from "../runtime/catchUpStatus.ts";
import type { BlockDb, CutChange } from "../store/blockDb.ts";
import type { ScanStart } from "../store/blockStore.ts";
import {
  type IndexBlockRow,
  type IndexEventRow,
  type IndexModuleRow,
  IndexStore,
  type IndexTxRow,
} from "../store/indexStore.ts";
import type { OpenDatabaseOptions } from "../store/sqlDatabase.ts";
import { blockEntries, blockRowOf, transactionEntries } from "./blockEntries.ts";
import { ExplorerError, ExplorerErrorCode } from "./errors.ts";

/** The index's format: a file of another format is rebuilt. */
export const INDEX_FORMAT = 1;

const DEFAULT_STEP_BLOCKS = 256;

/**
 * Commands of a live block indexed per index transaction: a block of
 * maximum gas (about 250 transfers) is indexed in several steps of a few
 * milliseconds each instead of one that held the event loop for about
 * 100 ms (`npm run bench -- exec`, `health_p99_ms_block_exec`).
 */
export const LIVE_STEP_TRANSACTIONS = 32;

/** How long one background step of live indexing may run before it yields, ms (default). */
const LIVE_STEP_BUDGET_MS = 4;

export type IndexStatus = {
  readonly state: "catching-up" | "ready";
  readonly indexedBlocks: number;
  readonly totalBlocks: number;
  readonly message: string;
  readonly format: number;
};

export type ChainIndexLog = {
  info?(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
};

/** What a pass is called in the catching-up banner. */
export const INDEX_REBUILD_TASK = "Rebuilding the explorer index";
export const INDEX_RESUME_TASK = "Updating the explorer index";

export type ChainIndexOptions = OpenDatabaseOptions & {
  /** The index.sqlite file (beside blocks.sqlite). */
  readonly path: string;
  readonly blocks: BlockDb;
  /** Blocks per catch-up step (default 256). */
  readonly stepBlocks?: number | undefined;
  /**
   * How long one background step of live indexing may run before it yields,
   * ms (default 4; at least one unit runs per step, so 0 gives one index
   * transaction per turn of the event loop, as tests of the steps need).
   */
  readonly liveStepMs?: number | undefined;
  readonly log?: ChainIndexLog | undefined;
  readonly catchUp?: CatchUpReporter | undefined;
};

type ResumeRange = { readonly chainId: number; next: number; readonly top: number };

/** A live cut change being applied: its orphans marked, its added blocks indexed one by one. */
type LiveChange = {
  readonly change: CutChange;
  orphansMarked: boolean;
  /** The added blocks not yet (fully) indexed, in indexing order. */
  readonly blocks: BlockHeader[];
  /** The first of `blocks` while its commands are read and written in steps. */
  current: { readonly payload: PayloadWithOutputs; next: number } | undefined;
};

type Pass =
  | {
      readonly kind: "rebuild";
      readonly chains: readonly number[];
      chain: number;
      start: ScanStart;
    }
  | { readonly kind: "resume"; readonly ranges: readonly ResumeRange[]; range: number };

const META_FORMAT = "format";
const META_NETWORK = "network";
const META_GENESIS = "genesis";
const META_COMPLETE = "complete";
/** The block live indexing is writing in several transactions (its block row comes last). */
const META_PARTIAL = "partial";

const numberFormat = new Intl.NumberFormat("en-US");

/**
 * index.sqlite, opened; a file that cannot be opened (not a database, or
 * written by a newer Weft) is removed and made anew: the index holds nothing
 * the blocks do not, and the node must start without it.
 */
function openOrReplace(options: ChainIndexOptions): IndexStore {
  try {
    return IndexStore.open(options.path, options);
  } catch (e) {
    options.log?.warn("explorer index unreadable; rebuilding it", {
      path: options.path,
      error: e instanceof Error ? e.message : String(e),
    });
    for (const side of ["", "-wal", "-shm", "-journal"]) {
      rmSync(`${options.path}${side}`, { force: true });
    }
    return IndexStore.open(options.path, options);
  }
}

export class ChainIndex {
  readonly #store: IndexStore;
  readonly #blocks: BlockDb;
  readonly #stepBlocks: number;
  readonly #liveStepMs: number;
  readonly #log: ChainIndexLog | undefined;
  readonly #catchUp: CatchUpReporter | undefined;
  #task: CatchUpTask | undefined;
  /** Cut changes not applied yet, oldest first (the first may be half applied: {@link #live}). */
  readonly #queue: CutChange[] = [];
  #live: LiveChange | undefined;
  readonly #waiters: (() => void)[] = [];
  #unsubscribe: (() => void) | undefined;
  #pass: Pass | undefined;
  #passDone = 0;
  #passTotal = 0;
  #blockCount: number;
  #scheduled = false;
  #closed = false;
  /** Cut changes are not followed (defer). */
  #deferred = false;
  /** A resume is due once the running pass and its queue are done (defer ended meanwhile). */
  #resumeDue = false;

  private constructor(store: IndexStore, options: ChainIndexOptions) {
    this.#store = store;
    this.#blocks = options.blocks;
    this.#stepBlocks = Math.max(1, options.stepBlocks ?? DEFAULT_STEP_BLOCKS);
    this.#liveStepMs = Math.max(0, options.liveStepMs ?? LIVE_STEP_BUDGET_MS);
    this.#log = options.log;
    this.#catchUp = options.catchUp;
    this.#blockCount = store.blockCount();
  }

  /**
   * Opens (creating when missing) the index of `blocks`, starts following its
   * cut changes and, when the index is behind, catching up in the background.
   * An unreadable file is replaced (and rebuilt).
   * @throws {StoreError} STORE_OPEN_FAILED when not even a new file can be made.
   */
  static open(options: ChainIndexOptions): ChainIndex {
    const store = openOrReplace(options);
    const index = new ChainIndex(store, options);
    index.#unsubscribe = options.blocks.onCutChange((change) => index.#onCutChange(change));
    index.#plan();
    return index;
  }

  /** Where the index stands (the explorer API's status). */
  status(): IndexStatus {
    this.#applyQueued();
    if (this.catchingUp) {
      const total = Math.max(this.#passTotal, this.#passDone);
      return {
        state: "catching-up",
        indexedBlocks: this.#passDone,
        totalBlocks: total,
        message: `catching up, ${numberFormat.format(this.#passDone)} of ${numberFormat.format(total)} blocks`,
        format: INDEX_FORMAT,
      };
    }
    return {
      state: "ready",
      indexedBlocks: this.#blockCount,
      totalBlocks: this.#blockCount,
      message: "up to date",
      format: INDEX_FORMAT,
    };
  }

  get catchingUp(): boolean {
    return this.#pass !== undefined || this.#deferred || this.#resumeDue;
  }

  /**
   * Stops (`true`) or resumes (`false`) following cut changes one by one:
   * the node defers the index while it catches up with its peers, and the
   * index catches up in the background afterwards (a resume). Idempotent.
   */
  defer(on: boolean): void {
    if (this.#closed || on === this.#deferred) return;
    this.#deferred = on;
    if (on) return;
    if (this.#pass !== undefined || this.#queue.length > 0) {
      this.#resumeDue = true;
      return;
    }
    this.#resume();
  }

  /** Plans a resume from where the index holds the best chain (nothing when in step). */
  #resume(): void {
    this.#resumeDue = false;
    try {
      this.#planResume();
    } catch (e) {
      this.#fail(e);
      return;
    }
    if (!this.catchingUp) for (const w of this.#waiters.splice(0)) w();
  }

  /**
   * index.sqlite, with every cut change queued so far applied first (a
   * reader never sees the index behind the block database's cut, unless a
   * catching-up pass runs: {@link status}).
   */
  get store(): IndexStore {
    this.#applyQueued();
    return this.#store;
  }

  /** Resolves once the index has caught up (at once when it is in step). */
  caughtUp(): Promise<void> {
    if (!this.catchingUp || this.#closed) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Stops following the cut and closes index.sqlite (idempotent). */
  close(): void {
    if (this.#closed) return;
    this.#applyQueued();
    this.#closed = true;
    this.#unsubscribe?.();
    this.#pass = undefined;
    this.#queue.length = 0;
    this.#live = undefined;
    this.#endTask();
    this.#store.close();
    for (const w of this.#waiters.splice(0)) w();
  }

  get isOpen(): boolean {
    return !this.#closed;
  }

  /** @throws {ExplorerError} EXPLORER_CLOSED after {@link close}. */
  requireOpen(): void {
    if (this.#closed) {
      throw new ExplorerError(
        { code: ExplorerErrorCode.Closed },
        "the explorer index is closed: the node is shutting down",
      );
    }
  }

  // ---- planning

  #genesisKey(): string {
    return [...this.#blocks.genesis.values()].map((h) => h.hash).join(",");
  }

  #plan(): void {
    const s = this.#store;
    const current =
      s.meta(META_FORMAT) === String(INDEX_FORMAT) &&
      s.meta(META_NETWORK) === this.#blocks.version.name &&
      s.meta(META_GENESIS) === this.#genesisKey() &&
      s.meta(META_COMPLETE) === "1";
    if (current) this.#planResume();
    else this.#planRebuild();
  }

  #planRebuild(): void {
    this.#store.transaction(() => {
      this.#store.clear();
      this.#store.setMeta(META_FORMAT, String(INDEX_FORMAT));
      this.#store.setMeta(META_NETWORK, this.#blocks.version.name);
      this.#store.setMeta(META_GENESIS, this.#genesisKey());
    });
    this.#blockCount = 0;
    const chains = [...this.#blocks.genesis.keys()].sort((a, b) => a - b);
    this.#startPass(
      { kind: "rebuild", chains, chain: 0, start: { kind: "height", height: 0 } },
      this.#blocks.store.headerCount(),
    );
  }

  #planResume(): void {
    const ranges: ResumeRange[] = [];
    this.#store.transaction(() => {
      this.#dropPartial();
      for (const [chainId, head] of this.#blocks.cut()) {
        const from = this.#commonHeight(chainId, head);
        for (const row of this.#store.bestBlocksAbove(chainId, from)) this.#setOrphaned(row, true);
        if (head.height > from) ranges.push({ chainId, next: from + 1, top: head.height });
      }
    });
    const total = ranges.reduce((n, r) => n + (r.top - r.next + 1), 0);
    if (total > 0) this.#startPass({ kind: "resume", ranges, range: 0 }, total);
  }

  /** The highest height of `chainId` where the index's best block is the best chain's (genesis height − 1: none). */
  #commonHeight(chainId: number, head: BlockHeader): number {
    const genesisHeight = this.#blocks.genesis.get(chainId)?.height ?? 0;
    const indexed = this.#store.bestHead(chainId);
    if (indexed === undefined) return genesisHeight - 1;
    for (let h = Math.min(indexed.height, head.height); h >= genesisHeight; h--) {
      const best = this.#blocks.ancestorAt(head, h);
      if (best === undefined) break;
      const row = this.#store.block(best.hash);
      if (row !== undefined && !row.orphaned) return h;
    }
    return genesisHeight - 1;
  }

  #startPass(pass: Pass, total: number): void {
    this.#pass = pass;
    this.#passDone = 0;
    this.#passTotal = total;
    this.#log?.info?.("explorer index catching up", { kind: pass.kind, blocks: total });
    this.#task?.end();
    this.#task = this.#catchUp?.begin(
      pass.kind === "rebuild" ? INDEX_REBUILD_TASK : INDEX_RESUME_TASK,
      total,
    );
    this.#schedule();
  }

  #endTask(): void {
    this.#task?.end();
    this.#task = undefined;
  }

  #schedule(): void {
    if (this.#scheduled || this.#closed) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#step();
    });
  }

  // ---- catching up

  #step(): void {
    if (this.#closed) return;
    try {
      const pass = this.#pass;
      if (pass !== undefined) {
        const finished = this.#store.transaction(() =>
          pass.kind === "rebuild" ? this.#rebuildStep(pass) : this.#resumeStep(pass),
        );
        this.#task?.progress(this.#passDone, Math.max(this.#passTotal, this.#passDone));
        if (!finished) {
          this.#schedule();
          return;
        }
        if (pass.kind === "rebuild") this.#store.setMeta(META_COMPLETE, "1");
        this.#pass = undefined;
        this.#endTask();
        this.#log?.info?.("explorer index up to date", { blocks: this.#blockCount });
        if (!this.catchingUp) for (const w of this.#waiters.splice(0)) w();
      }
      // The cut changes queued meanwhile or since, in order, for a few milliseconds.
      const until = performance.now() + this.#liveStepMs;
      while (this.#queue.length > 0) {
        this.#liveUnit();
        if (performance.now() >= until) break;
      }
      // A resume is due once the queue is done (the defer ended meanwhile).
      if (this.#queue.length === 0 && this.#resumeDue && !this.#deferred) {
        this.#resumeDue = false;
        this.#planResume();
        if (!this.catchingUp) for (const w of this.#waiters.splice(0)) w();
      }
    } catch (e) {
      this.#fail(e);
      return;
    }
    if (this.#queue.length > 0) this.#schedule();
  }

  /** One step of a rebuild; true when every chain is done. */
  #rebuildStep(pass: Extract<Pass, { kind: "rebuild" }>): boolean {
    const store = this.#blocks.store;
    let budget = this.#stepBlocks;
    while (budget > 0 && pass.chain < pass.chains.length) {
      const chainId = pass.chains[pass.chain] as number;
      const rows = store.scanHeaders(chainId, pass.start, Number.MAX_SAFE_INTEGER, budget);
      for (const r of rows) {
        const h = r.header;
        this.#indexBlock(h, store.bestChainHash(chainId, h.height) !== h.hash);
        this.#passDone++;
      }
      budget -= rows.length;
      const last = rows[rows.length - 1];
      if (last === undefined || budget > 0) {
        pass.chain++;
        pass.start = { kind: "height", height: 0 };
      } else {
        pass.start = { kind: "exclusive", height: last.header.height, hash: last.header.hash };
      }
    }
    return pass.chain >= pass.chains.length;
  }

  /** One step of a resume; true when every range is done. */
  #resumeStep(pass: Extract<Pass, { kind: "resume" }>): boolean {
    let budget = this.#stepBlocks;
    while (budget > 0 && pass.range < pass.ranges.length) {
      const r = pass.ranges[pass.range] as ResumeRange;
      const head = this.#blocks.cut().get(r.chainId);
      while (budget > 0 && r.next <= r.top) {
        const h = head === undefined ? undefined : this.#blocks.ancestorAt(head, r.next);
        // A branch switch since the plan: the queued cut change indexes it.
        if (h !== undefined) this.#indexBlock(h, false);
        r.next++;
        budget--;
        this.#passDone++;
      }
      if (r.next > r.top) pass.range++;
    }
    return pass.range >= pass.ranges.length;
  }

  #fail(e: unknown): void {
    this.#log?.warn("explorer index failed; catching up from the block database", {
      error: e instanceof Error ? (e.stack ?? e.message) : String(e),
    });
    this.#pass = undefined;
    this.#queue.length = 0;
    this.#live = undefined;
    // The plan below reads the cut as it is now: no other resume is due.
    this.#resumeDue = false;
    this.#endTask();
    if (this.#closed) return;
    try {
      this.#plan();
    } catch (again) {
      this.#log?.warn("explorer index cannot catch up", {
        error: again instanceof Error ? again.message : String(again),
      });
    }
  }

  // ---- following the cut

  #onCutChange(change: CutChange): void {
    if (this.#closed) return;
    // Deferred: the resume after it reads the cut as it will then be.
    if (this.#deferred || this.#resumeDue) return;
    this.#queue.push(change);
    this.#schedule();
  }

  /** Applies every queued cut change now (a reader is about to look; not while a pass runs). */
  #applyQueued(): void {
    if (this.#closed || this.#pass !== undefined) return;
    try {
      while (this.#queue.length > 0) this.#liveUnit();
    } catch (e) {
      this.#fail(e);
    }
  }

  /**
   * One index transaction of the oldest queued cut change: its orphans, an
   * added block known already, or the next {@link LIVE_STEP_TRANSACTIONS}
   * commands of an added block (its block row with the last of them).
   */
  #liveUnit(): void {
    let live = this.#live;
    if (live === undefined) {
      live = {
        change: this.#queue[0] as CutChange,
        orphansMarked: false,
        blocks: [],
        current: undefined,
      };
      this.#live = live;
    }
    if (!live.orphansMarked) {
      const l = live;
      this.#store.transaction(() => this.#markOrphans(l));
      live.orphansMarked = true;
      return;
    }
    const header = live.blocks[0];
    if (header === undefined) {
      this.#queue.shift();
      this.#live = undefined;
      return;
    }
    let current = live.current;
    if (current === undefined) {
      const existing = this.#store.block(header.hash);
      const payload = existing === undefined ? this.#blocks.payload(header.payloadHash) : undefined;
      if (existing !== undefined || payload === undefined) {
        if (existing?.orphaned === true) {
          this.#store.transaction(() => this.#setOrphaned(existing, false));
        }
        if (existing === undefined) {
          this.#log?.warn("explorer index: a block's payload is missing", { hash: header.hash });
        }
        live.blocks.shift();
        return;
      }
      current = { payload, next: 0 };
      live.current = current;
    }
    const c = current;
    const count = c.payload.transactions.length;
    const end = Math.min(c.next + LIVE_STEP_TRANSACTIONS, count);
    const part = transactionEntries(header, c.payload, c.next, end);
    const done = this.#store.transaction(() => {
      // Written in several transactions: the index notes the block until its row is written.
      const split = count > LIVE_STEP_TRANSACTIONS;
      if (split && c.next === 0) this.#store.setMeta(META_PARTIAL, header.hash);
      this.#writeRows(part.transactions, part.events, part.modules, header.chainId, false);
      if (end < count) return false;
      this.#store.insertBlock(blockRowOf(header, c.payload, false));
      if (split) this.#store.setMeta(META_PARTIAL, "");
      this.#blockCount++;
      return true;
    });
    c.next = end;
    if (done) {
      live.current = undefined;
      live.blocks.shift();
    }
  }

  /**
   * On each chain of a cut change, the index's best blocks above the fork
   * point that the new branch does not hold become orphans; notes the added
   * blocks to index.
   */
  #markOrphans(live: LiveChange): void {
    const { change } = live;
    const added = new Map<number, BlockHeader[]>();
    for (const h of change.added) {
      const list = added.get(h.chainId);
      if (list === undefined) added.set(h.chainId, [h]);
      else list.push(h);
    }
    for (const [chainId, head] of change.cut) {
      const list = added.get(chainId) ?? [];
      const first = list[0];
      const keep = first === undefined ? head.height : first.height - 1;
      const hashes = new Set<string>(list.map((h) => h.hash));
      for (const row of this.#store.bestBlocksAbove(chainId, keep)) {
        if (!hashes.has(row.hash)) this.#setOrphaned(row, true);
      }
      live.blocks.push(...list);
    }
  }

  // ---- rows

  /** Indexes a block, or sets the orphaned flag of one indexed already. */
  #indexBlock(header: BlockHeader, orphaned: boolean): void {
    const payload = this.#blocks.payload(header.payloadHash);
    if (payload === undefined) {
      this.#log?.warn("explorer index: a block's payload is missing", { hash: header.hash });
      return;
    }
    const entries = blockEntries(header, payload, orphaned);
    const s = this.#store;
    if (!s.insertBlock(entries.block)) {
      const existing = s.block(header.hash);
      if (existing !== undefined && existing.orphaned !== orphaned) {
        this.#setOrphaned(existing, orphaned);
      }
      return;
    }
    this.#writeRows(
      entries.transactions,
      entries.events,
      entries.modules,
      header.chainId,
      orphaned,
    );
    this.#blockCount++;
  }

  /** Writes a block's command, event and module rows (some or all) and counts them unless orphaned. */
  #writeRows(
    transactions: readonly IndexTxRow[],
    events: readonly IndexEventRow[],
    modules: readonly IndexModuleRow[],
    chainId: number,
    orphaned: boolean,
  ): void {
    const s = this.#store;
    for (const t of transactions) s.insertTransaction(t);
    for (const e of events) s.insertEvent(e);
    for (const m of modules) s.insertModule(m);
    if (!orphaned) this.#count(transactions, events, chainId, 1);
  }

  /**
   * Removes the rows of the block live indexing had half written when it
   * stopped (the node stopped, or a failure): its block row was never
   * written, its commands were counted as on the best chain.
   */
  #dropPartial(): void {
    const s = this.#store;
    const hash = s.meta(META_PARTIAL);
    if (hash === undefined || hash === "") return;
    const transactions = s.transactionsOfBlock(hash);
    const chainId = transactions[0]?.chainId;
    if (chainId !== undefined) this.#count(transactions, s.eventsOfBlock(hash), chainId, -1);
    s.deleteBlockRows(hash);
    s.setMeta(META_PARTIAL, "");
  }

  #setOrphaned(row: IndexBlockRow, orphaned: boolean): void {
    this.#store.setOrphaned(row.hash, orphaned);
    this.#count(
      this.#store.transactionsOfBlock(row.hash),
      this.#store.eventsOfBlock(row.hash),
      row.chainId,
      orphaned ? -1 : 1,
    );
  }

  /** Adds (`sign` 1) or takes back (−1) a block's transactions and transfers in the account counts. */
  #count(
    transactions: readonly IndexTxRow[],
    events: readonly IndexEventRow[],
    chainId: number,
    sign: 1 | -1,
  ): void {
    const s = this.#store;
    for (const t of transactions) {
      if (t.sender !== "") s.countAccount(t.sender, chainId, sign, 0);
    }
    for (const e of events) {
      if (e.fromAccount !== null) s.countAccount(e.fromAccount, chainId, 0, sign);
      if (e.toAccount !== null && e.toAccount !== e.fromAccount) {
        s.countAccount(e.toAccount, chainId, 0, sign);
      }
    }
  }
}
