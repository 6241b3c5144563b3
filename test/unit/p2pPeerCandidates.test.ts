/**
 * The peer book's candidates (docs/p2p.md "What a peer can and cannot make
 * this node do"): addresses a peer told of are kept apart from peers until
 * verified, bounded per source and in all (the oldest making room), never
 * persisted nor listed as peers; a verified one takes a free place or the
 * place of the learned peer least recently useful once it has been idle;
 * configured and added peers are never evicted; an address that failed
 * verification is not taken again for a while. An injected clock.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parsePeerAddress } from "../../src-node/p2p/peerAddress.ts";
import {
  CANDIDATES_PER_SOURCE,
  EVICT_IDLE_MS,
  MAX_CANDIDATES,
  PeerBook,
  type PeerCandidate,
  REFUSE_MS,
} from "../../src-node/p2p/peerBook.ts";

const at = (text: string) => parsePeerAddress(text, "test");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(maxPeers = 4) {
  let now = 1_700_000_000_000;
  const dir = mkdtempSync(join(tmpdir(), "weft-book-"));
  dirs.push(dir);
  const file = join(dir, "peers.json");
  const book = new PeerBook({ maxPeers, file, now: () => now });
  return {
    book,
    file,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

function candidate(book: PeerBook, key: string): PeerCandidate {
  const c = book.candidates().find((x) => x.key === key);
  if (c === undefined) throw new Error(`no candidate ${key}`);
  return c;
}

describe("peer book: candidates", () => {
  it("bounds candidates per source and in all, the oldest making room", () => {
    const { book } = setup();
    for (let i = 0; i < CANDIDATES_PER_SOURCE + 5; i++) {
      book.addCandidate(at(`127.0.0.1:${2000 + i}`), "inbound", "inbound 127.0.0.9");
    }
    const fromOne = book.candidates();
    expect(fromOne).toHaveLength(CANDIDATES_PER_SOURCE);
    // The newest stay.
    expect(fromOne.map((c) => c.key)).toContain(`127.0.0.1:${2000 + CANDIDATES_PER_SOURCE + 4}`);
    expect(fromOne.map((c) => c.key)).not.toContain("127.0.0.1:2000");
    for (let s = 0; s < 20; s++) {
      for (let i = 0; i < CANDIDATES_PER_SOURCE; i++) {
        book.addCandidate(at(`127.0.1.${s}:${3000 + i}`), "learned", `peer ${s}`);
      }
    }
    expect(book.candidates()).toHaveLength(MAX_CANDIDATES);
    // Peers: none of them, and peers.json names none of them.
    expect(book.size).toBe(0);
  });

  it("never persists a candidate; a verified one is a peer, persisted", () => {
    const { book, file } = setup();
    book.add(at("127.0.0.1:1000"), "configured");
    book.addCandidate(at("127.0.0.1:2000"), "learned", "127.0.0.1:1000");
    const saved = () => readFileSync(file, "utf8");
    expect(saved()).not.toContain("2000");
    const entry = book.admit(candidate(book, "127.0.0.1:2000"), "node-id");
    expect(entry).toMatchObject({ network: "ok", nodeId: "node-id", source: "learned" });
    expect(saved()).toContain("127.0.0.1:2000");
    expect(book.candidates()).toEqual([]);
  });

  it("makes room by evicting the learned peer least recently useful, once idle; never a configured one", () => {
    const { book, advance } = setup(3);
    const configured = book.add(at("127.0.0.1:1000"), "configured");
    const a = book.add(at("127.0.0.1:1001"), "learned");
    const b = book.add(at("127.0.0.1:1002"), "inbound");
    if (configured === undefined || a === undefined || b === undefined)
      throw new Error("not added");
    book.addCandidate(at("127.0.0.1:2000"), "learned", "x");
    // Everyone was useful lately: no room.
    expect(book.admit(candidate(book, "127.0.0.1:2000"), "n1")).toBeUndefined();
    advance(EVICT_IDLE_MS + 1);
    book.useful(a);
    book.useful(configured);
    book.addCandidate(at("127.0.0.1:2001"), "learned", "x");
    const admitted = book.admit(candidate(book, "127.0.0.1:2001"), "n2");
    expect(admitted?.key).toBe("127.0.0.1:2001");
    // b was the least recently useful learned or inbound peer.
    expect(book.get(b.key)).toBeUndefined();
    expect(book.get(a.key)).toBeDefined();
    // Configured ones stay however idle they are.
    advance(10 * EVICT_IDLE_MS);
    for (let i = 0; i < 5; i++) {
      book.addCandidate(at(`127.0.0.1:${2100 + i}`), "learned", `y${i}`);
      book.admit(candidate(book, `127.0.0.1:${2100 + i}`), `m${i}`);
      advance(EVICT_IDLE_MS + 1);
    }
    expect(book.get(configured.key)).toBe(configured);
  });

  it("does not take again for a while an address that failed verification, nor a banned one", () => {
    const { book, advance } = setup();
    const key = "127.0.0.1:2000";
    expect(book.addCandidate(at(key), "learned", "x")).toBe(true);
    book.dropCandidate(key, true);
    expect(book.addCandidate(at(key), "learned", "x")).toBe(false);
    advance(REFUSE_MS + 1);
    expect(book.addCandidate(at(key), "learned", "x")).toBe(true);
    const peer = book.add(at("127.0.0.1:3000"), "learned");
    if (peer === undefined) throw new Error("not added");
    book.penalize(peer, 100, "invalid block");
    book.remove(peer.key);
    expect(book.addCandidate(at("127.0.0.1:3000"), "learned", "x")).toBe(false);
  });
});
