/**
 * Forks in BlockDb: side branches are stored and stay queryable, the best
 * cut is the heaviest (ties broken the same way on every node), a switch announces the
 * blocks of the new branch and rewrites the best-chain index, a switch is
 * one transaction, and a fork on a single chain is followed too.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { cutWeight } from "../../src-node/chain/cut.ts";
import { checkCutBraiding } from "../../src-node/chain/cutBraiding.ts";
import type { NetworkVersion } from "../../src-node/chain/networkVersion.ts";
import { testSingletonVersion, testTransitionVersion } from "../../src-node/chain/versions.ts";
import { compareHash32 } from "../../src-node/encoding/hash32.ts";
import { type Block, BlockDb, type CutChange } from "../../src-node/store/blockDb.ts";
import { sql } from "../../src-node/store/sql.ts";
import { ChainBuilder } from "../support/chainBuilder.ts";
import { tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
const dbs: BlockDb[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.isOpen) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fresh(version: NetworkVersion = testSingletonVersion) {
  const dir = tempDir();
  dirs.push(dir);
  const path = join(dir, "blocks.sqlite");
  const db = BlockDb.open({ path, version });
  dbs.push(db);
  return { db, path };
}

const hashes = (hs: Iterable<BlockHeader>) => [...hs].map((h) => h.hash);

function insertAll(db: BlockDb, blocks: readonly Block[]): void {
  for (const b of blocks) db.insertBlock(b);
}

/** The best-chain view of chain `c` from the cut head down to genesis, via ancestorAt. */
function bestLine(db: BlockDb, c: number): string[] {
  const head = db.cut().get(c)!;
  const out: string[] = [];
  for (let h = head.height; h >= 0; h--) out.push(db.ancestorAt(head, h)!.hash);
  return out;
}

function lineOf(b: ChainBuilder, c: number): string[] {
  const out: string[] = [];
  for (
    let h: BlockHeader | undefined = b.cut.get(c);
    h !== undefined;
    h = b.headers.get(h.parent)
  ) {
    out.push(h.hash);
  }
  return out;
}

describe("[store] forks", () => {
  it("between siblings of equal weight, takes the same one whatever the insertion order", () => {
    // Two nodes holding the same blocks must hold the same cut (chain/cutOrder.ts), else two
    // miners that stop on cuts of equal weight stay apart forever.
    const main = ChainBuilder.create(testSingletonVersion);
    const base = main.rounds(2);
    const side = main.fork("side");
    const a = main.next(0);
    const b = side.next(0);
    const first = fresh().db;
    const second = fresh().db;
    insertAll(first, [...base, a, b]);
    insertAll(second, [...base, b, a]);
    expect(first.cut().get(0)?.hash).toBe(second.cut().get(0)?.hash);
    // The one kept is the later hash: both are stored, the other stays off the cut.
    const later = compareHash32(a.header.hash, b.header.hash) > 0 ? a : b;
    expect(first.cut().get(0)?.hash).toBe(later.header.hash);
    for (const db of [first, second]) {
      expect(db.header(a.header.hash)).toEqual(a.header);
      expect(db.header(b.header.hash)).toEqual(b.header);
    }
  });

  it("switches to a heavier branch, announcing its blocks and keeping the old ones", () => {
    const { db } = fresh();
    const main = ChainBuilder.create(testSingletonVersion);
    insertAll(db, main.rounds(3));
    const side = main.fork("side");
    const mainBlocks = main.rounds(2);
    insertAll(db, mainBlocks);
    const sideBlocks = side.rounds(3);
    const changes: CutChange[] = [];
    db.onCutChange((c) => changes.push(c));
    insertAll(db, sideBlocks);

    expect(hashes(db.cut().values())).toEqual(hashes(side.cut.values()));
    checkCutBraiding(db.cut(), testSingletonVersion);
    // Every side block was announced exactly once, each after its parent.
    const announced = changes.flatMap((c) => hashes(c.added));
    expect([...announced].sort()).toEqual(sideBlocks.map((b) => b.header.hash).sort());
    for (const b of mainBlocks) expect(db.header(b.header.hash)).toEqual(b.header);
    for (let c = 0; c < 10; c++) expect(bestLine(db, c), `chain ${c}`).toEqual(lineOf(side, c));
  });

  it("follows whichever branch is heavier, whatever the insertion order", () => {
    for (const order of ["main first", "side first", "interleaved"] as const) {
      const { db } = fresh();
      const main = ChainBuilder.create(testSingletonVersion);
      insertAll(db, main.rounds(2));
      const side = main.fork("side");
      const m = main.rounds(3);
      const s = side.rounds(4);
      const blocks =
        order === "main first"
          ? [...m, ...s]
          : order === "side first"
            ? [...s, ...m]
            : s.flatMap((b, i) => (m[i] === undefined ? [b] : [m[i] as Block, b]));
      insertAll(db, blocks);
      expect(hashes(db.cut().values()), order).toEqual(hashes(side.cut.values()));
      expect(cutWeight(db.cut())).toBe(cutWeight(side.cut));
      for (let c = 0; c < 10; c++)
        expect(bestLine(db, c), `${order} chain ${c}`).toEqual(lineOf(side, c));
      // The main branch grows back ahead: the cut returns to it.
      insertAll(db, main.rounds(2));
      expect(hashes(db.cut().values()), order).toEqual(hashes(main.cut.values()));
      for (let c = 0; c < 10; c++)
        expect(bestLine(db, c), `${order} back ${c}`).toEqual(lineOf(main, c));
    }
  });

  it("follows a fork of a single chain when a block builds on the side block", () => {
    const { db } = fresh();
    const main = ChainBuilder.create(testSingletonVersion);
    insertAll(db, main.rounds(5));
    const side = main.fork("side");
    const mainZero = main.next(0);
    db.insertBlock(mainZero);
    // The side branch: a sibling on chain 0, then its neighbours (2, 3, 5), then chain 0 again.
    const sibling = side.next(0);
    expect(db.insertBlock(sibling).cutChanged).toBe(false);
    for (const c of [2, 3, 5]) expect(db.insertBlock(side.next(c)).cutChanged).toBe(true);
    const top = side.next(0);
    const changes: CutChange[] = [];
    db.onCutChange((c) => changes.push(c));
    expect(db.insertBlock(top).cutChanged).toBe(true);
    expect(hashes(changes[0]!.added)).toEqual([sibling.header.hash, top.header.hash]);
    expect(db.cut().get(0)?.hash).toBe(top.header.hash);
    expect(bestLine(db, 0).slice(0, 2)).toEqual([top.header.hash, sibling.header.hash]);
    checkCutBraiding(db.cut(), testSingletonVersion);
  });

  it("stores a stale side block far below the cut and leaves the cut alone", () => {
    const { db } = fresh();
    const main = ChainBuilder.create(testSingletonVersion);
    insertAll(db, main.rounds(2));
    const side = main.fork("stale");
    insertAll(db, main.rounds(30));
    const cut = hashes(db.cut().values());
    const stale = side.next(4);
    expect(db.insertBlock(stale)).toEqual({ status: "inserted", cutChanged: false, added: [] });
    expect(hashes(db.cut().values())).toEqual(cut);
    expect(db.header(stale.header.hash)).toEqual(stale.header);
  });

  it("writes a block and a cut switch in one transaction", () => {
    const { db, path } = fresh();
    const main = ChainBuilder.create(testSingletonVersion);
    insertAll(db, main.rounds(2));
    const side = main.fork("side");
    insertAll(db, main.rounds(1));
    const s = side.rounds(2);
    const last = s.pop()!;
    insertAll(db, s);
    const before = hashes(db.cut().values());
    // Make the last write of the switch fail.
    db.store.db.exec(sql`
      CREATE TEMP TRIGGER fail_switch BEFORE INSERT ON best_chain
      BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    expect(() => db.insertBlock(last)).toThrow(/injected failure/);
    expect(db.header(last.header.hash)).toBeUndefined();
    expect(hashes(db.cut().values())).toEqual(before);
    db.close();
    const again = BlockDb.open({ path, version: testSingletonVersion });
    dbs.push(again);
    expect(hashes(again.cut().values())).toEqual(before);
    expect(again.header(last.header.hash)).toBeUndefined();
    expect(again.insertBlock(last).cutChanged).toBe(true);
  });
});

describe("[store] graph change", () => {
  it("adds the chains of the new graph once every chain reaches the change height", () => {
    const { db } = fresh(testTransitionVersion);
    const b = ChainBuilder.create(testTransitionVersion);
    const changes: CutChange[] = [];
    db.onCutChange((c) => changes.push(c));
    insertAll(db, b.rounds(9));
    expect(db.cut().size).toBe(10);
    insertAll(db, b.rounds(3));
    expect(db.cut().size).toBe(20);
    expect(hashes(db.cut().values())).toEqual(hashes(b.cut.values()));
    // The genesis blocks of chains 10–19 were announced when they joined.
    const joined = changes
      .flatMap((c) => c.added)
      .filter((h) => h.chainId >= 10 && h.height === 10);
    expect(joined.map((h) => h.chainId).sort((x, y) => x - y)).toEqual([
      10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
    ]);
    checkCutBraiding(db.cut(), testTransitionVersion);
  });
});
