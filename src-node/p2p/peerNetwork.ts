/**
 * `PeerNetwork`: the node among its peers (docs/p2p.md).
 * - Peers come from the configuration (`p2p.peers`) and the app
 *   (`addPeer`); addresses learnt from peers (peer exchange, `GET /cut/peer`,
 *   and the `origin` of cuts published to this node) are candidates until
 *   this node has verified them itself: the address's `/info` names this
 *   network and proves an identity (nodeIdentity.ts), the address is not a
 *   local one it may not be pointed at (addressPolicy.ts), and its own cut
 *   reads. All are kept in the {@link PeerBook} (bounded, persisted once
 *   verified, scores, bans, backoff).
 * - A peer is used once its `/info` names this node's network and proves an
 *   identity; one of another network is refused with a log line.
 * - Misbehaviour is charged to the peer this node was talking to when it
 *   happened, never to an address named in a request (a published cut's
 *   `origin` only says where to look: its cut is a hint, and a hint its
 *   origin cannot back costs that origin nothing; {@link PeerNetwork.penalize}).
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
 *   behind its peers and blocks from them are validated fast enough
 *   (catchUpGate.ts), and resumed when it has caught up or the catch-up
 *   stalls.
 * @module
 */
import { cutHeight } from "../chain/cut.ts";
import { cutToJson } from "../chain/cutJson.ts";
import { compareCuts, type OrderedCut, orderOf } from "../chain/cutOrder.ts";
import type { NetworkVersion } from "../chain/networkVersion.ts";
import { isNodeError } from "../errors/nodeError.ts";
import type { CommandService } from "../mempool/commandService.ts";
import type { BuiltInMiner } from "../mining/builtInMiner.ts";
import type { CatchUpReporter } from "../runtime/catchUpStatus.ts";
import type { BlockDb } from "../store/blockDb.ts";
import { type AddressPolicy, resolveScopes, scopeAllowed, scopeOfHost } from "./addressPolicy.ts";
import { CatchUpGate } from "./catchUpGate.ts";
import { badCut, type MisbehaviourKind, P2pError, P2pErrorCode } from "./errors.ts";
import { NodeIdentity } from "./nodeIdentity.ts";
import { type PeerAddress, parsePeerAddress, peerKey } from "./peerAddress.ts";
import { PeerBook, type PeerCandidate, type PeerEntry, type PeerView } from "./peerBook.ts";
import { PeerClient } from "./peerClient.ts";
import { type PeerCut, parsePeerCut, publishedCut } from "./peerCut.ts";
import { SyncCatchUp } from "./syncCatchUp.ts";
import { type SyncOptions, syncFromPeer } from "./syncFromPeer.ts";
import type { SyncStatus } from "./syncProgress.ts";

export type PeerNetworkLog = {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
};

/**
 * What the peer network runs with. `peers`, `maxPeers` and `allowPrivateAddresses` are
 * named as the node's `p2p` options (config/nodeOptionTable.ts), which node.ts passes
 * whole: an option of the table is read here under its own name.
 */
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
  /** Most peers kept (peerBook.ts). */
  readonly maxPeers: number;
  /** `dataDir/<network>/peers.json` (absent: the book is not persisted). */
  readonly file?: string | undefined;
  readonly log?: PeerNetworkLog | undefined;
  /** How often each peer's cut is read, ms (default 1,000). */
  readonly pollIntervalMs?: number | undefined;
  /** Where catching up with peers is reported (the app's banner; syncCatchUp.ts). */
  readonly catchUp?: CatchUpReporter | undefined;
  /**
   * Called when the node starts (`true`) and stops (`false`) catching up
   * with its peers; node.ts defers the explorer index meanwhile.
   */
  readonly onCatchingUp?: ((catchingUp: boolean) => void) | undefined;
  /** How often each peer's peers are asked for, ms (default 30,000). */
  readonly exchangeIntervalMs?: number | undefined;
  /** Request timeout, ms (default 10,000). */
  readonly requestTimeoutMs?: number | undefined;
  /** This node's identity, proved to peers in `/info` (default: a key in memory only). */
  readonly identity?: NodeIdentity | undefined;
  /** `p2p.allow-private-addresses`: learnt loopback, link-local and private addresses taken. */
  readonly allowPrivateAddresses?: boolean | undefined;
};

/**
 * Misbehaviour points by kind (docs/p2p.md): an invalid block bans at once,
 * a false cut twice within about 17 minutes, a malformed cut or page five
 * times in a row (points fade: peerBook.ts).
 */
const MISBEHAVIOUR_POINTS: Readonly<Record<MisbehaviourKind, number>> = {
  "invalid-block": 100,
  "false-cut": 60,
  oversized: 50,
  malformed: 20,
};
/** How long hints naming a peer are ignored after one it could not back, ms. */
const HINT_PAUSE_MS = 5_000;
/** Candidates verified at the same time. */
const VERIFYING_AT_ONCE = 4;

function orderedPeerCut(cut: PeerCut): OrderedCut {
  return { weight: cut.weight, heads: cut.heads.values() };
}

/**
 * A cut to sync towards: `attested` when this node read it from the peer
 * itself (`GET /cut`), not when it came in a published cut naming the peer
 * as its origin (anyone can write that).
 */
type Target = { readonly cut: PeerCut; readonly attested: boolean };
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
  readonly #targets = new Map<string, Target>();
  readonly #verifying = new Set<string>();
  /** When a published cut naming the peer as origin last failed, ms (by peer key). */
  readonly #hintFailedAt = new Map<string, number>();
  readonly identity: NodeIdentity;
  readonly #allowPrivate: boolean;
  readonly #polling = new Set<string>();
  readonly #pushing = new Set<string>();
  readonly #pushAgain = new Set<string>();
  readonly #exchangedAt = new Map<string, number>();
  readonly #gossiped = new Map<number, Set<string>>();
  readonly #gossipChains = new Set<number>();
  readonly #gate = new CatchUpGate();
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
    this.identity = options.identity ?? NodeIdentity.ephemeral();
    this.#allowPrivate = options.allowPrivateAddresses ?? false;
    this.book = new PeerBook({ file: options.file, maxPeers: options.maxPeers });
    this.book.load();
    options.peers.forEach((text, i) => {
      this.book.add(parsePeerAddress(text, `configured peer ${i}`), "configured");
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
    // Learnt peers read back from peers.json pass today's address policy too (a file written
    // before it, or under another configuration, may name local addresses).
    const policy = this.#policy();
    for (const p of this.book.all()) {
      const scope = scopeOfHost(p.address.hostname);
      const learnt = p.source === "learned" || p.source === "inbound";
      if (learnt && scope !== undefined && !scopeAllowed(scope, policy)) this.book.remove(p.key);
    }
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
    for (const c of this.book.candidates()) {
      if (this.#verifying.size >= VERIFYING_AT_ONCE) break;
      if (!this.#verifying.has(c.key)) void this.#verifyCandidate(c);
    }
    this.#followStatus();
  }

  /** Which learnt addresses may be connected to (addressPolicy.ts). */
  #policy(): AddressPolicy {
    const self = this.#self;
    return {
      allowPrivate: this.#allowPrivate,
      selfScope: self === undefined ? undefined : scopeOfHost(self.hostname),
    };
  }

  /**
   * The peer's `/info` with a fresh challenge: its network (refused when
   * another) and the identity it proves (none: not usable; this node's own:
   * it is this node under another name).
   * @returns whether the peer can be used.
   */
  async #checkInfo(entry: PeerEntry, client: PeerClient): Promise<boolean> {
    const info = await client.info();
    if (info.network !== this.version.name) {
      this.#refuse(entry, info.network);
      return false;
    }
    if (info.nodeId === undefined) {
      this.book.failed(entry, "its /info proves no node identity (nodeId, nodeProof)");
      return false;
    }
    if (info.nodeId === this.identity.nodeId) {
      this.#log?.info(`p2p: ${entry.key} is this node itself; forgotten`);
      this.book.remove(entry.key);
      return false;
    }
    entry.nodeId = info.nodeId;
    entry.network = "ok";
    this.#log?.info(`p2p: peer ${entry.key} connected (network ${info.network})`);
    return true;
  }

  /** Checks the peer's network and identity (once), reads its cut, and now and then its peers. */
  async #poll(entry: PeerEntry): Promise<void> {
    this.#polling.add(entry.key);
    const client = this.#client(entry);
    try {
      if (entry.network === "unchecked") {
        if (!(await this.#checkInfo(entry, client))) return;
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
      this.#offer(entry, cut, true);
      const now = Date.now();
      if (now - (this.#exchangedAt.get(entry.key) ?? 0) >= this.#exchangeIntervalMs) {
        this.#exchangedAt.set(entry.key, now);
        for (const address of await client.peers(this.book.maxPeers)) {
          this.#learn(address, "learned", entry.key);
        }
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

  /**
   * An address a peer told of: a candidate until verified (never used,
   * persisted or handed on before), unless it names a local address this
   * node may not be pointed at.
   */
  #learn(address: PeerAddress, source: PeerCandidate["source"], from: string): void {
    const key = peerKey(address);
    if (this.#self !== undefined && key === peerKey(this.#self)) return;
    const scope = scopeOfHost(address.hostname);
    if (scope !== undefined && !scopeAllowed(scope, this.#policy())) return;
    this.book.addCandidate(address, source, from);
  }

  /**
   * Verifies a candidate as its own peer would be: the address is allowed
   * (a host name by what it resolves to), its `/info` names this network and
   * proves an identity other than this node's, and its cut reads. Then it is
   * a peer (if the book has room); otherwise it is dropped, and not taken
   * again for a while. Nothing is charged to anyone: no peer vouched for it.
   */
  async #verifyCandidate(candidate: PeerCandidate): Promise<void> {
    this.#verifying.add(candidate.key);
    const client = new PeerClient(candidate.address, this.version, this.#timeoutMs);
    try {
      const scopes = await resolveScopes(candidate.address.hostname);
      const policy = this.#policy();
      if (!scopes.every((scope) => scopeAllowed(scope, policy))) {
        this.book.dropCandidate(candidate.key, true);
        return;
      }
      const info = await client.info();
      if (
        info.network !== this.version.name ||
        info.nodeId === undefined ||
        info.nodeId === this.identity.nodeId
      ) {
        this.book.dropCandidate(candidate.key, true);
        return;
      }
      const cut = await client.cut();
      if (cut.instance !== this.version.name || this.#closed) {
        this.book.dropCandidate(candidate.key, true);
        return;
      }
      const entry = this.book.admit(candidate, info.nodeId);
      if (entry === undefined) {
        // No room: it may be offered again later.
        this.book.dropCandidate(candidate.key, false);
        return;
      }
      this.#clients.set(entry.key, client);
      this.#log?.info(
        `p2p: peer ${entry.key} connected (${candidate.source}, verified: network ${info.network}, node ${info.nodeId})`,
      );
      entry.cutHeight = cut.height;
      this.#publishTo(entry);
      this.#offer(entry, cut, true);
    } catch {
      this.book.dropCandidate(candidate.key, true);
    } finally {
      this.#verifying.delete(candidate.key);
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
    // Its claim is not believed any more (the status counts it again at its next cut).
    entry.cutHeight = undefined;
    this.#log?.warn(
      banned
        ? `p2p: peer ${entry.key} banned until ${new Date(entry.bannedUntil ?? 0).toISOString()}: ${reason}`
        : `p2p: peer ${entry.key} misbehaved (score ${this.book.scoreOf(entry)}): ${reason}`,
    );
  }

  /**
   * Charges misbehaviour another area saw (`/private`: a false entity key, a
   * missing receipt) to the peer this node talked to at `address` (the
   * address it opened the connection to, as `PeerClient.address` or
   * `PrivatePeerClient.address` hold it; never an address a request named):
   * `kind` decides the points (docs/p2p.md), `reason` is logged and shown.
   * An address that is not a peer in the book (a candidate, an unknown one)
   * is charged nothing.
   * @returns whether the peer was in the book (and so charged).
   */
  penalize(address: PeerAddress, kind: MisbehaviourKind, reason: string): boolean {
    const entry = this.book.get(peerKey(address));
    if (entry === undefined) return false;
    this.#misbehaved(entry, MISBEHAVIOUR_POINTS[kind], reason);
    return true;
  }

  /** A peer's cut: synced towards when preferred to this node's (chain/cutOrder.ts). */
  #offer(entry: PeerEntry, cut: PeerCut, attested: boolean): void {
    const order = compareCuts(orderedPeerCut(cut), orderOf(this.#blocks.cut()));
    // As good as this node's: the peer keeps up, which is what makes it worth keeping.
    if (attested && order >= 0) this.book.useful(entry);
    if (order <= 0) return;
    // A hint does not replace what the peer itself said, unless it is preferred.
    const known = this.#targets.get(entry.key);
    if (known?.attested === true && !attested) {
      if (compareCuts(orderedPeerCut(cut), orderedPeerCut(known.cut)) <= 0) return;
    }
    this.#targets.set(entry.key, { cut, attested });
    void this.#runSync();
  }

  async #runSync(): Promise<void> {
    if (this.#syncing) return;
    this.#syncing = true;
    try {
      while (this.#targets.size > 0 && !this.#closed && this.#blocks.isOpen) {
        const [key, target] = [...this.#targets].reduce((a, b) =>
          compareCuts(orderedPeerCut(b[1].cut), orderedPeerCut(a[1].cut)) > 0 ? b : a,
        );
        this.#targets.delete(key);
        const entry = this.book.get(key);
        if (entry === undefined || this.book.isBanned(key)) continue;
        if (compareCuts(orderedPeerCut(target.cut), orderOf(this.#blocks.cut())) <= 0) continue;
        // Before the first block: the banner, the miner held, the index deferred.
        this.#followStatus();
        let synced = 0;
        try {
          const inserted = await syncFromPeer({
            blocks: this.#blocks,
            insertBlock: this.#insertBlock,
            batch: this.#batch,
            peer: this.#client(entry),
            target: target.cut,
            stopped: () => this.#closed,
            onProgress: (n) => {
              this.#gate.validated(Date.now(), n - synced);
              synced = n;
              this.#onProgress();
            },
          });
          if (inserted > 0) {
            this.book.useful(entry);
            entry.credible = true;
          } else if (target.attested) {
            // Nothing came of what it said itself: its word no longer counts as a catch-up.
            entry.credible = false;
          }
        } catch (e) {
          if (target.attested) entry.credible = false;
          if (
            !target.attested &&
            e instanceof P2pError &&
            e.type.code === P2pErrorCode.PeerMisbehaved &&
            e.type.kind === "false-cut"
          ) {
            // A published cut naming this peer as its origin, which it cannot back: anyone can
            // write an origin, so the peer is charged nothing; what it says itself is read now.
            this.#hintFailedAt.set(entry.key, Date.now());
            if (!this.#polling.has(entry.key)) void this.#poll(entry);
          } else {
            this.#failed(entry, e);
          }
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
   * `PUT /cut`: a peer publishes its cut. Its `origin` is only a claim
   * (anyone can write any address there), so the cut is a hint: when the
   * origin is a verified peer, this node syncs towards it fetching from that
   * peer, and a hint the peer cannot back costs the peer nothing (what it
   * says itself is read at once instead); an origin this node does not know
   * yet is a candidate, verified before anything it says is used.
   * `from`: the address the request came from (candidates are bounded per
   * source).
   * @throws {P2pError} P2P_BAD_CUT (malformed, no origin), P2P_WRONG_NETWORK,
   *   P2P_PEER_BANNED.
   */
  receiveCut(body: unknown, from = "unknown"): void {
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
    const entry = this.book.get(key);
    if (entry === undefined) {
      this.#learn(cut.origin, "inbound", `inbound ${from}`);
      return;
    }
    if (entry.network !== "ok" || !this.book.usable().includes(entry)) return;
    // A hint its origin could not back lately: not taken again until the peer's next cut.
    if ((this.#hintFailedAt.get(key) ?? 0) > Date.now() - HINT_PAUSE_MS) return;
    this.#offer(entry, cut, false);
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

  /**
   * Sync status: what the app's catching-up banner shows. `catching-up`
   * only while a peer claims a cut more than two blocks per chain ahead and
   * blocks are validated fast enough (catchUpGate.ts): a claim alone holds
   * nothing for long. A peer whose last announced cut gave no block when
   * synced towards is not counted until one of its cuts does.
   */
  status(): SyncStatus {
    const ours = this.#blocks.isOpen ? cutHeight(this.#blocks.cut()) : 0;
    const connected = this.book.usable().filter((p) => p.network === "ok");
    // Only the claims of peers whose last announced cut gave blocks (or that were not tried yet).
    const heights = connected.flatMap((p) =>
      p.cutHeight === undefined || !p.credible ? [] : [p.cutHeight],
    );
    const peerCutHeight = heights.length === 0 ? null : Math.max(...heights);
    const blocksLeft = peerCutHeight === null ? 0 : Math.max(0, peerCutHeight - ours);
    const now = Date.now();
    const rate = Math.round(this.#gate.rate(now));
    const few = 2 * this.version.chainIds.length;
    const catchingUp = this.#gate.catchingUp(now, connected.length > 0 && blocksLeft > few);
    return {
      state: connected.length === 0 ? "alone" : catchingUp ? "catching-up" : "synced",
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
