/**
 * BlockDb: a new file starts with the version's genesis blocks and cut;
 * blocks are inserted only when every header rule holds (each rejection
 * names its rule, stores nothing and leaves the cut alone); the cut moves
 * with the blocks; listeners hear of every block added to the cut; the file
 * reopens to the same state and refuses another network or genesis.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { computeBlockHash } from "../../src-node/chain/blockHash.ts";
import type { BlockHeader, UnhashedBlockHeader } from "../../src-node/chain/blockHeader.ts";
import { cutHeight, cutWeight } from "../../src-node/chain/cut.ts";
import { newBlockHeader } from "../../src-node/chain/newBlockHeader.ts";
import { payloadWithOutputsToJson } from "../../src-node/chain/payloadWithOutputs.ts";
import { hasValidPow } from "../../src-node/chain/pow.ts";
import {
  developmentVersion,
  testSingletonVersion,
  testTransitionVersion,
} from "../../src-node/chain/versions.ts";
import { type Hash32, hash32FromBytes } from "../../src-node/encoding/hash32.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { type Block, BlockDb, type CutChange } from "../../src-node/store/blockDb.ts";
import { blockMigrations } from "../../src-node/store/blockMigrations.ts";
import { sql } from "../../src-node/store/sql.ts";
import { SqlDatabase } from "../../src-node/store/sqlDatabase.ts";
import { ChainBuilder, testPayload } from "../support/chainBuilder.ts";
import { tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
const dbs: BlockDb[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.isOpen) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fresh(options: Partial<Parameters<typeof BlockDb.open>[0]> = {}) {
  const dir = tempDir();
  dirs.push(dir);
  const path = join(dir, "blocks.sqlite");
  const db = BlockDb.open({ path, version: testSingletonVersion, ...options });
  dbs.push(db);
  return { db, path };
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isNodeError(e)) return e.code;
    throw e;
  }
  return "no error";
}

function rehash(h: BlockHeader, changes: Partial<UnhashedBlockHeader>): BlockHeader {
  const { hash: _, ...rest } = h;
  const u: UnhashedBlockHeader = { ...rest, ...changes };
  return { ...u, hash: computeBlockHash(u) };
}

const randomHash = (n: number): Hash32 => hash32FromBytes(new Uint8Array(32).fill(n));

describe("[store] BlockDb genesis and schema", () => {
  it("starts with every chain's genesis block and the genesis cut", () => {
    const { db } = fresh();
    expect(db.cut().size).toBe(10);
    expect(cutHeight(db.cut())).toBe(0);
    for (const [c, g] of db.genesis) {
      expect(db.header(g.hash)).toEqual(g);
      expect(db.cut().get(c)?.hash).toBe(g.hash);
      expect(db.payload(g.payloadHash)?.payloadHash).toBe(g.payloadHash);
    }
  });

  it("stores the genesis blocks of chains that join later, outside the cut", () => {
    const dir = tempDir();
    dirs.push(dir);
    const db = BlockDb.open({ path: join(dir, "b.sqlite"), version: testTransitionVersion });
    dbs.push(db);
    expect(db.genesis.size).toBe(20);
    expect(db.cut().size).toBe(10);
    expect(db.header((db.genesis.get(15) as BlockHeader).hash)?.height).toBe(10);
  });

  it("uses WAL, STRICT tables and the latest schema version", () => {
    const { db, path } = fresh();
    db.close();
    const raw = SqlDatabase.open(path);
    try {
      expect(raw.userVersion()).toBe(blockMigrations.length);
      const mode = raw.get(
        sql`PRAGMA journal_mode`,
        (r) => (r as { journal_mode: string }).journal_mode,
      );
      expect(mode).toBe("wal");
      const tables = raw.all(
        sql`SELECT name, sql FROM sqlite_master WHERE type = 'table'`,
        (r) => r as { name: string; sql: string },
      );
      expect(tables.map((t) => t.name).sort()).toEqual(
        [
          "best_chain",
          "cut_heads",
          "header_texts",
          "headers",
          "meta",
          "payload_transactions",
          "payloads",
        ].sort(),
      );
      for (const t of tables) expect(t.sql, t.name).toMatch(/\)\s*STRICT/);
    } finally {
      raw.close();
    }
  });

  it("refuses a file of another network", () => {
    const { db, path } = fresh();
    db.close();
    expect(codeOf(() => BlockDb.open({ path, version: testTransitionVersion }))).toBe(
      "STORE_NETWORK_MISMATCH",
    );
  });

  it("refuses a file made with other genesis payloads", () => {
    const { db, path } = fresh();
    db.close();
    const other = testPayload("other genesis", 0, 0, 0);
    expect(
      codeOf(() =>
        BlockDb.open({ path, version: testSingletonVersion, genesisPayload: () => other }),
      ),
    ).toBe("STORE_GENESIS_MISMATCH");
  });

  it("refuses a file written by a newer schema", () => {
    const { db, path } = fresh();
    db.close();
    const raw = SqlDatabase.open(path);
    raw.setUserVersion(99);
    raw.close();
    expect(codeOf(() => BlockDb.open({ path, version: testSingletonVersion }))).toBe(
      "STORE_SCHEMA_TOO_NEW",
    );
  });

  it("refuses a file that is not a database", () => {
    const dir = tempDir();
    dirs.push(dir);
    expect(codeOf(() => BlockDb.open({ path: dir, version: testSingletonVersion }))).toBe(
      "STORE_OPEN_FAILED",
    );
  });

  it("fails with STORE_CLOSED after close", () => {
    const { db } = fresh();
    const g = db.genesis.get(0) as BlockHeader;
    db.close();
    expect(codeOf(() => db.payload(g.payloadHash))).toBe("STORE_CLOSED");
  });
});

describe("[store] BlockDb inserts", () => {
  it("accepts valid blocks, moves the cut and tells listeners each added block", () => {
    const { db } = fresh();
    const b = ChainBuilder.create(testSingletonVersion);
    const changes: CutChange[] = [];
    db.onCutChange((c) => changes.push(c));
    const blocks = b.rounds(3);
    for (const x of blocks) {
      const r = db.insertBlock(x);
      expect(r).toMatchObject({ status: "inserted", cutChanged: true });
      expect(r.added.map((h) => h.hash)).toEqual([x.header.hash]);
    }
    expect(cutHeight(db.cut())).toBe(30);
    expect([...db.cut().values()].map((h) => h.hash)).toEqual(
      [...b.cut.values()].map((h) => h.hash),
    );
    expect(cutWeight(db.cut())).toBe([...b.cut.values()].reduce((s, h) => s + h.weight, 0n));
    expect(changes.flatMap((c) => c.added.map((h) => h.hash))).toEqual(
      blocks.map((x) => x.header.hash),
    );
    const last = blocks[blocks.length - 1] as Block;
    const stored = db.payload(last.header.payloadHash)!;
    expect(payloadWithOutputsToJson(stored)).toEqual(payloadWithOutputsToJson(last.payload));
  });

  it("treats a stored block as known", () => {
    const { db } = fresh();
    const x = ChainBuilder.create(testSingletonVersion).next(0);
    db.insertBlock(x);
    expect(db.insertBlock(x)).toEqual({ status: "known", cutChanged: false, added: [] });
    const g = db.genesis.get(3) as BlockHeader;
    expect(db.insertBlock({ header: g, payload: db.payload(g.payloadHash)! }).status).toBe("known");
  });

  it("keeps going when a listener throws", () => {
    const warnings: string[] = [];
    const { db } = fresh({ log: { warn: (m) => warnings.push(m) } });
    db.onCutChange(() => {
      throw new Error("listener bug");
    });
    const heard: number[] = [];
    db.onCutChange((c) => heard.push(c.added.length));
    db.insertBlock(ChainBuilder.create(testSingletonVersion).next(0));
    expect(heard).toEqual([1]);
    expect(warnings).toEqual(["cut listener failed"]);
  });

  it("stops telling a listener after it unsubscribes", () => {
    const { db } = fresh();
    const b = ChainBuilder.create(testSingletonVersion);
    let n = 0;
    const off = db.onCutChange(() => n++);
    db.insertBlock(b.next(0));
    off();
    db.insertBlock(b.next(1));
    expect(n).toBe(1);
  });
});

describe("[store] BlockDb rejects blocks breaking a header rule", () => {
  function setup() {
    const { db } = fresh();
    const b = ChainBuilder.create(testSingletonVersion);
    for (const x of b.rounds(2)) db.insertBlock(x);
    const valid = b.fork("probe").next(0);
    return { db, b, valid };
  }

  type Case = [name: string, code: string, make: (s: ReturnType<typeof setup>) => Block];
  const cases: Case[] = [
    [
      "unknown parent",
      "CHAIN_PARENT_UNKNOWN",
      ({ valid }) => ({ ...valid, header: rehash(valid.header, { parent: randomHash(7) }) }),
    ],
    [
      "wrong height",
      "CHAIN_WRONG_HEIGHT",
      ({ valid }) => ({
        ...valid,
        header: rehash(valid.header, { height: valid.header.height + 1 }),
      }),
    ],
    [
      "another chain than its parent",
      "CHAIN_WRONG_CHAIN",
      ({ valid }) => ({
        ...valid,
        header: rehash(valid.header, {
          chainId: 1,
          adjacents: [3, 4, 6].map((c) => ({ chainId: c, hash: randomHash(c) })),
        }),
      }),
    ],
    [
      "another network",
      "CHAIN_WRONG_VERSION",
      ({ valid }) => ({
        ...valid,
        header: rehash(valid.header, { versionCode: testTransitionVersion.code }),
      }),
    ],
    [
      "adjacent chains not the graph's",
      "CHAIN_WRONG_ADJACENT_CHAINS",
      ({ valid }) => ({
        ...valid,
        header: rehash(valid.header, {
          adjacents: [...valid.header.adjacents.slice(0, 2), { chainId: 6, hash: randomHash(6) }],
        }),
      }),
    ],
    [
      "unknown adjacent parent",
      "CHAIN_ADJACENT_PARENT_UNKNOWN",
      ({ valid }) => ({
        ...valid,
        header: rehash(valid.header, {
          adjacents: valid.header.adjacents.map((a, i) =>
            i === 0 ? { ...a, hash: randomHash(9) } : a,
          ),
        }),
      }),
    ],
    [
      "adjacent parent at another height (not braided)",
      "CHAIN_NOT_BRAIDED",
      ({ valid, b }) => {
        const a0 = valid.header.adjacents[0]!;
        const lower = b.headers.get(b.headers.get(a0.hash)!.parent)!;
        return {
          ...valid,
          header: rehash(valid.header, {
            adjacents: valid.header.adjacents.map((a, i) =>
              i === 0 ? { ...a, hash: lower.hash } : a,
            ),
          }),
        };
      },
    ],
    [
      "creation time not after the parent's",
      "CHAIN_CREATION_TIME_NOT_INCREASING",
      ({ valid, b }) => ({
        ...valid,
        header: rehash(valid.header, {
          creationTime: b.headers.get(valid.header.parent)!.creationTime,
        }),
      }),
    ],
    [
      "creation time not after an adjacent parent's",
      "CHAIN_CREATION_TIME_NOT_INCREASING",
      ({ valid, b }) => {
        const latest = Math.max(
          ...valid.header.adjacents.map((a) => b.headers.get(a.hash)!.creationTime),
        );
        return { ...valid, header: rehash(valid.header, { creationTime: latest }) };
      },
    ],
    [
      "wrong epoch start",
      "CHAIN_WRONG_EPOCH_START",
      ({ valid }) => ({
        ...valid,
        header: rehash(valid.header, { epochStart: valid.header.epochStart + 1 }),
      }),
    ],
    [
      "wrong target",
      "CHAIN_WRONG_TARGET",
      ({ valid }) => ({
        ...valid,
        header: rehash(valid.header, { target: valid.header.target - 1n }),
      }),
    ],
    [
      "wrong weight",
      "CHAIN_WRONG_WEIGHT",
      ({ valid }) => ({
        ...valid,
        header: rehash(valid.header, { weight: valid.header.weight + 1n }),
      }),
    ],
    [
      "block hash not the Merkle root",
      "CHAIN_HASH_MISMATCH",
      ({ valid }) => ({ ...valid, header: { ...valid.header, nonce: valid.header.nonce + 1n } }),
    ],
    [
      "feature flags set",
      "CHAIN_BAD_FEATURE_FLAGS",
      ({ valid }) => ({ ...valid, header: rehash(valid.header, { featureFlags: 1n }) }),
    ],
    [
      "payload hash not the payload's",
      "CHAIN_WRONG_PAYLOAD_HASH",
      ({ valid }) => ({ ...valid, payload: testPayload("other", 0, 3) }),
    ],
    [
      "payload whose stated hash is not its contents'",
      "CHAIN_PAYLOAD_HASH_MISMATCH",
      ({ valid }) => ({
        ...valid,
        payload: { ...testPayload("other", 0, 3), payloadHash: valid.header.payloadHash },
      }),
    ],
    [
      "a genesis header",
      "CHAIN_GENESIS_NOT_VALIDATED",
      ({ db }) => {
        const g = db.genesis.get(0)!;
        const payload = testPayload("fake genesis", 0, 0);
        return { header: rehash(g, { payloadHash: payload.payloadHash }), payload };
      },
    ],
  ];

  for (const [name, code, make] of cases) {
    it(`rejects ${name} with ${code}, storing nothing`, () => {
      const s = setup();
      const before = s.db.cut();
      const bad = make(s);
      expect(codeOf(() => s.db.insertBlock(bad))).toBe(code);
      expect(s.db.header(bad.header.hash)).toBeUndefined();
      expect(s.db.cut()).toBe(before);
      // The valid block is still accepted afterwards.
      expect(s.db.insertBlock(s.valid).status).toBe("inserted");
    });
  }

  it("rejects a block from the future with CHAIN_BLOCK_IN_FUTURE (by the injected clock)", () => {
    const { db } = fresh({ now: () => testSingletonVersion.genesisTime + 500_000 });
    const x = ChainBuilder.create(testSingletonVersion).next(0);
    expect(codeOf(() => db.insertBlock(x))).toBe("CHAIN_BLOCK_IN_FUTURE");
    expect(db.header(x.header.hash)).toBeUndefined();
  });

  it("rejects a block whose proof of work misses the target with CHAIN_BAD_POW", () => {
    const dir = tempDir();
    dirs.push(dir);
    const db = BlockDb.open({ path: join(dir, "dev.sqlite"), version: developmentVersion });
    dbs.push(db);
    const parent = db.cut().get(0)!;
    const payload = testPayload("dev", 0, 1);
    let header = newBlockHeader({
      version: developmentVersion,
      parent,
      adjacentParents: [...db.cut().values()],
      creationTime: parent.creationTime + 1_000_000,
      payloadHash: payload.payloadHash,
    });
    // Find a nonce that misses the target (almost every nonce does at difficulty 100 000).
    while (hasValidPow(header)) header = rehash(header, { nonce: header.nonce + 1n });
    expect(codeOf(() => db.insertBlock({ header, payload }))).toBe("CHAIN_BAD_POW");
  });
});

describe("[store] BlockDb reopens", () => {
  it("reopens to the same cut, headers and best chains", () => {
    const { db, path } = fresh();
    const b = ChainBuilder.create(testSingletonVersion);
    for (const x of b.rounds(4)) db.insertBlock(x);
    const cut = [...db.cut().values()];
    db.close();
    const again = BlockDb.open({ path, version: testSingletonVersion });
    dbs.push(again);
    expect([...again.cut().values()]).toEqual(cut);
    const head = again.cut().get(5)!;
    expect(again.ancestorAt(head, 1)?.hash).toBe(
      b.headers.get(b.headers.get(b.headers.get(head.parent)!.parent)!.parent)!.hash,
    );
    expect(again.insertBlock(b.next(5)).cutChanged).toBe(true);
  });
});
