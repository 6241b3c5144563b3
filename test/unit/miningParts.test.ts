/**
 * The small parts of mining: miner information parsing, the empty payload,
 * the outstanding-work cache (bound, expiry, refresh), the update-stream
 * policy (limit, jittered lifetime, chain filter), the mining options of the
 * node's configuration, and `weft node --mine --enable-mining-api`.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { encodeWorkHeader } from "../../src-node/chain/blockHeaderBinary.ts";
import { genesisHeadersOf } from "../../src-node/chain/genesisHeader.ts";
import { buildGenesisPayload } from "../../src-node/chain/genesisPayload.ts";
import { minerDataJson } from "../../src-node/chain/minerData.ts";
import { newBlockHeader } from "../../src-node/chain/newBlockHeader.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import type { CliIo } from "../../src-node/cli/io.ts";
import { nodeCommand, type StopSignals } from "../../src-node/cli/node.ts";
import { loadConfigFile } from "../../src-node/config/loadConfigFile.ts";
import { resolveNodeOptions } from "../../src-node/config/nodeOptions.ts";
import { parseNodeFlags } from "../../src-node/config/parseNodeFlags.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { minerInfoOf, parseMinerInfoText } from "../../src-node/mining/minerInfo.ts";
import { OutstandingWork, workKey } from "../../src-node/mining/outstandingWork.ts";
import { emptyPayloadProvider } from "../../src-node/mining/payloadProvider.ts";
import { UpdateStreams } from "../../src-node/mining/updateStreams.ts";
import type {
  WorkUpdateKind,
  WorkUpdateListener,
  WorkUpdates,
} from "../../src-node/mining/workUpdates.ts";
import { createNode } from "../../src-node/node.ts";
import { tempDir } from "../support/testNode.ts";

const KEY = "0f".repeat(32);

function fieldOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isNodeError(e)) return `${e.code} ${(e.type as { field?: string }).field ?? ""}`.trim();
    throw e;
  }
  return "no error";
}

describe("[mining] miner information", () => {
  it("parses the reference shape and names each bad key", () => {
    const info = parseMinerInfoText(
      JSON.stringify({ account: "miner", predicate: "keys-any", "public-keys": [KEY, KEY] }),
    );
    expect(info).toEqual({ account: "miner", predicate: "keys-any", publicKeys: [KEY, KEY] });
    expect(fieldOf(() => parseMinerInfoText("null"))).toBe("MINING_BAD_MINER_INFO body");
    expect(
      fieldOf(() =>
        parseMinerInfoText(
          JSON.stringify({ account: 1, predicate: "keys-all", "public-keys": [KEY] }),
        ),
      ),
    ).toBe("MINING_BAD_MINER_INFO account");
    expect(
      fieldOf(() =>
        parseMinerInfoText(
          JSON.stringify({ account: "a".repeat(257), predicate: "keys-all", "public-keys": [KEY] }),
        ),
      ),
    ).toBe("MINING_BAD_MINER_INFO account");
    expect(
      fieldOf(() =>
        parseMinerInfoText(
          JSON.stringify({ account: "m", predicate: "keys-all", "public-keys": [KEY, "00"] }),
        ),
      ),
    ).toBe("MINING_BAD_MINER_INFO public-keys[1]");
  });

  it("takes the key of a k: account, and needs keys for any other", () => {
    expect(minerInfoOf(`k:${KEY}`)).toEqual({
      account: `k:${KEY}`,
      predicate: "keys-all",
      publicKeys: [KEY],
    });
    expect(minerInfoOf("bob", [KEY], "keys-2").predicate).toBe("keys-2");
    expect(fieldOf(() => minerInfoOf("bob"))).toBe("MINING_BAD_MINER_INFO public-keys");
    expect(fieldOf(() => minerInfoOf(""))).toBe("MINING_BAD_MINER_INFO account");
    expect(fieldOf(() => minerInfoOf("bob", [KEY], "all"))).toBe("MINING_BAD_MINER_INFO predicate");
  });

  it("refuses k: accounts the coin contract would refuse (the reward would be lost)", () => {
    const other = "b".repeat(64);
    const upper = KEY.toUpperCase();
    // Upper-case hex in the account name.
    expect(fieldOf(() => minerInfoOf(`k:${upper}`))).toBe("MINING_BAD_MINER_INFO account");
    expect(fieldOf(() => minerInfoOf("k:abc", [KEY]))).toBe("MINING_BAD_MINER_INFO account");
    // Keys other than the account's own, more keys, or another predicate.
    for (const [keys, pred] of [
      [[other], "keys-all"],
      [[KEY, other], "keys-all"],
      [[KEY], "keys-any"],
      [[upper], "keys-all"],
    ] as const) {
      expect(
        fieldOf(() => minerInfoOf(`k:${KEY}`, keys, pred)),
        `${keys} ${pred}`,
      ).toBe("MINING_BAD_MINER_INFO public-keys");
    }
    // The same rule for work requests (GET /mining/work's body).
    expect(
      fieldOf(() =>
        parseMinerInfoText(
          JSON.stringify({ account: `k:${KEY}`, predicate: "keys-all", "public-keys": [other] }),
        ),
      ),
    ).toBe("MINING_BAD_MINER_INFO public-keys");
    expect(minerInfoOf(`k:${KEY}`, [KEY]).publicKeys).toEqual([KEY]);
  });
});

describe("[mining] empty payload", () => {
  it("has no transactions, the miner data in reference key order and a per-parent coinbase", async () => {
    const genesis = genesisHeadersOf(
      testSingletonVersion,
      () => buildGenesisPayload([]).payloadHash,
    );
    const info = minerInfoOf(`k:${KEY}`);
    const p0 = await emptyPayloadProvider(0, genesis.get(0)!, info);
    const p1 = await emptyPayloadProvider(1, genesis.get(1)!, info);
    expect(p0.transactions).toEqual([]);
    expect(new TextDecoder().decode(p0.minerData)).toBe(
      `{"account":"k:${KEY}","predicate":"keys-all","public-keys":["${KEY}"]}`,
    );
    expect(new TextDecoder().decode(p0.minerData)).toBe(minerDataJson(info));
    expect(p0.payloadHash).not.toBe(p1.payloadHash);
  });
});

function workItem(chainId: number, creationTime: number, account = "m") {
  const genesis = genesisHeadersOf(testSingletonVersion, () => buildGenesisPayload([]).payloadHash);
  const parent = genesis.get(chainId)!;
  const adjacentParents = [...genesis.values()];
  const payload = emptyPayloadProvider(chainId, parent, minerInfoOf(account, [KEY]));
  if (payload instanceof Promise) throw new Error("sync provider expected");
  const header = newBlockHeader({
    version: testSingletonVersion,
    parent,
    adjacentParents,
    creationTime,
    payloadHash: payload.payloadHash,
  });
  return {
    header,
    workHeader: encodeWorkHeader(header),
    payload,
    minerInfo: minerInfoOf(account, [KEY]),
    latestParentTime: parent.creationTime,
  };
}

describe("[mining] outstanding work", () => {
  it("ignores creation time and nonce in the work key", () => {
    const a = workItem(0, 1_000);
    const b = workItem(0, 2_000);
    expect(workKey(a.workHeader)).toBe(workKey(b.workHeader));
    const nonce = b.workHeader.slice();
    nonce[285] = 9;
    expect(workKey(nonce)).toBe(workKey(a.workHeader));
    expect(workKey(workItem(1, 1_000).workHeader)).not.toBe(workKey(a.workHeader));
  });

  it("keeps at most `limit` items, dropping the one handed out longest ago", () => {
    const w = new OutstandingWork({ limit: 2 });
    const [a, b, c] = [workItem(0, 1), workItem(1, 1), workItem(2, 1)];
    w.add(a);
    w.add(b);
    w.add(a); // a handed out again: b is now the oldest
    w.add(c);
    expect(w.size).toBe(2);
    expect(w.find(b.workHeader)).toBeUndefined();
    expect(w.find(a.workHeader)).toBeDefined();
    expect(w.withPayload(c.payload.payloadHash)).toHaveLength(1);
    expect(w.withPayload(b.payload.payloadHash)).toEqual([]);
    w.remove(a.workHeader);
    expect(w.size).toBe(1);
  });

  it("forgets items after their lifetime", () => {
    let now = 0;
    const w = new OutstandingWork({ ttlMs: 1000, now: () => now });
    const a = workItem(0, 1);
    w.add(a);
    now = 999;
    expect(w.find(a.workHeader)).toBeDefined();
    w.add(workItem(1, 1));
    now = 1000;
    expect(w.find(a.workHeader)).toBeUndefined();
    expect(w.size).toBe(1);
    now = 2000;
    expect(w.size).toBe(0);
  });

  it("refuses a non-positive bound", () => {
    expect(fieldOf(() => new OutstandingWork({ limit: 0 }))).toBe("MINING_BAD_ARGUMENT workLimit");
  });
});

/** A stand-in for WorkUpdates: the test fires the changes. */
function fakeUpdates() {
  const listeners = new Set<WorkUpdateListener>();
  const updates = {
    subscribe(l: WorkUpdateListener) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  } as unknown as WorkUpdates;
  const fire = (chains: number[], kind: WorkUpdateKind = "new-cut") => {
    for (const l of listeners) l(chains, kind);
  };
  return { updates, fire, listeners };
}

describe("[mining] update streams", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("tells each stream about its chain only, or about every chain", () => {
    const f = fakeUpdates();
    const streams = new UpdateStreams(f.updates);
    const got: string[] = [];
    streams.open(3, { onUpdate: () => got.push("3"), onEnd: () => undefined });
    streams.open(undefined, { onUpdate: () => got.push("all"), onEnd: () => undefined });
    f.fire([1, 2]);
    f.fire([3]);
    expect(got).toEqual(["all", "3", "all"]);
    streams.close();
    expect(f.listeners.size).toBe(0);
  });

  it("passes on why: new-cut or refreshed", () => {
    const f = fakeUpdates();
    const streams = new UpdateStreams(f.updates);
    const got: string[] = [];
    streams.open(3, { onUpdate: (kind) => got.push(kind), onEnd: () => undefined });
    f.fire([3]);
    f.fire([3], "refreshed");
    f.fire([4], "refreshed");
    expect(got).toEqual(["new-cut", "refreshed"]);
    streams.close();
  });

  it("caps open streams; a closed stream frees its place", () => {
    const f = fakeUpdates();
    const streams = new UpdateStreams(f.updates, { limit: 2 });
    const sink = { onUpdate: () => undefined, onEnd: () => undefined };
    const a = streams.open(1, sink);
    streams.open(2, sink);
    expect(fieldOf(() => streams.open(3, sink))).toBe("MINING_TOO_MANY_STREAMS");
    a.close();
    expect(streams.size).toBe(1);
    streams.open(3, sink);
    expect(streams.size).toBe(2);
    streams.close();
  });

  it("ends each stream after the timeout with ±10 % jitter", () => {
    vi.useFakeTimers();
    const f = fakeUpdates();
    let r = 0;
    const streams = new UpdateStreams(f.updates, { timeoutMs: 240_000, random: () => r });
    expect(streams.lifetimeMs()).toBe(216_000);
    r = 0.999999;
    expect(streams.lifetimeMs()).toBe(264_000);
    r = 0.5;
    const ended: number[] = [];
    streams.open(1, { onUpdate: () => undefined, onEnd: () => ended.push(Date.now()) });
    const start = Date.now();
    vi.advanceTimersByTime(239_999);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ended).toEqual([start + 240_000]);
    expect(streams.size).toBe(0);
  });
});

describe("[mining] configuration", () => {
  it("reads the mining flags", () => {
    const f = parseNodeFlags([
      "--enable-mining-api",
      "--mine",
      "--miner-account",
      "bob",
      `--miner-key=${KEY},${"1".repeat(64)}`,
      "--miner-threads",
      "2",
    ]);
    expect(resolveNodeOptions(f.options).mining).toEqual({
      enabled: true,
      threads: 2,
      account: "bob",
      publicKeys: [KEY, "1".repeat(64)],
      predicate: undefined,
      apiEnabled: true,
      updateStreamTimeout: undefined,
      updateStreamLimit: undefined,
      onDemand: false,
      onDemandConfirmations: 1,
    });
    expect(resolveNodeOptions({}).mining).toMatchObject({ enabled: false, apiEnabled: false });
  });

  it("reads mining.api.enabled and the stream settings from YAML", () => {
    const dir = tempDir();
    try {
      const file = join(dir, "node.yaml");
      writeFileSync(
        file,
        [
          "mining:",
          "  account: bob",
          `  public-keys: [${KEY}]`,
          "  predicate: keys-any",
          "  api:",
          "    enabled: true",
          "    update-stream-timeout: 60",
          "    update-stream-limit: 10",
          "",
        ].join("\n"),
      );
      expect(resolveNodeOptions(loadConfigFile(file)).mining).toEqual({
        enabled: false,
        threads: undefined,
        account: "bob",
        publicKeys: [KEY],
        predicate: "keys-any",
        apiEnabled: true,
        updateStreamTimeout: 60,
        updateStreamLimit: 10,
        onDemand: false,
        onDemandConfirmations: 1,
      });
      writeFileSync(file, "mining:\n  api:\n    limit: 3\n");
      expect(fieldOf(() => loadConfigFile(file))).toBe("CONFIG_UNKNOWN_KEY");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names the bad mining option by its YAML key", async () => {
    const dir = tempDir();
    try {
      const bad = async (mining: Record<string, unknown>) => {
        try {
          await createNode({ network: "test-singleton", dataDir: dir, listen: false, mining });
        } catch (e) {
          if (isNodeError(e)) return (e.type as { key?: string }).key;
          throw e;
        }
        return "no error";
      };
      expect(await bad({ apiEnabled: "maybe" })).toBe("mining.api.enabled");
      expect(await bad({ updateStreamTimeout: 0 })).toBe("mining.api.update-stream-timeout");
      expect(await bad({ publicKeys: [] })).toBe("mining.public-keys");
      expect(await bad({ account: "bob" })).toBe("mining.public-keys");
      expect(await bad({ account: "bob", publicKeys: ["zz"] })).toBe("mining.public-keys");
      expect(await bad({ account: `k:${KEY}`, predicate: "any" })).toBe("mining.predicate");
      expect(await bad({ publicKeys: [KEY] })).toBe("mining.account");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("[mining] weft node --mine", () => {
  it("mines with the built-in miner and serves the mining API until stopped", async () => {
    const dir = tempDir();
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: (s: string) => err.push(s) },
      readStdin: async () => "",
      now: () => new Date(),
    };
    let stop: ((s: string) => void) | undefined;
    const signals: StopSignals = {
      onStop(cb) {
        stop = cb;
        return () => undefined;
      },
    };
    try {
      const done = nodeCommand(
        [
          "--network",
          "test-singleton",
          "--data-dir",
          dir,
          "--port",
          "0",
          "--mine",
          "--miner-account",
          `k:${KEY}`,
          "--enable-mining-api",
        ],
        io,
        signals,
      );
      for (let i = 0; i < 1000 && !out.join("").includes("\n"); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      const base = out.join("").trim();
      let height = 0;
      for (let i = 0; i < 1000 && height < 5; i++) {
        await new Promise((r) => setTimeout(r, 10));
        const cut = (await (await fetch(`${base}/cut`)).json()) as { height: number };
        height = cut.height;
      }
      expect(height).toBeGreaterThanOrEqual(5);
      stop?.("SIGINT");
      expect(await done).toBe(0);
      expect(err.join("")).toContain("stopped");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
