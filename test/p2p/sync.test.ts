/**
 * Sync between nodes of this process on loopback (createNode, listening;
 * blocks mined through each node's mining service):
 * - a node that mined its own blocks from genesis follows a heavier peer:
 *   its fork points are found from the peer's hashes, none of its own blocks
 *   is named to the peer, and it ends on the peer's cut; the peer, heavier,
 *   does not move;
 * - a late node's catch-up shows in the node's catching-up status
 *   (`node.catchUp`, the app's banner) while it runs and leaves it after;
 *   its explorer index, deferred meanwhile, catches up after;
 * - a peer answering a block page without items is scored as a malformed
 *   answer (20 points, from the error's kind), not banned as for an invalid
 *   block;
 * - a peer announcing a fake heavy cut (in front of a real node: a head it
 *   cannot serve, or the real heads with a weight they do not give) is
 *   scored as a false cut (60 points) each time, so its repeated lies ban it.
 * No timed assertions: waits only stop a hung test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cutHeight, cutWeight } from "../../src-node/chain/cut.ts";
import { cutToJson } from "../../src-node/chain/cutJson.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import type { Hash32 } from "../../src-node/encoding/hash32.ts";
import { u256ToBytes } from "../../src-node/encoding/littleEndian.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { NO_TXID_LIMIT } from "../../src-node/store/stateDb.ts";
import { MINER } from "../support/execChain.ts";
import { type FakePeer, startFakePeer } from "../support/fakePeer.ts";

const NETWORK = "test-singleton";
const dir = mkdtempSync(join(tmpdir(), "weft-p2p-sync-"));
const opened: WeftNode[] = [];
const servers: Server[] = [];
const fakes: FakePeer[] = [];

async function node(name: string, peers: string[] = [], pollMs = 200): Promise<WeftNode> {
  const n = await createNode({
    network: NETWORK,
    dataDir: join(dir, name),
    port: 0,
    executionWorkers: 0,
    p2p: { peers },
    peerPollIntervalMs: pollMs,
  });
  opened.push(n);
  return n;
}

function address(n: WeftNode): string {
  return new URL(n.origin).host;
}

async function mine(n: WeftNode, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const work = await n.mining.work(MINER);
    n.mining.submit(work.bytes.subarray(36));
  }
}

function cutText(n: WeftNode): string {
  return JSON.stringify([...n.blocks.cut().values()].map((h) => h.hash));
}

async function waitFor<T>(what: string, check: () => T | undefined, limitMs = 60_000): Promise<T> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    const v = check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const BASE = `/ledger/0.0/${NETWORK}`;

/**
 * A peer in front of `real`: every request is forwarded there, but its cut
 * is `cut()` (a lie), it knows no other peers and takes published cuts.
 * @returns its address.
 */
async function lyingPeer(real: WeftNode, cut: () => unknown): Promise<string> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      const json = (body: unknown) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (req.method === "PUT") res.writeHead(204).end();
      else if (req.method === "GET" && path === `${BASE}/cut`) json(cut());
      else if (path === `${BASE}/cut/peer`) json({ limit: 0, items: [], next: null });
      else {
        const headers: Record<string, string> = {};
        for (const h of ["content-type", "accept"]) {
          const v = req.headers[h];
          if (typeof v === "string") headers[h] = v;
        }
        const method = req.method ?? "GET";
        fetch(`${real.origin}${req.url}`, {
          method,
          headers,
          ...(method === "POST" ? { body: Buffer.concat(chunks) } : {}),
        })
          .then(async (r) => {
            const type = r.headers.get("content-type");
            const body = Buffer.from(await r.arrayBuffer());
            res.writeHead(r.status, type === null ? {} : { "content-type": type }).end(body);
          })
          .catch(() => res.writeHead(502).end());
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The cut JSON of `n` with its weight replaced. */
function cutWithWeight(n: WeftNode, weight: bigint): Record<string, unknown> {
  return {
    ...cutToJson(n.blocks.cut(), n.version),
    weight: base64UrlEncode(u256ToBytes(weight, "weight")),
  };
}

let source: WeftNode;

beforeAll(async () => {
  source = await node("source");
  // 30 blocks a chain.
  await mine(source, 300);
}, 120_000);

afterAll(async () => {
  for (const n of opened.reverse()) await n.close();
  for (const s of servers) s.close();
  for (const f of fakes) await f.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("[p2p] sync between nodes", () => {
  it("a node on its own fork from genesis follows a heavier peer", async () => {
    const fork = await node("fork");
    // 20 blocks a chain of its own: the fork point is genesis, found in the peer's hashes.
    await mine(fork, 200);
    const sourceCut = cutText(source);
    const own = [...fork.blocks.cut().values()];
    expect(cutHeight(fork.blocks.cut())).toBeLessThan(cutHeight(source.blocks.cut()));
    fork.p2p.addPeer(address(source));
    await waitFor("the fork node on the source's cut", () =>
      cutText(fork) === sourceCut ? true : undefined,
    );
    // Its own blocks stay stored (side branches); the source never took them.
    for (const h of own) {
      expect(fork.blocks.header(h.hash)).toBeDefined();
      expect(source.blocks.header(h.hash)).toBeUndefined();
    }
    expect(cutText(source)).toBe(sourceCut);
    const peer = fork.p2p.peers().find((p) => p.address === address(source));
    expect(peer).toMatchObject({ score: 0, bannedUntil: null });
  }, 120_000);

  it("a late node's catch-up shows in the node's catching-up status", async () => {
    const late = await node("late", [address(source)]);
    const seen: { what: string; done: number; total: number }[] = [];
    late.blocks.onCutChange(() => {
      for (const item of late.catchUp.items()) seen.push(item);
    });
    await waitFor("the late node on the source's cut", () =>
      cutText(late) === cutText(source) ? true : undefined,
    );
    // Every block executed here as on the source: the same state, row by row, and the same heads.
    for (const c of source.version.chainIds) {
      expect(late.state.head(c)).toEqual(source.state.head(c));
      expect([...late.state.valuesAt(c, NO_TXID_LIMIT)]).toEqual([
        ...source.state.valuesAt(c, NO_TXID_LIMIT),
      ]);
    }
    const sync = seen.filter((s) => s.what === "Syncing blocks from peers");
    expect(sync.length).toBeGreaterThan(0);
    const last = sync[sync.length - 1] as { done: number; total: number };
    expect(last.total).toBeGreaterThan(0);
    expect(last.done).toBeGreaterThan(0);
    expect(late.p2p.status()).toMatchObject({ state: "synced", blocksLeft: 0 });
    // Once caught up (the next poll), the banner's item is gone.
    await waitFor("the catching-up item to end", () =>
      late.catchUp.items().some((i) => i.what === "Syncing blocks from peers") ? undefined : true,
    );
    expect(late.recentLog.lines().some((l) => l.message.startsWith("p2p: catching up:"))).toBe(
      true,
    );
    // The explorer index, deferred during the sync, caught up after it: every block.
    await late.index.caughtUp();
    expect(late.index.status().state).toBe("ready");
    expect(late.index.store.blockCount()).toBe(late.blocks.store.headerCount());
  }, 120_000);

  it("scores a block page without items as a malformed answer, without a ban", async () => {
    const target = await node("target", [], 60_000);
    const genesis = target.blocks.cut();
    const cut = {
      hashes: Object.fromEntries(
        [...genesis].map(([c, h]) => [String(c), { height: h.height, hash: h.hash as string }]),
      ),
      weight: `${"_".repeat(42)}A`,
      height: 1,
      instance: NETWORK,
      id: "x",
    };
    // Chain 0 one block up, on a block the target does not hold.
    cut.hashes["0"] = { height: 1, hash: "A".repeat(43) };
    // Its /info proves an identity (test/support/fakePeer.ts), so it is used.
    const fake = await startFakePeer({
      [`GET ${BASE}/cut`]: () => cut,
      // Malformed: a page without items. Its text names a block; only its kind may decide.
      [`POST ${BASE}/chain/0/block/branch`]: () => ({ limit: 0, next: null }),
    });
    fakes.push(fake);
    const fakeAddress = fake.address;
    target.p2p.addPeer(fakeAddress);
    const peer = await waitFor("the fake peer's score", () => {
      const p = target.p2p.peers().find((x) => x.address === fakeAddress);
      return p !== undefined && p.score > 0 ? p : undefined;
    });
    expect(peer.score).toBe(20);
    expect(peer.bannedUntil).toBeNull();
    expect(peer.lastError).toContain("a block page without items");
    expect(cutHeight(target.blocks.cut())).toBe(0);
  }, 60_000);

  it("scores a head the peer cannot serve as a false cut, and bans it when repeated", async () => {
    const target = await node("lied-to-head");
    const real = cutToJson(source.blocks.cut(), source.version);
    const fakeHead = `${"B".repeat(42)}E` as Hash32;
    const lie = () => ({
      ...cutWithWeight(source, 2n * cutWeight(source.blocks.cut())),
      hashes: {
        ...real.hashes,
        "0": { height: (real.hashes["0"]?.height ?? 0) + 5, hash: fakeHead },
      },
    });
    const liar = await lyingPeer(source, lie);
    target.p2p.addPeer(liar);
    const banned = await waitFor("the lying peer's ban", () => {
      const p = target.p2p.peers().find((x) => x.address === liar);
      return p?.bannedUntil === null || p === undefined ? undefined : p;
    });
    expect(banned.score).toBeGreaterThanOrEqual(100);
    expect(banned.lastError).toContain(`announced head ${fakeHead}`);
    const warnings = target.recentLog.lines().map((l) => l.message);
    expect(warnings.some((m) => m.includes(`peer ${liar} misbehaved (score 60)`))).toBe(true);
    expect(warnings.some((m) => m.includes(`peer ${liar} banned until`))).toBe(true);
    expect(target.blocks.header(fakeHead)).toBeUndefined();
  }, 120_000);

  it("scores real heads announced with a weight they do not give as a false cut", async () => {
    const target = await node("lied-to-weight");
    const liar = await lyingPeer(source, () =>
      cutWithWeight(source, cutWeight(source.blocks.cut()) + 1n),
    );
    target.p2p.addPeer(liar);
    const banned = await waitFor("the lying peer's ban", () => {
      const p = target.p2p.peers().find((x) => x.address === liar);
      return p?.bannedUntil === null || p === undefined ? undefined : p;
    });
    expect(banned.lastError).toContain("its cut claims weight");
    // The blocks themselves are valid: the target holds them, on the real cut.
    expect(cutText(target)).toBe(cutText(source));
    expect(
      target.recentLog
        .lines()
        .some((l) => l.message.includes(`peer ${liar} misbehaved (score 60)`)),
    ).toBe(true);
  }, 120_000);
});
