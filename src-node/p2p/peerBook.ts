/**
 * The peer book: every peer this node knows, what it knows of each (its cut
 * height, latency, node identity, misbehaviour score, ban, failures and the
 * backoff before the next attempt), and the addresses it was told of but has
 * not verified yet (docs/p2p.md "What a peer can and cannot make this node
 * do").
 *
 * - **Peers** are configured (`--peer`), added in the app, or verified: this
 *   node fetched the address's `/info` (network, identity proof) and cut
 *   itself. Learned and inbound ones only while fewer than `p2p.max-peers`
 *   peers are known (configured and added ones count too); when full, a
 *   newly verified peer takes the place of the one least recently useful (a
 *   cut at least as good as this node's, or blocks it gave), if that one has
 *   been of no use for {@link EVICT_IDLE_MS}. Configured and added peers are
 *   never evicted. Peers are persisted (`peers.json`: addresses, sources,
 *   bans) so a restart knows them again.
 * - **Candidates**: addresses learnt from a peer's `GET /cut/peer` or a
 *   published cut's `origin`, kept apart until verified: never persisted,
 *   never handed to other peers, at most {@link CANDIDATES_PER_SOURCE} per
 *   source (the peer that named them, or the address a published cut came
 *   from) and {@link MAX_CANDIDATES} in all, the oldest making room. One that
 *   fails verification is not taken again for {@link REFUSE_MS}.
 *
 * Misbehaviour (Bitcoin Core's rule): a peer collects points for what it
 * sends that is invalid; at {@link BAN_SCORE} it is banned for
 * {@link BAN_MS} (logged, listed) and nothing it sends is taken meanwhile.
 * Points fade (halved every {@link SCORE_HALF_LIFE_MS}), so an occasional
 * bad answer is forgiven while a steady stream of them bans; a ban that ends
 * starts the peer again from 0 (as a reconnecting peer does in Bitcoin Core,
 * and as its discouragement expires).
 * @module
 */

import { readFileSync } from "node:fs";
import { isNodeError } from "../errors/nodeError.ts";
import { isSystemError } from "../errors/systemError.ts";
import { writePrivateFile } from "../store/privateFiles.ts";
import { type PeerAddress, parsePeerAddress, peerKey } from "./peerAddress.ts";

/** Points at which a peer is banned. */
export const BAN_SCORE = 100;
/** How long a ban lasts, ms. */
export const BAN_MS = 60 * 60 * 1000;
/** Misbehaviour points halve every this many ms (exponential decay). */
export const SCORE_HALF_LIFE_MS = 30 * 60 * 1000;
/** The longest wait between attempts to reach a failing peer, ms. */
export const MAX_BACKOFF_MS = 60_000;
/** Unverified addresses kept per source. */
export const CANDIDATES_PER_SOURCE = 8;
/** Unverified addresses kept in all. */
export const MAX_CANDIDATES = 64;
/** How long an address that failed verification is not taken again, ms. */
export const REFUSE_MS = 10 * 60 * 1000;
/** Addresses remembered as refused (the oldest forgotten first). */
const MAX_REFUSED = 1024;
/** A learned or inbound peer of no use for this long may make room for a new one, ms. */
export const EVICT_IDLE_MS = 2 * 60 * 1000;

/** How the node came to know a peer. */
export type PeerSource = "configured" | "added" | "learned" | "inbound";

/** An address a peer told this node of, not verified yet. */
export type PeerCandidate = {
  readonly address: PeerAddress;
  readonly key: string;
  readonly source: "learned" | "inbound";
  /** Who told: the peer's key (peer exchange), or the address a published cut came from. */
  readonly from: string;
  /** ms since the UNIX epoch. */
  readonly seenAt: number;
};

export type PeerEntry = {
  readonly address: PeerAddress;
  readonly key: string;
  source: PeerSource;
  /** `ok` once `/info` named this network and proved an identity; `refused` for another network. */
  network: "unchecked" | "ok" | "refused";
  /** The identity its `/info` proved (p2p/nodeIdentity.ts), once verified. */
  nodeId: string | undefined;
  /** ms since the UNIX epoch: when it last gave a cut at least as good as this node's, or blocks. */
  lastUsefulAt: number;
  /**
   * Whether its claims count in the sync status (peerNetwork.ts): false once a
   * sync towards a cut it announced itself gave no block, true again when one does.
   */
  credible: boolean;
  cutHeight: number | undefined;
  latencyMs: number | undefined;
  /** Misbehaviour points as of {@link PeerEntry.scoreAt} (read through `PeerBook.scoreOf`: they fade). */
  score: number;
  /** ms since the UNIX epoch: when `score` was last brought up to date. */
  scoreAt: number;
  /** ms since the UNIX epoch. */
  bannedUntil: number | undefined;
  failures: number;
  /** ms since the UNIX epoch: no request before. */
  nextAttemptAt: number;
  lastError: string | undefined;
};

/** What the app lists for a peer (`/app/api/peers`). */
export type PeerView = {
  readonly address: string;
  readonly source: PeerSource;
  readonly network: PeerEntry["network"];
  readonly nodeId: string | null;
  readonly cutHeight: number | null;
  readonly latencyMs: number | null;
  readonly score: number;
  /** ISO 8601, or null when not banned. */
  readonly bannedUntil: string | null;
  readonly failures: number;
  readonly lastError: string | null;
};

export type PeerBookOptions = {
  /** `dataDir/<network>/peers.json` (undefined: not persisted). */
  readonly file?: string | undefined;
  readonly maxPeers: number;
  /** ms since the UNIX epoch (tests). */
  readonly now?: (() => number) | undefined;
};

type Persisted = {
  peers: { address: string; source: PeerSource }[];
  bans: { address: string; until: number }[];
};

export class PeerBook {
  readonly maxPeers: number;
  readonly #file: string | undefined;
  readonly #now: () => number;
  readonly #peers = new Map<string, PeerEntry>();
  /** Unverified addresses, oldest first (a Map keeps insertion order). */
  readonly #candidates = new Map<string, PeerCandidate>();
  /** Addresses that failed verification: key → until (ms), oldest first. */
  readonly #refused = new Map<string, number>();
  /** Bans of peers no longer in the book (removed), kept so they are not taken back. */
  readonly #bans = new Map<string, number>();

  constructor(options: PeerBookOptions) {
    this.maxPeers = options.maxPeers;
    this.#file = options.file;
    this.#now = options.now ?? Date.now;
  }

  /** Reads `peers.json`; a missing or unreadable file is an empty book (the file is ours). */
  load(): void {
    if (this.#file === undefined) return;
    let data: Persisted;
    try {
      data = JSON.parse(readFileSync(this.#file, "utf8")) as Persisted;
    } catch {
      return;
    }
    const now = this.#now();
    for (const b of Array.isArray(data?.bans) ? data.bans : []) {
      if (typeof b?.address === "string" && typeof b.until === "number" && b.until > now) {
        this.#bans.set(b.address, b.until);
      }
    }
    for (const p of Array.isArray(data?.peers) ? data.peers : []) {
      try {
        const source = ["configured", "added", "learned", "inbound"].includes(p?.source)
          ? p.source
          : "learned";
        // Configured peers come from the configuration of this start, not the file.
        this.add(
          parsePeerAddress(p?.address, "peers.json"),
          source === "configured" ? "learned" : source,
        );
        // Each is verified again (its /info) before it is used.
      } catch (e) {
        if (!isNodeError(e)) throw e;
        // An entry that is no peer address is dropped: the file is ours, and the book
        // refills from the configuration and the peers.
      }
    }
  }

  #save(): void {
    if (this.#file === undefined) return;
    const data: Persisted = {
      peers: [...this.#peers.values()].map((p) => ({ address: p.key, source: p.source })),
      bans: [
        ...[...this.#peers.values()].flatMap((p) =>
          p.bannedUntil === undefined ? [] : [{ address: p.key, until: p.bannedUntil }],
        ),
        ...[...this.#bans].map(([address, until]) => ({ address, until })),
      ],
    };
    try {
      writePrivateFile(this.#file, `${JSON.stringify(data, null, 2)}\n`);
    } catch (e) {
      if (!isSystemError(e)) throw e;
      // Not fatal: the book is rebuilt from the configuration and peers next time.
    }
  }

  get size(): number {
    return this.#peers.size;
  }

  get(key: string): PeerEntry | undefined {
    return this.#peers.get(key);
  }

  all(): PeerEntry[] {
    return [...this.#peers.values()];
  }

  isBanned(key: string): boolean {
    const now = this.#now();
    const until = this.#peers.get(key)?.bannedUntil ?? this.#bans.get(key);
    return until !== undefined && until > now;
  }

  /**
   * Adds a peer (configured and added ones always; learned and inbound ones,
   * verified or read back from `peers.json`, while fewer than `maxPeers`
   * peers are known). Knowing it already changes only its source (to
   * `configured` or `added`).
   * @returns the entry, or undefined when there was no room.
   */
  add(address: PeerAddress, source: PeerSource): PeerEntry | undefined {
    const key = peerKey(address);
    const known = this.#peers.get(key);
    if (known !== undefined) {
      if (source === "configured" || source === "added") known.source = source;
      return known;
    }
    const always = source === "configured" || source === "added";
    if (!always && this.#peers.size >= this.maxPeers) return undefined;
    const entry: PeerEntry = {
      address,
      key,
      source,
      network: "unchecked",
      nodeId: undefined,
      lastUsefulAt: this.#now(),
      credible: true,
      cutHeight: undefined,
      latencyMs: undefined,
      score: 0,
      scoreAt: this.#now(),
      bannedUntil: this.#bans.get(key),
      failures: 0,
      nextAttemptAt: 0,
      lastError: undefined,
    };
    this.#bans.delete(key);
    this.#candidates.delete(key);
    this.#peers.set(key, entry);
    this.#save();
    return entry;
  }

  /**
   * An address a peer told of (peer exchange, a published cut's origin),
   * kept until verified: not when it is a peer already, banned, or refused
   * lately; the oldest of the same source, else the oldest of all, makes room.
   * @returns whether it is (now) a candidate.
   */
  addCandidate(address: PeerAddress, source: PeerCandidate["source"], from: string): boolean {
    const key = peerKey(address);
    if (this.#peers.has(key) || this.isBanned(key) || this.isRefused(key)) return false;
    if (this.#candidates.has(key)) return true;
    const same = [...this.#candidates.values()].filter((c) => c.from === from);
    if (same.length >= CANDIDATES_PER_SOURCE)
      this.#candidates.delete((same[0] as PeerCandidate).key);
    if (this.#candidates.size >= MAX_CANDIDATES) {
      const oldest = this.#candidates.keys().next().value;
      if (oldest !== undefined) this.#candidates.delete(oldest);
    }
    this.#candidates.set(key, { address, key, source, from, seenAt: this.#now() });
    return true;
  }

  /** The unverified addresses, oldest first. */
  candidates(): PeerCandidate[] {
    return [...this.#candidates.values()];
  }

  /** Forgets a candidate; `refuse`: not taken again for {@link REFUSE_MS}. */
  dropCandidate(key: string, refuse: boolean): void {
    this.#candidates.delete(key);
    if (!refuse) return;
    this.#refused.delete(key);
    this.#refused.set(key, this.#now() + REFUSE_MS);
    if (this.#refused.size > MAX_REFUSED) {
      const oldest = this.#refused.keys().next().value;
      if (oldest !== undefined) this.#refused.delete(oldest);
    }
  }

  /** Whether the address failed verification lately. */
  isRefused(key: string): boolean {
    const until = this.#refused.get(key);
    if (until === undefined) return false;
    if (until > this.#now()) return true;
    this.#refused.delete(key);
    return false;
  }

  /**
   * A verified candidate becomes a peer (network `ok`, its identity), in a
   * free place or the place of the learned or inbound peer least recently
   * useful, when that one has been of no use for {@link EVICT_IDLE_MS}.
   * @returns the entry, or undefined when there was no room.
   */
  admit(candidate: PeerCandidate, nodeId: string): PeerEntry | undefined {
    this.#candidates.delete(candidate.key);
    if (this.#peers.has(candidate.key) || this.isBanned(candidate.key)) return undefined;
    if (this.#peers.size >= this.maxPeers) {
      const now = this.#now();
      const idle = this.all()
        .filter((p) => p.source === "learned" || p.source === "inbound")
        .filter((p) => p.lastUsefulAt <= now - EVICT_IDLE_MS || this.isBanned(p.key))
        .sort((a, b) => a.lastUsefulAt - b.lastUsefulAt)[0];
      if (idle === undefined) return undefined;
      this.remove(idle.key);
    }
    const entry = this.add(candidate.address, candidate.source);
    if (entry === undefined) return undefined;
    entry.network = "ok";
    entry.nodeId = nodeId;
    return entry;
  }

  /** The peer gave a cut at least as good as this node's, or blocks. */
  useful(p: PeerEntry): void {
    p.lastUsefulAt = this.#now();
  }

  /** Forgets a peer (a ban stays). @returns whether it was known. */
  remove(key: string): boolean {
    const p = this.#peers.get(key);
    if (p === undefined) return false;
    if (p.bannedUntil !== undefined && p.bannedUntil > this.#now())
      this.#bans.set(key, p.bannedUntil);
    this.#peers.delete(key);
    this.#save();
    return true;
  }

  /** Peers a request may go to now: not banned, not of another network, not backing off. */
  usable(): PeerEntry[] {
    const now = this.#now();
    return this.all().filter(
      (p) =>
        p.network !== "refused" &&
        (p.bannedUntil === undefined || p.bannedUntil <= now) &&
        p.nextAttemptAt <= now,
    );
  }

  /** A request succeeded: failures and backoff reset (a banned peer's reason stays shown). */
  succeeded(p: PeerEntry, latencyMs?: number): void {
    p.failures = 0;
    p.nextAttemptAt = 0;
    if (!this.isBanned(p.key)) p.lastError = undefined;
    if (latencyMs !== undefined) p.latencyMs = Math.round(latencyMs);
  }

  /** A request failed: the next attempt waits 1 s, 2 s, 4 s, … up to a minute. */
  failed(p: PeerEntry, reason: string): void {
    p.failures++;
    p.lastError = reason;
    p.nextAttemptAt = this.#now() + Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (p.failures - 1));
  }

  /**
   * Brings the peer's points up to now: a ban that has ended is lifted and
   * its points start again from 0; otherwise they fade by half every
   * {@link SCORE_HALF_LIFE_MS}.
   */
  #refresh(p: PeerEntry, now: number): void {
    if (p.bannedUntil !== undefined && p.bannedUntil <= now) {
      p.bannedUntil = undefined;
      p.score = 0;
      p.scoreAt = now;
      this.#save();
      return;
    }
    const elapsed = now - p.scoreAt;
    if (elapsed <= 0) return;
    p.score *= 0.5 ** (elapsed / SCORE_HALF_LIFE_MS);
    // Less than half a point is none (and the value stops creeping towards 0).
    if (p.score < 0.5) p.score = 0;
    p.scoreAt = now;
  }

  /** The peer's misbehaviour points now (faded), rounded to a whole point. */
  scoreOf(p: PeerEntry): number {
    this.#refresh(p, this.#now());
    return Math.round(p.score);
  }

  /**
   * Adds misbehaviour points (to what is left of earlier ones).
   * @returns true when this banned the peer.
   */
  penalize(p: PeerEntry, points: number, reason: string): boolean {
    const now = this.#now();
    this.#refresh(p, now);
    p.score += points;
    p.lastError = reason;
    // Whole points, as shown: five quick malformed answers are 100, not 99.99.
    if (Math.round(p.score) < BAN_SCORE || p.bannedUntil !== undefined) return false;
    p.bannedUntil = now + BAN_MS;
    this.#save();
    return true;
  }

  view(p: PeerEntry): PeerView {
    const now = this.#now();
    return {
      address: p.key,
      source: p.source,
      network: p.network,
      nodeId: p.nodeId ?? null,
      cutHeight: p.cutHeight ?? null,
      latencyMs: p.latencyMs ?? null,
      score: this.scoreOf(p),
      bannedUntil:
        p.bannedUntil !== undefined && p.bannedUntil > now
          ? new Date(p.bannedUntil).toISOString()
          : null,
      failures: p.failures,
      lastError: p.lastError ?? null,
    };
  }
}
