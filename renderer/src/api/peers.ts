/**
 * The node's peers and sync status, from the app-private route `GET /app/api/peers`
 * (docs/p2p.md): each peer's address, how it was learned, the network check, its cut
 * height, latency, misbehaviour score and ban; and the sync state the catching-up banner shows.
 * @module
 */
import { array, type Decoded, decode, natural, record, reject, string } from "./decode.ts";

export type PeerRow = {
  readonly address: string;
  readonly source: string;
  readonly network: "unchecked" | "ok" | "refused";
  readonly cutHeight: number | null;
  readonly latencyMs: number | null;
  readonly score: number;
  /** ISO 8601, or null when not banned. */
  readonly bannedUntil: string | null;
  readonly lastError: string | null;
};

export type SyncState = {
  readonly state: "alone" | "catching-up" | "synced";
  readonly cutHeight: number;
  readonly peerCutHeight: number | null;
  readonly blocksLeft: number;
  readonly blocksPerSecond: number;
  readonly secondsLeft: number | null;
  readonly miningHeld: boolean;
};

export type PeersStatus = { readonly peers: readonly PeerRow[]; readonly sync: SyncState };

function nullable<T>(x: unknown, f: (x: unknown) => T): T | null {
  return x === null ? null : f(x);
}

/** One peer's row at `path` of an answer. */
export function peerRowAt(x: unknown, path: string): PeerRow {
  const r = record(x, path);
  const network = string(r.network, `${path}.network`);
  if (network !== "unchecked" && network !== "ok" && network !== "refused") {
    return reject(`${path}.network`, "unchecked, ok or refused");
  }
  return {
    address: string(r.address, `${path}.address`),
    source: string(r.source, `${path}.source`),
    network,
    cutHeight: nullable(r.cutHeight, (v) => natural(v, `${path}.cutHeight`)),
    latencyMs: nullable(r.latencyMs, (v) => natural(v, `${path}.latencyMs`)),
    score: natural(r.score, `${path}.score`),
    bannedUntil: nullable(r.bannedUntil, (v) => string(v, `${path}.bannedUntil`)),
    lastError: nullable(r.lastError, (v) => string(v, `${path}.lastError`)),
  };
}

/** The answer to adding a peer (`POST /app/api/peers`): its row. */
export function parsePeerRow(raw: unknown): Decoded<PeerRow> {
  return decode(raw, (x) => peerRowAt(x, "peer"));
}

export function parsePeersStatus(raw: unknown): Decoded<PeersStatus> {
  return decode(raw, (x) => {
    const o = record(x, "peers");
    const peers = array(o.peers, "peers").map((p, i) => peerRowAt(p, `peers[${i}]`));
    const s = record(o.sync, "sync");
    const state = string(s.state, "sync.state");
    if (state !== "alone" && state !== "catching-up" && state !== "synced") {
      return reject("sync.state", "alone, catching-up or synced");
    }
    return {
      peers,
      sync: {
        state,
        cutHeight: natural(s.cutHeight, "sync.cutHeight"),
        peerCutHeight: nullable(s.peerCutHeight, (v) => natural(v, "sync.peerCutHeight")),
        blocksLeft: natural(s.blocksLeft, "sync.blocksLeft"),
        blocksPerSecond: natural(s.blocksPerSecond, "sync.blocksPerSecond"),
        secondsLeft: nullable(s.secondsLeft, (v) => natural(v, "sync.secondsLeft")),
        miningHeld: s.miningHeld === true,
      },
    };
  });
}
