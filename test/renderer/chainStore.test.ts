/**
 * The shared chain store (renderer/src/services/chainStore.ts): one header stream for any
 * number of subscribers, a `/cut` snapshot at start and on every (re)connection, header
 * events applied in between, `onBlock` listeners told of each new block, stable snapshots
 * for `useSyncExternalStore`, and nothing after `close()`.
 */
import { describe, expect, it } from "vitest";
import {
  type ClientError,
  ClientErrorCode,
  type ClientResult,
} from "../../renderer/src/api/clientError.ts";
import type { Cut } from "../../renderer/src/api/cut.ts";
import type { EventSourceLike } from "../../renderer/src/api/headerStream.ts";
import type { HeaderUpdate } from "../../renderer/src/api/headerUpdate.ts";
import { ChainStore } from "../../renderer/src/services/chainStore.ts";
import {
  createAppQueryClient,
  invalidateOnNewBlocks,
  queryKeys,
} from "../../renderer/src/services/queryClient.ts";

const H = (c: string) => c.repeat(43).slice(0, 43);
const URL = "http://127.0.0.1:1/ledger/0.0/development";

class FakeSource implements EventSourceLike {
  readyState = 0;
  closed = false;
  readonly listeners = new Map<string, ((e: { data?: unknown }) => void)[]>();
  addEventListener(type: string, l: (e: { data?: unknown }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), l]);
  }
  emit(type: string, data?: unknown) {
    for (const l of this.listeners.get(type) ?? []) l({ data });
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
}

function cutOf(heights: number[]): Cut {
  return {
    heads: heights.map((height, chainId) => ({ chainId, height, hash: H(String(chainId)) })),
    height: heights.reduce((a, b) => a + b, 0),
    weight: "w",
    instance: "development",
    id: H("i"),
  };
}

function setup(replies: ClientResult<Cut>[]) {
  const sources: FakeSource[] = [];
  let cutCalls = 0;
  let clock = 0;
  const store = new ChainStore({
    client: {
      url: (path) => `${URL}${path}`,
      cut: () => {
        const reply = replies[Math.min(cutCalls, replies.length - 1)];
        cutCalls += 1;
        return Promise.resolve(reply as ClientResult<Cut>);
      },
    },
    createSource: () => {
      const s = new FakeSource();
      sources.push(s);
      return s;
    },
    now: () => clock++,
    snapshotEveryMs: 3_600_000,
  });
  return { store, sources, cutCalls: () => cutCalls };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const header = (chainId: number, height: number) =>
  JSON.stringify({ header: { chainId, height, hash: H("n"), creationTime: 1 }, txCount: 2 });

describe("[renderer] chain store", () => {
  it("opens one stream for all subscribers and snapshots the cut at start and on open", async () => {
    const { store, sources, cutCalls } = setup([{ ok: true, value: cutOf([4, 5]) }]);
    const before = store.getSnapshot();
    expect(before).toMatchObject({ stream: "connecting", error: null });
    expect(before.heights.loaded).toBe(false);
    let calls = 0;
    const un1 = store.subscribe(() => calls++);
    const un2 = store.subscribe(() => calls++);
    expect(sources).toHaveLength(1);
    await flush();
    expect(store.getSnapshot().heights.heads.map((h) => h.height)).toEqual([4, 5]);
    expect(store.getSnapshot().heights.cutHeight).toBe(9);
    expect(calls).toBeGreaterThan(0);
    // An unchanged store hands out the very same snapshot object.
    expect(store.getSnapshot()).toBe(store.getSnapshot());
    sources[0]?.emit("open");
    expect(store.getSnapshot().stream).toBe("open");
    await flush();
    expect(cutCalls()).toBe(2);
    un1();
    un2();
    store.close();
    expect(sources[0]?.closed).toBe(true);
  });

  it("applies header events and tells block listeners about each new block", async () => {
    const { store, sources } = setup([{ ok: true, value: cutOf([4, 5]) }]);
    const blocks: HeaderUpdate[] = [];
    store.onBlock((u) => blocks.push(u));
    store.subscribe(() => {});
    await flush();
    const snapshot = store.getSnapshot();
    sources[0]?.emit("BlockHeader", header(1, 6));
    expect(store.getSnapshot()).not.toBe(snapshot);
    expect(store.getSnapshot().heights.heads.map((h) => h.height)).toEqual([4, 6]);
    expect(store.getSnapshot().heights.cutHeight).toBe(10);
    expect(blocks).toEqual([{ chainId: 1, height: 6, hash: H("n"), creationTime: 1, txCount: 2 }]);
    // A bad event changes nothing and reaches no listener.
    sources[0]?.emit("BlockHeader", "{");
    expect(blocks).toHaveLength(1);
    store.close();
  });

  it("keeps the last snapshot failure until a snapshot succeeds", async () => {
    const down: ClientError = { code: ClientErrorCode.Unreachable, url: `${URL}/cut`, detail: "x" };
    const { store } = setup([
      { ok: false, error: down },
      { ok: true, value: cutOf([1]) },
    ]);
    store.subscribe(() => {});
    await flush();
    expect(store.getSnapshot().error).toEqual(down);
    store.reload();
    await flush();
    expect(store.getSnapshot().error).toBeNull();
    expect(store.getSnapshot().heights.cutHeight).toBe(1);
    store.close();
  });

  it("does nothing after close", async () => {
    const { store, sources, cutCalls } = setup([{ ok: true, value: cutOf([1]) }]);
    store.subscribe(() => {});
    store.close();
    await flush();
    const snapshot = store.getSnapshot();
    store.reload();
    store.subscribe(() => {});
    await flush();
    expect(cutCalls()).toBe(1);
    expect(sources).toHaveLength(1);
    expect(store.getSnapshot().heights).toBe(snapshot.heights);
  });

  it("invalidates the new block's chain queries and the cut's, not other chains'", async () => {
    const { store, sources } = setup([{ ok: true, value: cutOf([4, 5, 6]) }]);
    const queries = createAppQueryClient();
    const stop = invalidateOnNewBlocks(store, queries);
    queries.setQueryData([...queryKeys.chain(1), "blocks"], ["old"]);
    queries.setQueryData([...queryKeys.chain(2), "blocks"], ["old"]);
    queries.setQueryData([...queryKeys.cut, "summary"], "old");
    queries.setQueryData(queryKeys.nodeInfo, "info");
    const invalid = (key: readonly unknown[]) => queries.getQueryState(key)?.isInvalidated;
    store.subscribe(() => {});
    await flush();
    sources[0]?.emit("BlockHeader", header(1, 6));
    expect(invalid([...queryKeys.chain(1), "blocks"])).toBe(true);
    expect(invalid([...queryKeys.cut, "summary"])).toBe(true);
    expect(invalid([...queryKeys.chain(2), "blocks"])).toBe(false);
    expect(invalid(queryKeys.nodeInfo)).toBe(false);
    stop();
    queries.setQueryData([...queryKeys.chain(2), "blocks"], ["new"]);
    sources[0]?.emit("BlockHeader", header(2, 7));
    expect(invalid([...queryKeys.chain(2), "blocks"])).toBe(false);
    store.close();
    queries.clear();
  });
});
