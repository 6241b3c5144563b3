/**
 * The peer book's misbehaviour scores over an injected clock (no sleeping):
 * points fade by half every SCORE_HALF_LIFE_MS, so occasional bad answers
 * are forgiven while a steady stream of them bans; a ban lasts BAN_MS and
 * its end starts the peer again from 0, after which it can be banned again.
 */
import { describe, expect, it } from "vitest";
import { parsePeerAddress } from "../../src-node/p2p/peerAddress.ts";
import {
  BAN_MS,
  BAN_SCORE,
  PeerBook,
  type PeerEntry,
  SCORE_HALF_LIFE_MS,
} from "../../src-node/p2p/peerBook.ts";

const MINUTE = 60_000;

function bookAt(start = 1_700_000_000_000): {
  book: PeerBook;
  peer: PeerEntry;
  advance: (ms: number) => void;
} {
  let now = start;
  const book = new PeerBook({ maxPeers: 8, now: () => now });
  const peer = book.add(parsePeerAddress("127.0.0.1:1849", "test"), "configured") as PeerEntry;
  return {
    book,
    peer,
    advance: (ms) => {
      now += ms;
    },
  };
}

describe("peer book: misbehaviour scores fade", () => {
  it("halves a score every half-life, down to 0", () => {
    const { book, peer, advance } = bookAt();
    expect(book.penalize(peer, 40, "malformed")).toBe(false);
    expect(book.scoreOf(peer)).toBe(40);
    advance(SCORE_HALF_LIFE_MS);
    expect(book.scoreOf(peer)).toBe(20);
    advance(SCORE_HALF_LIFE_MS);
    expect(book.scoreOf(peer)).toBe(10);
    expect(book.view(peer).score).toBe(10);
    advance(10 * SCORE_HALF_LIFE_MS);
    expect(book.scoreOf(peer)).toBe(0);
    expect(book.view(peer).score).toBe(0);
  });

  it("adds new points to what is left of earlier ones", () => {
    const { book, peer, advance } = bookAt();
    book.penalize(peer, 80, "one");
    advance(SCORE_HALF_LIFE_MS);
    // 40 left + 50 = 90: not banned (without the fading, 130 would be).
    expect(book.penalize(peer, 50, "two")).toBe(false);
    expect(book.scoreOf(peer)).toBe(90);
    expect(book.isBanned(peer.key)).toBe(false);
  });

  it("forgives a malformed answer every 10 minutes, bans one every 5", () => {
    const slow = bookAt();
    for (let i = 0; i < 50; i++) {
      expect(slow.book.penalize(slow.peer, 20, "malformed")).toBe(false);
      slow.advance(10 * MINUTE);
    }
    expect(slow.book.isBanned(slow.peer.key)).toBe(false);
    expect(slow.book.scoreOf(slow.peer)).toBeLessThan(BAN_SCORE);

    const fast = bookAt();
    let bannedAt = -1;
    for (let i = 0; i < 50 && bannedAt < 0; i++) {
      if (fast.book.penalize(fast.peer, 20, "malformed")) bannedAt = i;
      fast.advance(5 * MINUTE);
    }
    expect(bannedAt).toBeGreaterThan(4);
    expect(fast.book.isBanned(fast.peer.key)).toBe(true);
  });

  it("bans at the threshold for BAN_MS; the ban's end starts the peer from 0", () => {
    const { book, peer, advance } = bookAt();
    for (let i = 0; i < 4; i++) expect(book.penalize(peer, 20, "malformed")).toBe(false);
    expect(book.penalize(peer, 20, "malformed")).toBe(true);
    expect(book.isBanned(peer.key)).toBe(true);
    expect(book.usable()).toEqual([]);
    expect(book.view(peer).bannedUntil).not.toBeNull();
    advance(BAN_MS - 1);
    expect(book.isBanned(peer.key)).toBe(true);
    advance(1);
    expect(book.isBanned(peer.key)).toBe(false);
    expect(book.usable()).toEqual([peer]);
    expect(book.view(peer)).toMatchObject({ score: 0, bannedUntil: null });
    // Banned again by the next run of lies (an expired ban does not shield it).
    expect(book.penalize(peer, 60, "false cut")).toBe(false);
    advance(10 * MINUTE);
    expect(book.penalize(peer, 60, "false cut")).toBe(true);
    expect(book.isBanned(peer.key)).toBe(true);
  });

  it("bans on whole points: five malformed answers a second apart are 100", () => {
    const { book, peer, advance } = bookAt();
    for (let i = 0; i < 4; i++) {
      expect(book.penalize(peer, 20, "malformed")).toBe(false);
      advance(1000);
    }
    expect(book.penalize(peer, 20, "malformed")).toBe(true);
    expect(book.scoreOf(peer)).toBe(100);
  });

  it("does not extend a ban that is running", () => {
    const { book, peer, advance } = bookAt();
    expect(book.penalize(peer, 100, "invalid block")).toBe(true);
    const until = peer.bannedUntil;
    advance(MINUTE);
    expect(book.penalize(peer, 100, "invalid block")).toBe(false);
    expect(peer.bannedUntil).toBe(until);
  });
});
