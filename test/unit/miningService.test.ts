/**
 * The mining service against a real block database (test-singleton, and
 * development for real proof of work) with a fake clock: work selection by
 * the braiding rule, work bytes, remembered payloads, every solution error,
 * fork blocks, creation times that never go back, and work updates.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { decodeWorkHeader } from "../../src-node/chain/blockHeaderBinary.ts";
import { cutBraidingProblems } from "../../src-node/chain/cutBraiding.ts";
import { minerDataJson } from "../../src-node/chain/minerData.ts";
import type { NetworkVersion } from "../../src-node/chain/networkVersion.ts";
import { meetsTarget, powHashOfWorkHeader } from "../../src-node/chain/pow.ts";
import { developmentVersion, testSingletonVersion } from "../../src-node/chain/versions.ts";
import { workHeaderOf, workPrefixOf } from "../../src-node/chain/workBytes.ts";
import { base64UrlDecodeText } from "../../src-node/encoding/base64url.ts";
import { compareHash32 } from "../../src-node/encoding/hash32.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { minerInfoOf } from "../../src-node/mining/minerInfo.ts";
import { MiningService } from "../../src-node/mining/miningService.ts";
import { searchNonce } from "../../src-node/mining/nonceSearch.ts";
import {
  COINBASE_NOT_EXECUTED,
  emptyPayloadProvider,
} from "../../src-node/mining/payloadProvider.ts";
import { REFRESH_DELAY_MS } from "../../src-node/mining/workUpdates.ts";
import { BlockDb } from "../../src-node/store/blockDb.ts";
import { tempDir } from "../support/testNode.ts";

const KEY = "a".repeat(64);
const MINER = minerInfoOf(`k:${KEY}`);

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/** A clock that moves only when told to (µs). */
function fakeClock(start: number) {
  let t = start;
  return {
    now: () => t,
    set: (v: number) => {
      t = v;
    },
    advance: (us: number) => {
      t += us;
    },
  };
}

function setup(version: NetworkVersion = testSingletonVersion, seed = 0.5) {
  const dir = tempDir();
  const clock = fakeClock(version.genesisTime + 3_600_000_000);
  const db = BlockDb.open({ path: join(dir, "blocks.sqlite"), version, now: clock.now });
  const sleeps: number[] = [];
  const service = new MiningService({
    chain: db,
    clock: clock.now,
    random: () => seed,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.advance(ms * 1000);
    },
  });
  cleanups.push(() => {
    service.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, clock, service, sleeps };
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

async function asyncCodeOf(f: () => Promise<unknown>): Promise<string> {
  try {
    await f();
  } catch (e) {
    if (isNodeError(e)) return e.code;
    throw e;
  }
  return "no error";
}

/** Solves work bytes (any nonce on test-singleton; a search on easy targets). */
function solve(work: Uint8Array, creationTime?: number): Uint8Array {
  const header = workHeaderOf(work);
  const view = new DataView(header.buffer, header.byteOffset);
  if (creationTime !== undefined) view.setBigInt64(8, BigInt(creationTime), true);
  const target = work.slice(4, 36);
  const { nonce } = searchNonce(header, target, 0n, 50_000_000);
  if (nonce === null) throw new Error("no nonce found");
  view.setBigUint64(278, nonce, true);
  return header;
}

function flip(bytes: Uint8Array, offset: number): void {
  bytes[offset] = (bytes[offset] as number) ^ 1;
}

describe("[mining] work", () => {
  it("is 4 + 32 + 286 bytes: chain, target and the child header of the chain's head", async () => {
    const { db, service, clock } = setup();
    const work = await service.work(MINER, 3);
    expect(work.bytes.length).toBe(322);
    const { chainId, target } = workPrefixOf(work.bytes);
    expect(chainId).toBe(3);
    const header = decodeWorkHeader(workHeaderOf(work.bytes));
    expect(header).toEqual(work.header);
    expect(target).toBe(header.target);
    expect(header.parent).toBe(db.cut().get(3)?.hash);
    expect(header.height).toBe(1);
    expect(header.creationTime).toBe(clock.now());
    expect(header.adjacents.map((a) => a.chainId)).toEqual([0, 1, 8]);
    expect(service.outstanding.size).toBe(1);
    const [item] = service.outstanding.withPayload(header.payloadHash);
    expect(new TextDecoder().decode(item?.payload.minerData)).toBe(minerDataJson(MINER));
    expect(item?.payload.transactions).toEqual([]);
    const coinbase = JSON.parse(new TextDecoder().decode(item?.payload.coinbase));
    expect(coinbase.result.data).toBe(COINBASE_NOT_EXECUTED);
    expect(base64UrlDecodeText(coinbase.reqKey, "reqKey")).toBe(header.parent);
  });

  it("takes the suggested chain only when its neighbours have caught up", async () => {
    const { service } = setup();
    const first = await service.work(MINER, 0);
    service.submit(solve(first.bytes));
    // chain 0 is now one block ahead of its neighbours 2, 3 and 5: blocked.
    for (let i = 0; i < 20; i++) {
      const w = await service.work(MINER, 0);
      expect(w.header.chainId).not.toBe(0);
    }
    // chain 1 is not adjacent to 0 and can still be extended.
    expect((await service.work(MINER, 1)).header.chainId).toBe(1);
  });

  it("draws among the chains that can be extended when there is no suggestion", async () => {
    const seen = new Set<number>();
    for (const seed of [0, 0.15, 0.35, 0.55, 0.75, 0.95]) {
      const { service } = setup(testSingletonVersion, seed);
      seen.add((await service.work(MINER)).header.chainId);
    }
    expect(seen.size).toBe(6);
  });

  it("refuses a suggestion that is no chain of the network", async () => {
    const { service } = setup();
    expect(await asyncCodeOf(() => service.work(MINER, 10))).toBe("MINING_BAD_CHAIN");
  });

  /** Mines chains 0, 2 and 3, then 5 with a creation time `ahead` µs past the clock. */
  async function neighboursOfZero(
    service: MiningService,
    clock: ReturnType<typeof fakeClock>,
    ahead: number,
  ) {
    for (const c of [0, 2, 3]) {
      clock.advance(1000);
      service.submit(solve((await service.work(MINER, c)).bytes, clock.now()));
    }
    const w5 = await service.work(MINER, 5);
    clock.advance(ahead);
    service.submit(solve(w5.bytes, clock.now()));
    return clock.now();
  }

  it("never gives a creation time at or before a parent's: it waits for the clock", async () => {
    const { service, clock, sleeps } = setup();
    const latest = await neighboursOfZero(service, clock, 1500);
    clock.advance(-500);
    const w = await service.work(MINER, 0);
    expect(w.header.chainId).toBe(0);
    expect(w.header.height).toBe(2);
    expect(sleeps).toEqual([1]);
    expect(w.header.creationTime).toBeGreaterThan(latest);
  });

  it("gives no work while the clock is far behind the chain", async () => {
    const { service, clock } = setup();
    await neighboursOfZero(service, clock, 10_000_000);
    clock.advance(-9_000_000);
    expect(await asyncCodeOf(() => service.work(MINER, 0))).toBe("MINING_NO_WORK");
  });
});

describe("[mining] solutions", () => {
  it("stores a valid solution, moves the cut, and forgets the work", async () => {
    const { db, service, clock } = setup();
    const w = await service.work(MINER, 4);
    clock.advance(1000);
    const solved = solve(w.bytes, clock.now());
    const r = service.submit(solved);
    expect(r.status).toBe("inserted");
    expect(r.cutChanged).toBe(true);
    expect(db.cut().get(4)?.hash).toBe(r.header.hash);
    const stored = db.payload(r.header.payloadHash);
    expect(new TextDecoder().decode(stored?.minerData)).toBe(minerDataJson(MINER));
    expect(service.blocksAccepted).toBe(1);
    expect(codeOf(() => service.submit(solved))).toBe("MINING_UNKNOWN_PAYLOAD");
  });

  it("refuses wrong lengths, unknown payloads and changed bytes", async () => {
    const { service } = setup();
    const w = await service.work(MINER, 4);
    const solved = solve(w.bytes);
    expect(codeOf(() => service.submit(solved.subarray(0, 285)))).toBe("MINING_BAD_WORK");
    expect(codeOf(() => service.submit(w.bytes))).toBe("MINING_BAD_WORK");
    expect(codeOf(() => service.submit(new Uint8Array(318)))).toBe("MINING_BAD_WORK");
    const payloadChanged = solved.slice();
    flip(payloadChanged, 200);
    expect(codeOf(() => service.submit(payloadChanged))).toBe("MINING_UNKNOWN_PAYLOAD");
    for (const [offset, field] of [
      [0, "featureFlags"],
      [20, "parent"],
      [60, "adjacents"],
      [160, "target"],
      [223, "chainId"],
      [230, "weight"],
      [260, "height"],
      [267, "versionCode"],
      [272, "epochStart"],
    ] as const) {
      const changed = solved.slice();
      flip(changed, offset);
      try {
        service.submit(changed);
        expect.unreachable();
      } catch (e) {
        expect(isNodeError(e, "MINING_CHANGED_WORK")).toBe(true);
        expect((e as { type: unknown }).type).toEqual({
          code: "MINING_CHANGED_WORK",
          offset,
          field,
        });
      }
    }
    // The failed attempts keep the work: the right solution still goes in.
    expect(service.submit(solved).status).toBe("inserted");
  });

  it("never hands out work whose parent stopped being the head while its payload was made", async () => {
    const { db, clock, service: other } = setup();
    let interfered = 0;
    // The first payload takes long enough for another miner's block to land on the chain.
    const service = new MiningService({
      chain: db,
      clock: clock.now,
      random: () => 0.5,
      payloadProvider: async (chainId, parent, minerInfo) => {
        if (interfered++ === 0) {
          other.submit(solve((await other.work(MINER, chainId)).bytes, clock.now()));
          clock.advance(1_000_000);
        }
        return emptyPayloadProvider(chainId, parent, minerInfo);
      },
    });
    cleanups.push(() => service.close());
    const w = await service.work(MINER, 3);
    expect(interfered).toBe(2);
    expect(db.cut().get(3)?.height).toBe(1);
    // Chain 3 now waits for its neighbours: the work is elsewhere, on a head.
    expect(w.header.parent).toBe(db.cut().get(w.header.chainId)?.hash);
    expect(w.header.chainId).not.toBe(3);
  });

  it("refuses a creation time not after the parents' or in the future", async () => {
    const { service, clock } = setup();
    const w = await service.work(MINER, 4);
    const parentTime = testSingletonVersion.genesisTime;
    expect(codeOf(() => service.submit(solve(w.bytes, parentTime)))).toBe(
      "MINING_STALE_CREATION_TIME",
    );
    expect(codeOf(() => service.submit(solve(w.bytes, clock.now() + 1)))).toBe(
      "MINING_FUTURE_CREATION_TIME",
    );
    expect(service.submit(solve(w.bytes, parentTime + 1)).status).toBe("inserted");
  });

  it("refuses a proof of work above the target (development difficulty)", async () => {
    const { service } = setup(developmentVersion);
    const w = await service.work(MINER, 7);
    const header = workHeaderOf(w.bytes);
    const view = new DataView(header.buffer, header.byteOffset);
    let nonce = 0n;
    do view.setBigUint64(278, ++nonce, true);
    while (meetsTarget(powHashOfWorkHeader(header), w.header.target));
    expect(codeOf(() => service.submit(header))).toBe("MINING_POW_ABOVE_TARGET");
    expect(service.submit(solve(w.bytes)).status).toBe("inserted");
  });

  it("stores a solution whose parent is no longer the head as a fork block", async () => {
    const { db, service, clock } = setup();
    const a = await service.work(MINER, 6);
    const b = await service.work(minerInfoOf(`k:${"b".repeat(64)}`), 6);
    clock.advance(1000);
    const first = service.submit(solve(b.bytes, clock.now()));
    expect(first.cutChanged).toBe(true);
    const fork = service.submit(solve(a.bytes, clock.now()));
    expect(fork.status).toBe("inserted");
    // Siblings of equal weight: the cut holds the one the tie-break prefers (chain/cutOrder.ts).
    const forkWins = compareHash32(fork.header.hash, first.header.hash) > 0;
    expect(fork.cutChanged).toBe(forkWins);
    expect(db.cut().get(6)?.hash).toBe((forkWins ? fork : first).header.hash);
    expect(db.header(fork.header.hash)).toBeDefined();
    expect(db.header(first.header.hash)).toBeDefined();
  });

  it("keeps every cut braided while mining many blocks", async () => {
    const { db, service, clock } = setup(testSingletonVersion);
    const problems: string[] = [];
    db.onCutChange(({ cut }) => problems.push(...cutBraidingProblems(cut, db.version)));
    let seed = 1;
    const svc = new MiningService({
      chain: db,
      clock: clock.now,
      random: () => {
        seed = (seed * 16807) % 2147483647;
        return seed / 2147483647;
      },
    });
    cleanups.push(() => svc.close());
    for (let i = 0; i < 60; i++) {
      clock.advance(10_000);
      svc.submit(solve((await svc.work(MINER)).bytes));
    }
    expect(problems).toEqual([]);
    const heights = [...db.cut().values()].map((h: BlockHeader) => h.height);
    expect(heights.reduce((s, h) => s + h, 0)).toBe(60);
    expect(Math.max(...heights) - Math.min(...heights)).toBeLessThanOrEqual(2);
    expect(service.blocksAccepted).toBe(0);
  });
});

describe("[mining] work updates", () => {
  it("reports the chain whose work changed, and neighbours only when they were waiting", async () => {
    const { service, clock } = setup();
    const events: number[][] = [];
    service.updates.subscribe((changed) => events.push([...changed]));
    clock.advance(1000);
    service.submit(solve((await service.work(MINER, 0)).bytes, clock.now()));
    // Chain 0 moved; its neighbours (2, 3, 5) keep genesis 0 as adjacent parent: no change.
    expect(events).toEqual([[0]]);
    for (const c of [2, 3]) {
      clock.advance(1000);
      service.submit(solve((await service.work(MINER, c)).bytes, clock.now()));
    }
    expect(events).toEqual([[0], [2], [3]]);
    clock.advance(1000);
    service.submit(solve((await service.work(MINER, 5)).bytes, clock.now()));
    // The last neighbour of chain 0 caught up: chain 0's work is ready again.
    expect(events.at(-1)).toEqual([0, 5]);
  });

  it("merges refresh requests of a chain into one `refreshed` after the delay", async () => {
    const { service } = setup();
    const events: string[] = [];
    service.updates.subscribe((changed, kind) => events.push(`${kind}:${changed.join(",")}`));
    for (let i = 0; i < 5; i++) service.updates.requestRefresh(4);
    service.updates.requestRefresh(7);
    expect(events).toEqual([]);
    await new Promise((r) => setTimeout(r, REFRESH_DELAY_MS + 100));
    expect(events.sort()).toEqual(["refreshed:4", "refreshed:7"]);
    // A later request is a new refresh; none after close.
    service.updates.requestRefresh(4);
    service.updates.close();
    await new Promise((r) => setTimeout(r, REFRESH_DELAY_MS + 100));
    expect(events).toHaveLength(2);
  });
});
