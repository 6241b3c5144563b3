/**
 * `PeerNetwork`: the node among its peers (docs/p2p.md).
 * - Peers come from the configuration (`p2p.peers`), the app (`addPeer`),
 *   peer exchange (`GET /cut/peer` of each peer, bounded by
 *   `p2p.max-peers`) and peers that publish their cut to this node; they are
 *   kept in the {@link PeerBook} (persisted, scores, bans, backoff).
 * - A peer is used once its `/info` names this node's network; one of
 *   another network is refused with a log line.
 * - Every poll interval each usable peer's `/cut` is read; on every change
 *   of this node's cut, the new cut is published to every peer (`PUT /cut`,
 *   one request in flight per peer, the latest cut sent next), so new blocks
 *   reach peers in milliseconds.
 * - A peer cut heavier than this node's starts a sync (syncFromPeer.ts), one
 *   at a time, towards the heaviest cut offered; a peer that sends an
 *   invalid block is banned.
 * - Commands new in the mempool are handed to every peer's `/send`
 *   (validated again there; the mempool's idempotent adds end the echo).
 * - The built-in miner is held while the node is more than a few blocks
 *   behind its peers, and resumed when it has caught up.
 * @module
 */
import { cutHeight, cutWeight } from "../chain/cut.ts";
import { cutToJson } from "../chain/cutJson.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { CommandService } from "../mempool/commandService.ts";
import type { BuiltInMiner } from "../mining/builtInMiner.ts";
import type { BlockDb } from "../store/blockDb.ts";
import { badCut, type MisbehaviourKind, P2pError, P2pErrorCode } from "./errors.ts";
import { type PeerAddress, parsePeerAddress, peerKey } from "./peerAddress.ts";
import { PeerBook, type PeerEntry, type PeerView } from "./peerBook.ts";
import { PeerClient } from "./peerClient.ts";
import { type PeerCut, parsePeerCut, publishedCut } from "./peerCut.ts";
import { SyncCatchUp, type SyncCatchUpReporter } from "./syncCatchUp.ts";
import { type SyncOptions, syncFromPeer } from "./syncFromPeer.ts";
import { SyncProgress, type SyncStatus } from "./syncProgress.ts";

export type PeerNetworkLog = {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
};

export type PeerNetworkOptions = {
  readonly version: NetworkVersion;
  readonly blocks: BlockDb;
  /** How peers' blocks are stored (default `blocks.insertBlock`; syncFromPeer.ts). */
  readonly insertBlock?: SyncOptions["insertBlock"];
  /** One transaction around inserts of blocks without transactions (syncFromPeer.ts). */
  readonly batch?: SyncOptions["batch"];
  /** Mempool gossip (absent: none). */
  readonly commands?: CommandService | undefined;
  /** Held while catching up (absent: none). */
  readonly miner?: BuiltInMiner | undefined;
  /** `HOST:PORT` of the configured peers. */
  readonly peers: readonly string[];
  readonly maxPeers: number;
  /** `dataDir/<network>/peers.json` (absent: the book is not persisted). */
  readonly file?: string | undefined;
  readonly log?: PeerNetworkLog | undefined;
  /** How often each peer's cut is read, ms (default 1,000). */
  readonly pollIntervalMs?: number | undefined;
  /** Where catching up with peers is reported (the app's banner; syncCatchUp.ts). */
  readonly catchUp?: SyncCatchUpReporter | undefined;
  /**
   * Called when the node starts (`true`) and stops (`false`) catching up
   * with its peers; node.ts defers the explorer index meanwhile.
   */
  readonly onCatchingUp?: ((catchingUp: boolean) => void) | undefined;
  /** How often each peer's peers are asked for, ms (default 30,000). */
  readonly exchangeIntervalMs?: number | undefined;
  /** Request timeout, ms (default 10,000). */
  readonly requestTimeoutMs?: number | undefined;
};

/**
 * Misbehaviour points by kind (docs/p2p.md): an invalid block bans at once,
 * a false cut twice within about 17 minutes, a malformed cut or page five
 * times in a row (points fade: peerBook.ts).
 */
const MISBEHAVIOUR_POINTS: Readonly<Record<MisbehaviourKind, number>> = {
  "invalid-block": 100,
  "false-cut": 60,
  malformed: 20,
};
/** How often catching-up progress goes to the log, ms. */
const PROGRESS_LOG_MS = 5_000;

/** The wire form of a pending command, for a peer's `/send`. */
function wireCommand(c: { cmd: string; hash: string; sigs: readonly string[] }): unknown {
  return {
    hash: c.hash,
    sigs: c.sigs.map((sig) => ({ sig: sig === "" ? null : sig })),
    cmd: c.cmd,
  };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class PeerNetwork {
  readonly book: PeerBook;
  readonly version: NetworkVersion;
  readonly #blocks: BlockDb;
  readonly #insertBlock: SyncOptions["insertBlock"];
  readonly #batch: SyncOptions["batch"];
  readonly #commands: CommandService | undefined;
  readonly #miner: BuiltInMiner | undefined;
  readonly #log: PeerNetworkLog | undefined;
  readonly #pollIntervalMs: number;
  readonly #exchangeIntervalMs: number;
  readonly #timeoutMs: number | undefined;
  readonly #clients = new Map<string, PeerClient>();
  readonly #targets = new Map<string, PeerCut>();
  readonly #polling = new Set<string>();
  readonly #pushing = new Set<string>();
  readonly #pushAgain = new Set<string>();
  readonly #exchangedAt = new Map<string, number>();
  readonly #gossiped = new Map<number, Set<string>>();
  readonly #gossipChains = new Set<number>();
  readonly #progress = new SyncProgress();
  readonly #catchUp: SyncCatchUp | undefined;
  readonly #unsubscribe: (() => void)[] = [];
  #self: PeerAddress | undefined;
  #timer: NodeJS.Timeout | undefined;
  #syncing = false;
  #closed = false;
  #miningHeld = false;
  readonly #onCatchingUp: ((catchingUp: boolean) => void) | undefined;
  /** What `onCatchingUp` was last told. */
  #catchingUp = false;
  #lastProgressLog = 0;
  #gossipScheduled = false;
  /** A cut change during a sync, published once the window's blocks are in. */
  #publishPending = false;

  constructor(options: PeerNetworkOptions) {
    this.version = options.version;
    this.#blocks = options.blocks;
    this.#insertBlock = options.insertBlock;
    this.#batch = options.batch;
    this.#commands = options.commands;
    this.#miner = options.miner;
    this.#onCatchingUp = options.onCatchingUp;
    this.#log = options.log;
    this.#pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.#exchangeIntervalMs = options.exchangeIntervalMs ?? 30_000;
    this.#timeoutMs = options.requestTimeoutMs;
    this.#catchUp = options.catchUp === undefined ? undefined : new SyncCatchUp(options.catchUp);
    this.book = new PeerBook({ file: options.file, maxPeers: options.maxPeers });
    this.book.load();
    options.peers.forEach((text, i) => {
      this.book.add(parsePeerAddress(text, `p2p.peers[${i}]`), "configured");
    });
  }

  /** This node's own peer address (what it publishes as the origin of its cuts). */
  get self(): PeerAddress | undefined {
    return this.#self;
  }

  /** Starts polling, publishing and gossip; `self`: where peers reach this node. */
  start(self: PeerAddress): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#self = self;
    // A configured address that is this node itself is no peer.
    this.book.remove(peerKey(self));
    this.#unsubscribe.push(this.#blocks.onCutChange(() => this.#cutChanged()));
    if (this.#commands !== undefined) {
      this.#unsubscribe.push(
        this.#commands.mempool.onAdded((chainId) => this.#scheduleGossip(chainId)),
      );
    }
    this.#timer = setInterval(() => this.#tick(), this.#pollIntervalMs);
    this.#timer.unref();
    this.#tick();
  }

  close(): void {
    this.#closed = true;
    this.#catchUp?.end();
    if (this.#timer !== undefined) clearInterval(this.#timer);
    for (const u of this.#unsubscribe.splice(0)) u();
  }

  #client(entry: PeerEntry): PeerClient {
    let c = this.#clients.get(entry.key);
    if (c === undefined) {
      c = new PeerClient(entry.address, this.version, this.#timeoutMs);
      this.#clients.set(entry.key, c);
    }
    return c;
  }

  #tick(): void {
    if (this.#closed) return;
    for (const entry of this.book.usable()) {
      if (!this.#polling.has(entry.key)) void this.#poll(entry);
    }
    this.#followStatus();
  }

  /** Checks the peer's network (once), reads its cut, and now and then its peers. */
  async #poll(entry: PeerEntry): Promise<void> {
    this.#polling.add(entry.key);
    const client = this.#client(entry);
    try {
      if (entry.network === "unchecked") {
        const network = await client.network();
        if (network !== this.version.name) {
          this.#refuse(entry, network);
          return;
        }
        entry.network = "ok";
        this.#log?.info(`p2p: peer ${entry.key} connected (network ${network})`);
        // A new peer learns this node's cut without waiting for the next block.
        this.#publishTo(entry);
      }
      const started = performance.now();
      const cut = await client.cut();
      this.book.succeeded(entry, performance.now() - started);
      // Banned while this request ran (a sync from it failed): nothing it says is taken.
      if (this.book.isBanned(entry.key)) return;
      if (cut.instance !== this.version.name) {
        this.#refuse(entry, cut.instance);
        return;
      }
      entry.cutHeight = cut.height;
      this.#offer(entry, cut);
      const now = Date.now();
      if (now - (this.#exchangedAt.get(entry.key) ?? 0) >= this.#exchangeIntervalMs) {
        this.#exchangedAt.set(entry.key, now);
        for (const address of await client.peers(this.book.maxPeers)) this.#learn(address);
      }
    } catch (e) {
      this.#failed(entry, e);
    } finally {
      this.#polling.delete(entry.key);
    }
  }

  #refuse(entry: PeerEntry, network: string): void {
    entry.network = "refused";
    entry.lastError = `network ${network}, not ${this.version.name}`;
    this.#log?.warn(
      `p2p: peer ${entry.key} refused: it runs network ${network}, this node runs ${this.version.name}`,
    );
  }

  #learn(address: PeerAddress): void {
    const key = peerKey(address);
    if (this.#self !== undefined && key === peerKey(this.#self)) return;
    if (this.book.get(key) !== undefined || this.book.isBanned(key)) return;
    if (this.book.add(address, "learned") !== undefined) {
      this.#log?.info(`p2p: learned peer ${key}`);
    }
  }

  #failed(entry: PeerEntry, e: unknown): void {
    if (e instanceof P2pError && e.type.code === P2pErrorCode.PeerMisbehaved) {
      this.#misbehaved(entry, MISBEHAVIOUR_POINTS[e.type.kind], e.message);
    } else if (isNodeError(e)) {
      this.book.failed(entry, e.message);
    } else {
      this.book.failed(entry, messageOf(e));
      this.#log?.warn(`p2p: peer ${entry.key}: ${messageOf(e)}`);
    }
  }

  #misbehaved(entry: PeerEntry, points: number, reason: string): void {
    const banned = this.book.penalize(entry, points, reason);
    this.#targets.delete(entry.key);
    this.#log?.warn(
      banned
        ? `p2p: peer ${entry.key} banned until ${new Date(entry.bannedUntil ?? 0).toISOString()}: ${reason}`
        : `p2p: peer ${entry.key} misbehaved (score ${this.book.scoreOf(entry)}): ${reason}`,
    );
  }

  /**
   * Misbehaviour another area saw on its own request to `address` (`/private`:
   * a false entity key or a missing receipt): scored against that peer as
   * this node's own findings are.
   */
  penalize(address: PeerAddress, kind: MisbehaviourKind, reason: string): void {
    const entry = this.book.get(peerKey(address));
    if (entry !== undefined) this.#misbehaved(entry, MISBEHAVIOUR_POINTS[kind], reason);
  }

  /** A peer's cut: synced towards when heavier than this node's. */
  #offer(entry: PeerEntry, cut: PeerCut): void {
    if (cut.weight <= cutWeight(this.#blocks.cut())) return;
    this.#targets.set(entry.key, cut);
    void this.#runSync();
  }

  async #runSync(): Promise<void> {
    if (this.#syncing) return;
    this.#syncing = true;
    try {
      while (this.#targets.size > 0 && !this.#closed && this.#blocks.isOpen) {
        const [key, cut] = [...this.#targets].reduce((a, b) => (b[1].weight > a[1].weight ? b : a));
        this.#targets.delete(key);
        const entry = this.book.get(key);
        if (entry === undefined || this.book.isBanned(key)) continue;
        if (cut.weight <= cutWeight(this.#blocks.cut())) continue;
        // Before the first block: the banner, the miner held, the index deferred.
        this.#followStatus();
        try {
          await syncFromPeer({
            blocks: this.#blocks,
            insertBlock: this.#insertBlock,
            batch: this.#batch,
            peer: this.#client(entry),
            target: cut,
            stopped: () => this.#closed,
            onProgress: () => this.#onProgress(),
          });
        } catch (e) {
          this.#failed(entry, e);
        }
      }
    } finally {
      this.#syncing = false;
      this.#followStatus();
      this.#flushPublish();
    }
  }

  #onProgress(): void {
    if (!this.#blocks.isOpen) return;
    this.#flushPublish();
    const now = Date.now();
    this.#progress.sample(now, cutHeight(this.#blocks.cut()));
    this.#followStatus();
    const s = this.status();
    if (s.state === "catching-up" && now - this.#lastProgressLog >= PROGRESS_LOG_MS) {
      this.#lastProgressLog = now;
      this.#log?.info(
        `p2p: catching up: cut height ${s.cutHeight} of ${s.peerCutHeight}, ${s.blocksLeft} blocks left, ${s.blocksPerSecond} blocks/s, ${s.secondsLeft ?? "?"} s left`,
      );
    }
  }

  /** A new best cut: published at once, or during a sync once per window rather than per block. */
  #cutChanged(): void {
    if (this.#syncing) this.#publishPending = true;
    else this.#publish();
  }

  #flushPublish(): void {
    if (!this.#publishPending) return;
    this.#publishPending = false;
    this.#publish();
  }

  /** Publishes this node's cut to every connected peer. */
  #publish(): void {
    if (this.#closed || this.#self === undefined) return;
    for (const entry of this.book.usable()) {
      if (entry.network === "ok") this.#publishTo(entry);
    }
  }

  #publishTo(entry: PeerEntry): void {
    if (this.#pushing.has(entry.key)) {
      this.#pushAgain.add(entry.key);
      return;
    }
    void this.#push(entry);
  }

  async #push(entry: PeerEntry): Promise<void> {
    const self = this.#self;
    if (self === undefined) return;
    this.#pushing.add(entry.key);
    try {
      do {
        this.#pushAgain.delete(entry.key);
        if (!this.#blocks.isOpen) return;
        const body = publishedCut(cutToJson(this.#blocks.cut(), this.version), self);
        await this.#client(entry).putCut(body);
      } while (this.#pushAgain.has(entry.key) && !this.#closed);
    } catch (e) {
      this.#failed(entry, e);
    } finally {
      this.#pushing.delete(entry.key);
    }
  }

  /**
   * `PUT /cut`: a peer publishes its cut.
   * @throws {P2pError} P2P_BAD_CUT (malformed, no origin), P2P_WRONG_NETWORK,
   *   P2P_PEER_BANNED, P2P_UNKNOWN_PEER (no room for another peer).
   */
  receiveCut(body: unknown): void {
    const cut = parsePeerCut(body, this.version.chainIds);
    if (cut.instance !== this.version.name) {
      throw new P2pError(
        {
          code: P2pErrorCode.WrongNetwork,
          peer: cut.origin === undefined ? "" : peerKey(cut.origin),
          expected: this.version.name,
          actual: cut.instance,
        },
        `instance: this node runs network ${this.version.name}, the cut is of ${cut.instance}`,
      );
    }
    if (cut.origin === undefined)
      throw badCut("origin", "missing: a published cut names its sender");
    const key = peerKey(cut.origin);
    if (this.#self !== undefined && key === peerKey(this.#self)) return;
    if (this.book.isBanned(key)) {
      const until = this.book.get(key)?.bannedUntil ?? 0;
      throw new P2pError(
        { code: P2pErrorCode.PeerBanned, peer: key, until },
        `peer ${key} is banned until ${new Date(until).toISOString()}`,
      );
    }
    const entry = this.book.get(key) ?? this.book.add(cut.origin, "inbound");
    if (entry === undefined) {
      throw new P2pError(
        { code: P2pErrorCode.UnknownPeer, peer: key },
        `Unknown peer ${key}: this node has no room for more peers (p2p.max-peers ${this.book.maxPeers})`,
      );
    }
    if (entry.network === "refused") return;
    if (entry.network === "unchecked") {
      entry.network = "ok";
      this.#log?.info(`p2p: peer ${key} connected (it published its cut)`);
    }
    entry.cutHeight = cut.height;
    this.#offer(entry, cut);
  }

  /** `GET /cut/peer`: the peers this node uses, for peer exchange. */
  peerAddresses(): PeerAddress[] {
    return this.book
      .all()
      .filter((p) => p.network === "ok" && !this.book.isBanned(p.key))
      .map((p) => p.address);
  }

  /** The peers for the app (`/app/api/peers`). */
  peers(): PeerView[] {
    return this.book.all().map((p) => this.book.view(p));
  }

  /**
   * Adds a peer from the app.
   * @throws {P2pError} P2P_BAD_PEER_ADDRESS
   */
  addPeer(text: unknown): PeerView {
    const address = parsePeerAddress(text, "address");
    if (this.#self !== undefined && peerKey(address) === peerKey(this.#self)) {
      throw new P2pError(
        { code: P2pErrorCode.BadPeerAddress, field: "address", reason: "this node itself" },
        `address: ${peerKey(address)} is this node itself`,
      );
    }
    const entry = this.book.add(address, "added") as PeerEntry;
    entry.nextAttemptAt = 0;
    if (!this.#polling.has(entry.key) && this.#self !== undefined) void this.#poll(entry);
    return this.book.view(entry);
  }

  /**
   * Removes a peer (it may come back through peer exchange unless banned).
   * @throws {P2pError} P2P_BAD_PEER_ADDRESS, P2P_UNKNOWN_PEER
   */
  removePeer(text: unknown): void {
    const key = peerKey(parsePeerAddress(text, "address"));
    this.#targets.delete(key);
    if (!this.book.remove(key)) {
      throw new P2pError({ code: P2pErrorCode.UnknownPeer, peer: key }, `no peer ${key}`);
    }
  }

  /** Sync status: what the app's catching-up banner shows. */
  status(): SyncStatus {
    const ours = this.#blocks.isOpen ? cutHeight(this.#blocks.cut()) : 0;
    const connected = this.book.usable().filter((p) => p.network === "ok");
    const heights = connected.flatMap((p) => (p.cutHeight === undefined ? [] : [p.cutHeight]));
    const peerCutHeight = heights.length === 0 ? null : Math.max(...heights);
    const blocksLeft = peerCutHeight === null ? 0 : Math.max(0, peerCutHeight - ours);
    const rate = Math.round(this.#progress.rate());
    const few = 2 * this.version.chainIds.length;
    return {
      state: connected.length === 0 ? "alone" : blocksLeft > few ? "catching-up" : "synced",
      cutHeight: ours,
      peerCutHeight,
      blocksLeft,
      blocksPerSecond: rate,
      secondsLeft: blocksLeft === 0 ? 0 : rate > 0 ? Math.ceil(blocksLeft / rate) : null,
      miningHeld: this.#miningHeld && this.#miner?.wanted === true,
    };
  }

  /** Tells `onCatchingUp` when the node starts or stops catching up. */
  #followCatchingUp(catchingUp: boolean): void {
    if (catchingUp === this.#catchingUp) return;
    this.#catchingUp = catchingUp;
    try {
      this.#onCatchingUp?.(catchingUp);
    } catch (e) {
      this.#log?.warn(`p2p: catching-up listener failed: ${messageOf(e)}`);
    }
  }

  /** Shows catching up in the app's banner while the node is behind its peers (syncCatchUp.ts). */
  #reportCatchUp(s: SyncStatus): void {
    if (this.#closed || !this.#blocks.isOpen) return;
    this.#catchUp?.update(s);
  }

  /**
   * Follows the sync status: the catching-up banner, and the built-in miner
   * held while the node is behind its peers, released once caught up.
   */
  #followStatus(): void {
    if (this.#closed) return;
    const s = this.status();
    this.#reportCatchUp(s);
    const behind = s.state === "catching-up";
    this.#followCatchingUp(behind);
    const miner = this.#miner;
    if (miner === undefined || behind === this.#miningHeld) return;
    this.#miningHeld = behind;
    if (miner.wanted) {
      this.#log?.info(
        behind
          ? "p2p: mining held while the node catches up with its peers"
          : "p2p: caught up; mining resumes",
      );
    }
    miner.hold(behind).catch((e: unknown) => {
      this.#log?.warn(`p2p: the miner did not ${behind ? "stop" : "resume"}: ${messageOf(e)}`);
    });
  }

  #scheduleGossip(chainId: number): void {
    if (this.#closed) return;
    this.#gossipChains.add(chainId);
    if (this.#gossipScheduled) return;
    this.#gossipScheduled = true;
    setImmediate(() => {
      this.#gossipScheduled = false;
      const chains = [...this.#gossipChains];
      this.#gossipChains.clear();
      for (const c of chains) this.#gossip(c);
    });
  }

  /** Hands the mempool's commands of `chainId` that peers have not been given yet to every peer. */
  #gossip(chainId: number): void {
    const commands = this.#commands;
    if (commands === undefined || this.#closed) return;
    const pending = commands.mempool.candidates(chainId).map((r) => r.command);
    let seen = this.#gossiped.get(chainId);
    if (seen === undefined || seen.size > 4 * pending.length + 1_000) {
      // Forget what left the mempool: keep only what is still pending and was sent.
      const still = new Set(pending.map((c) => c.hash));
      seen = new Set([...(seen ?? [])].filter((h) => still.has(h)));
      this.#gossiped.set(chainId, seen);
    }
    const fresh = pending.filter((c) => !(seen as Set<string>).has(c.hash));
    if (fresh.length === 0) return;
    for (const c of fresh) seen.add(c.hash);
    const peers = this.book.usable().filter((p) => p.network === "ok");
    for (const entry of peers) {
      const client = this.#client(entry);
      for (const c of fresh) {
        // One command per request: /send takes all or none, and a peer may hold some already.
        client.send(chainId, [wireCommand(c)]).catch((e: unknown) => {
          this.#log?.info(`p2p: peer ${entry.key} did not take ${c.hash}: ${messageOf(e)}`);
        });
      }
    }
  }
}
