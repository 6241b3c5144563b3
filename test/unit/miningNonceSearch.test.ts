/**
 * searchNonce (the checked search entry), MinerCore (one thread's state) and
 * the worker message parsers.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { CREATION_TIME_OFFSET, NONCE_OFFSET } from "../../src-node/mining/blake2sMidstate.ts";
import { MiningErrorCode } from "../../src-node/mining/errors.ts";
import { MinerCore } from "../../src-node/mining/minerCore.ts";
import { meetsTarget, searchNonce } from "../../src-node/mining/nonceSearch.ts";
import {
  parseFromWorker,
  parseToWorker,
  parseWorkerSettings,
} from "../../src-node/mining/protocol.ts";
import { loadVectors } from "../support/vectors.ts";

const U64 = (1n << 64n) - 1n;

function blake2s(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("blake2s256").update(bytes).digest());
}

function withNonce(header: Uint8Array, nonce: bigint): Uint8Array {
  const h = header.slice();
  new DataView(h.buffer).setBigUint64(NONCE_OFFSET, nonce, true);
  return h;
}

function randomHeader(seed: number): Uint8Array {
  const h = new Uint8Array(286);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < h.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    h[i] = x & 0xff;
  }
  return h;
}

/** A target whose most significant byte is `top` and every other byte 0xff. */
function targetWithTop(top: number): Uint8Array {
  const t = new Uint8Array(32).fill(0xff);
  t[31] = top;
  return t;
}

function code(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return isNodeError(e) ? e.code : `not coded: ${String(e)}`;
  }
  return undefined;
}

describe("[mining] searchNonce", () => {
  it("finds the first valid nonce for an easy target", () => {
    const header = randomHeader(7);
    const target = targetWithTop(0x0f); // about 1 in 16
    const r = searchNonce(header, target, 1000n, 10_000);
    expect(r.nonce).not.toBeNull();
    const nonce = r.nonce as bigint;
    expect(nonce - 1000n + 1n).toBe(BigInt(r.tried));
    expect(meetsTarget(blake2s(withNonce(header, nonce)), target)).toBe(true);
    for (let n = 1000n; n < nonce; n++) {
      expect(meetsTarget(blake2s(withNonce(header, n)), target)).toBe(false);
    }
  });

  it("finds every nonce for the maximal target and none for the zero target", () => {
    const header = randomHeader(8);
    expect(searchNonce(header, new Uint8Array(32).fill(0xff), 42n, 5)).toEqual({
      nonce: 42n,
      tried: 1,
    });
    expect(searchNonce(header, new Uint8Array(32), 0n, 200_000)).toEqual({
      nonce: null,
      tried: 200_000,
    });
    expect(searchNonce(header, new Uint8Array(32), 0n, 0)).toEqual({ nonce: null, tried: 0 });
  });

  it("wraps from 2^64 - 1 to 0", () => {
    const all = new Uint8Array(32).fill(0xff);
    expect(searchNonce(randomHeader(9), all, U64, 3).nonce).toBe(U64);
    // A header where the hash of nonce 0 is below those of 2^64 - 2 and 2^64 - 1;
    // with that hash as target the search must pass the wrap to find nonce 0.
    for (let seed = 10; ; seed++) {
      const header = randomHeader(seed);
      const h0 = blake2s(withNonce(header, 0n));
      const others = [U64 - 1n, U64].map((n) => blake2s(withNonce(header, n)));
      if (others.some((h) => meetsTarget(h, h0))) continue;
      expect(searchNonce(header, h0, U64 - 1n, 10)).toEqual({ nonce: 0n, tried: 3 });
      break;
    }
  });

  it("finds the real nonce of mainnet block 1,000,000 (a real target)", () => {
    const [c] = loadVectors<{ workHex: string; nonce: string }>("mining-work.json").cases;
    const work = new Uint8Array(Buffer.from(c?.workHex ?? "", "hex"));
    const header = work.slice(36, 322);
    const target = work.slice(4, 36);
    const real = BigInt(c?.nonce ?? "0");
    // The stored nonce bytes are ignored: scrub them.
    header.fill(0, NONCE_OFFSET);
    expect(searchNonce(header, target, real - 100_000n, 200_000)).toEqual({
      nonce: real,
      tried: 100_001,
    });
  });

  it("rejects bad input with coded errors", () => {
    const header = randomHeader(1);
    const target = new Uint8Array(32);
    expect(code(() => searchNonce(header.subarray(1), target, 0n, 1))).toBe(
      MiningErrorCode.BadWork,
    );
    expect(code(() => searchNonce(header, target.subarray(1), 0n, 1))).toBe(
      MiningErrorCode.BadWork,
    );
    for (const n of [-1n, U64 + 1n]) {
      expect(code(() => searchNonce(header, target, n, 1))).toBe(MiningErrorCode.BadArgument);
    }
    for (const n of [-1, 1.5, Number.NaN, 2 ** 53]) {
      expect(code(() => searchNonce(header, target, 0n, n))).toBe(MiningErrorCode.BadArgument);
    }
  });
});

describe("[mining] MinerCore", () => {
  it("solves, continues after the solution, and changes only nonce and time", () => {
    const core = new MinerCore();
    const header = randomHeader(3);
    const target = targetWithTop(0x03);
    core.setWork(header, target, 5n);
    const found: bigint[] = [];
    let total = 0;
    while (found.length < 3) {
      const r = core.search(100_000);
      total += r.tried;
      expect(r.header).not.toBeNull();
      const solved = r.header as Uint8Array;
      expect(meetsTarget(blake2s(solved), target)).toBe(true);
      expect(solved.subarray(0, NONCE_OFFSET)).toEqual(header.subarray(0, NONCE_OFFSET));
      found.push(new DataView(solved.buffer).getBigUint64(NONCE_OFFSET, true));
    }
    expect(found[0]).toBeGreaterThanOrEqual(5n);
    expect(found[1]).toBeGreaterThan(found[0] as bigint);
    expect(core.nextNonce).toBe(5n + BigInt(total));
    // The same nonces as the stateless search.
    expect(searchNonce(header, target, 5n, 100_000).nonce).toBe(found[0]);
  });

  it("hashes the refreshed creation time from the next nonce on", () => {
    const core = new MinerCore();
    const header = randomHeader(4);
    const target = targetWithTop(0x07);
    core.setWork(header, target, 0n);
    expect(core.creationTime).toBe(
      new DataView(header.buffer).getBigInt64(CREATION_TIME_OFFSET, true),
    );
    core.setCreationTime(1_700_000_000_000_000n);
    expect(core.creationTime).toBe(1_700_000_000_000_000n);
    const r = core.search(100_000);
    const solved = r.header as Uint8Array;
    expect(new DataView(solved.buffer).getBigInt64(CREATION_TIME_OFFSET, true)).toBe(
      1_700_000_000_000_000n,
    );
    expect(meetsTarget(blake2s(solved), target)).toBe(true);
    const timed = header.slice();
    new DataView(timed.buffer).setBigInt64(CREATION_TIME_OFFSET, 1_700_000_000_000_000n, true);
    expect(searchNonce(timed, target, 0n, 100_000).nonce).toBe(
      new DataView(solved.buffer).getBigUint64(NONCE_OFFSET, true),
    );
    expect(code(() => core.setCreationTime(-1n))).toBe(MiningErrorCode.BadArgument);
  });

  it("finds nothing without work or after clear()", () => {
    const core = new MinerCore();
    expect(core.search(1000)).toEqual({ header: null, tried: 0 });
    core.setWork(randomHeader(5), new Uint8Array(32).fill(0xff), 0n);
    core.clear();
    expect(core.search(1000)).toEqual({ header: null, tried: 0 });
  });
});

describe("[mining] worker protocol", () => {
  const header = new Uint8Array(286);
  const target = new Uint8Array(32);

  it("accepts well-formed messages", () => {
    const work = { kind: "work", generation: 3, header, target, startNonce: U64 };
    expect(parseToWorker(work)).toEqual(work);
    expect(parseToWorker({ kind: "time", generation: 0, creationTime: 5n })).toEqual({
      kind: "time",
      generation: 0,
      creationTime: 5n,
    });
    expect(parseToWorker({ kind: "stop" })).toEqual({ kind: "stop" });
    expect(parseToWorker({ kind: "close", extra: 1 })).toEqual({ kind: "close" });
    expect(parseFromWorker({ kind: "ready" })).toEqual({ kind: "ready" });
    expect(parseFromWorker({ kind: "solved", generation: 1, header })).toEqual({
      kind: "solved",
      generation: 1,
      header,
    });
    expect(parseFromWorker({ kind: "progress", generation: 1, tried: 10, elapsedMs: 2.5 })).toEqual(
      { kind: "progress", generation: 1, tried: 10, elapsedMs: 2.5 },
    );
    expect(parseFromWorker({ kind: "failed", reason: "x" })).toEqual({
      kind: "failed",
      reason: "x",
    });
    expect(parseWorkerSettings({ loader: "x", data: { progressIntervalMs: 5 } })).toEqual({
      progressIntervalMs: 5,
    });
  });

  it("rejects malformed messages with MINING_BAD_MESSAGE", () => {
    const bad: unknown[] = [
      null,
      "work",
      [],
      { kind: "mine" },
      { kind: "work", generation: 0, header: header.subarray(1), target, startNonce: 0n },
      { kind: "work", generation: 0, header, target: new Uint8Array(31), startNonce: 0n },
      { kind: "work", generation: 0, header, target, startNonce: 0 },
      { kind: "work", generation: 0, header, target, startNonce: U64 + 1n },
      { kind: "work", generation: -1, header, target, startNonce: 0n },
      { kind: "work", generation: 0.5, header, target, startNonce: 0n },
      { kind: "work", header: [...header], target, generation: 0, startNonce: 0n },
      { kind: "time", generation: 0, creationTime: -1n },
      { kind: "time", generation: 0, creationTime: 1n << 63n },
      { kind: "time", generation: 0, creationTime: 1 },
    ];
    for (const m of bad) expect(code(() => parseToWorker(m))).toBe(MiningErrorCode.BadMessage);
    const badFrom: unknown[] = [
      undefined,
      { kind: "solved", generation: 0, header: new Uint8Array(322) },
      { kind: "progress", generation: 0, tried: -1, elapsedMs: 1 },
      { kind: "progress", generation: 0, tried: 1.5, elapsedMs: 1 },
      { kind: "progress", generation: 0, tried: 1, elapsedMs: Number.POSITIVE_INFINITY },
      { kind: "failed", reason: 1 },
      { kind: "work" },
    ];
    for (const m of badFrom)
      expect(code(() => parseFromWorker(m))).toBe(MiningErrorCode.BadMessage);
    for (const d of [undefined, {}, { data: { progressIntervalMs: 0 } }]) {
      expect(code(() => parseWorkerSettings(d))).toBe(MiningErrorCode.BadMessage);
    }
  });
});
