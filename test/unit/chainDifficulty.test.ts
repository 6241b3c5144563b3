/**
 * Difficulty and epochs: windows, epoch ends, epoch starts, the averaged
 * target rule in exact arithmetic, and a simulation (simulated time and hash
 * rate, no wall clock) in which block times converge to the block delay and
 * re-converge after the hash rate changes.
 */
import { describe, expect, it } from "vitest";
import { childWeight, MAX_TARGET, targetToDifficulty } from "../../src-node/chain/difficulty.ts";
import {
  type DaHeader,
  effectiveWindow,
  isLastInEpoch,
  nextEpochStart,
} from "../../src-node/chain/epoch.ts";
import { graphAtHeight } from "../../src-node/chain/graphHistory.ts";
import { nextTarget } from "../../src-node/chain/nextTarget.ts";
import {
  developmentVersion,
  mainnet01Version,
  testSingletonVersion,
  testTransitionVersion,
} from "../../src-node/chain/versions.ts";

const base: DaHeader = {
  chainId: 0,
  height: 500,
  target: 1n << 200n,
  creationTime: 2_000_000_000_000_000,
  epochStart: 2_000_000_000_000_000 - 3_600_000_000,
};

describe("[chain] epochs", () => {
  it("uses a window of 12 up to height 120 and 120 above", () => {
    expect(effectiveWindow(developmentVersion, 0)).toBe(12);
    expect(effectiveWindow(developmentVersion, 120)).toBe(12);
    expect(effectiveWindow(developmentVersion, 121)).toBe(120);
  });
  it("ends epochs where (height + 1) is a multiple of the window", () => {
    const ends = [...Array(300).keys()].filter((h) =>
      isLastInEpoch(developmentVersion, { height: h }),
    );
    expect(ends.slice(0, 11)).toEqual([11, 23, 35, 47, 59, 71, 83, 95, 107, 119, 239]);
  });
  it("starts epochs after an epoch end, at block 1 (fake first epoch), and after a new chain's first block", () => {
    const at = (height: number, chainId = 0): DaHeader => ({ ...base, height, chainId });
    expect(nextEpochStart(developmentVersion, at(500))).toBe(base.epochStart);
    expect(nextEpochStart(developmentVersion, at(599))).toBe(base.creationTime);
    expect(nextEpochStart(developmentVersion, at(1))).toBe(base.creationTime);
    expect(nextEpochStart(mainnet01Version, at(2))).toBe(base.epochStart);
    // chain 10 of test-transition starts at 10: its block 11 is its first mined block
    // (11 also ends an epoch; 12 does not, and chain 0's block 12 keeps its epoch)
    expect(nextEpochStart(testTransitionVersion, at(11, 10))).toBe(base.creationTime);
    expect(nextEpochStart(testTransitionVersion, at(12, 10))).toBe(base.epochStart);
    expect(nextEpochStart(testTransitionVersion, at(12, 0))).toBe(base.epochStart);
    expect(nextEpochStart(testTransitionVersion, at(11, 0))).toBe(base.creationTime);
  });
});

describe("[chain] targets", () => {
  it("keeps the parent's target inside an epoch and on fixed-target versions", () => {
    expect(nextTarget(developmentVersion, base, [base, base, base])).toBe(base.target);
    const end = { ...base, height: 599 };
    expect(nextTarget(testSingletonVersion, end, [end, end, end])).toBe(end.target);
  });
  it("at an epoch end, averages ceil(elapsed · target / expected) over parent and adjacent parents", () => {
    const expected = 120n * 30_000_000n;
    const p = { ...base, height: 599, creationTime: base.epochStart + 7_200_000_000 }; // 2 h: twice too slow
    const a1 = {
      ...p,
      chainId: 5,
      target: 3n * 10n ** 50n,
      creationTime: p.epochStart + 1_800_000_000,
    };
    const a2 = { ...p, chainId: 10, target: 7n, creationTime: p.epochStart + 1 };
    const a3 = { ...p, chainId: 15 };
    const ceil = (n: bigint, d: bigint) => (n + d - 1n) / d;
    const t = (x: DaHeader) => ceil(BigInt(x.creationTime - x.epochStart) * x.target, expected);
    const want = (t(p) + t(a1) + t(a2) + t(a3)) / 4n;
    expect(nextTarget(developmentVersion, p, [a1, a2, a3])).toBe(want);
    expect(t(p)).toBe(p.target * 2n);
    expect(t(a2)).toBe(1n); // ceil, not floor
  });
  it("caps each proposal at the maximal target", () => {
    const p = {
      ...base,
      height: 599,
      target: MAX_TARGET - 5n,
      epochStart: base.creationTime - 10 ** 12,
    };
    expect(nextTarget(developmentVersion, p, [p, p, p])).toBe(MAX_TARGET);
  });
  it("difficulty and weight", () => {
    expect(targetToDifficulty(MAX_TARGET)).toBe(1n);
    expect(targetToDifficulty(MAX_TARGET / 100_000n)).toBe(100_000n);
    expect(childWeight(10n, MAX_TARGET)).toBe(11n);
  });
});

/** Deterministic uniform (0, 1] numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
}

/**
 * Simulates mining on every chain of development at once: total hash rate
 * `rate(t)` (hashes per µs) is shared by the chains that can be extended
 * (a chain waits while a neighbour is behind). Block times are exponential
 * with mean difficulty / (hash rate of the chain). Returns the per-chain
 * history of DA headers.
 */
function simulate(rate: (t: number) => number, heights: number): DaHeader[][] {
  const v = developmentVersion;
  const graph = graphAtHeight(v.graphHistory, 0);
  const random = rng(7);
  const history: DaHeader[][] = graph.chains.map((c) => [
    {
      chainId: c,
      height: 0,
      target: v.genesisTargets.get(c) as bigint,
      creationTime: v.genesisTime,
      epochStart: v.genesisTime,
    },
  ]);
  const head = (c: number) => history[c]?.[history[c].length - 1] as DaHeader;
  let t = v.genesisTime + 86_400_000_000; // mining starts a day after genesis
  while (Math.min(...graph.chains.map((c) => head(c).height)) < heights) {
    const ready = graph.chains.filter((c) =>
      (graph.adjacency.get(c) ?? []).every((a) => head(a).height >= head(c).height),
    );
    let best = Number.POSITIVE_INFINITY;
    let chosen = -1;
    let chosenTarget = 0n;
    for (const c of ready) {
      const p = head(c);
      const adj = (graph.adjacency.get(c) ?? []).map((a) => history[a]?.[p.height] as DaHeader);
      const target = nextTarget(v, p, adj);
      const meanMicros = Number(targetToDifficulty(target)) / (rate(t) / ready.length);
      const wait = -Math.log(random()) * meanMicros;
      if (wait < best) {
        best = wait;
        chosen = c;
        chosenTarget = target;
      }
    }
    t += Math.max(1, Math.round(best));
    const p = head(chosen);
    history[chosen]?.push({
      chainId: chosen,
      height: p.height + 1,
      target: chosenTarget,
      creationTime: t,
      epochStart: nextEpochStart(v, p),
    });
  }
  return history.map((h) => h.slice(0, heights + 1));
}

/** Mean time between blocks (µs) over heights [from, to], averaged over chains. */
function meanBlockTime(history: DaHeader[][], from: number, to: number): number {
  const per = history.map(
    (h) => ((h[to] as DaHeader).creationTime - (h[from] as DaHeader).creationTime) / (to - from),
  );
  return per.reduce((s, x) => s + x, 0) / per.length;
}

describe("[chain] difficulty adjustment simulation (development, 20 chains)", () => {
  // Equilibrium difficulty per chain: rate / 20 chains × 30 s. With 2·10^3
  // hashes/µs it is 3·10^9, 30 000 times the genesis difficulty (10^5).
  const delay = developmentVersion.blockDelay;
  const slow = 2_000;
  it("converges from a far too easy genesis difficulty to the 30 s block delay", () => {
    const history = simulate(() => slow, 1_200);
    const early = meanBlockTime(history, 1, 11);
    expect(early).toBeLessThan(delay / 100); // the first epoch is far too fast
    const late = meanBlockTime(history, 840, 1_200);
    expect(Math.abs(late - delay) / delay).toBeLessThan(0.1);
    // the chains stay in lock-step: targets within a factor 2 of each other
    const targets = history.map((h) => (h[1_200] as DaHeader).target);
    let [max, min] = [targets[0] as bigint, targets[0] as bigint];
    for (const t of targets) {
      if (t > max) max = t;
      if (t < min) min = t;
    }
    expect(max / min).toBeLessThan(2n);
  });
  it("re-converges after the hash rate quadruples", () => {
    let switchedAt = Number.POSITIVE_INFINITY;
    const history = simulate((t) => {
      if (
        t > developmentVersion.genesisTime + 86_400_000_000 + 1_200 * delay &&
        switchedAt === Number.POSITIVE_INFINITY
      ) {
        switchedAt = t;
      }
      return t >= switchedAt ? slow * 4 : slow;
    }, 2_400);
    const fast = history.map((h) => h.findIndex((x) => x.creationTime >= switchedAt));
    const start = Math.max(...fast) + 360;
    const late = meanBlockTime(history, start, 2_400);
    expect(Math.abs(late - delay) / delay).toBeLessThan(0.1);
  });
});
