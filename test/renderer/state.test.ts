/**
 * The renderer's plain logic: the live chain heights, the header stream follower, number
 * formatting, the route contract and the desktop bridge lookup.
 */
import { describe, expect, it, vi } from "vitest";
import type { Cut } from "../../renderer/src/api/cut.ts";
import {
  type EventSourceLike,
  followHeaderStream,
  type StreamState,
} from "../../renderer/src/api/headerStream.ts";
import type { HeaderUpdate } from "../../renderer/src/api/headerUpdate.ts";
import { homePath, href, navPages, routePaths } from "../../renderer/src/app/routes.ts";
import { findDesktopBridge } from "../../renderer/src/desktop/desktopBridge.ts";
import { formatHashRate, formatInteger, shortHash } from "../../renderer/src/format/number.ts";
import {
  chainHeightsReducer,
  emptyChainHeights,
} from "../../renderer/src/services/chainHeights.ts";

const H = (c: string) => c.repeat(43).slice(0, 43);

function cut(heights: number[]): Cut {
  return {
    heads: heights.map((height, chainId) => ({ chainId, height, hash: H(String(chainId)) })),
    height: heights.reduce((a, b) => a + b, 0),
    weight: "w",
    instance: "development",
    id: H("i"),
  };
}

function update(chainId: number, height: number): HeaderUpdate {
  return { chainId, height, hash: H("u"), creationTime: 0, txCount: 0 };
}

describe("[renderer] chain heights", () => {
  it("takes the heads of a snapshot and sums the cut height", () => {
    const s = chainHeightsReducer(emptyChainHeights, {
      type: "snapshot",
      cut: cut([5, 6, 7]),
      requestedAt: 0,
    });
    expect(s.loaded).toBe(true);
    expect(s.heads.map((h) => h.height)).toEqual([5, 6, 7]);
    expect(s.cutHeight).toBe(18);
  });

  it("moves one chain on a header event", () => {
    let s = chainHeightsReducer(emptyChainHeights, {
      type: "snapshot",
      cut: cut([5, 6, 7]),
      requestedAt: 0,
    });
    s = chainHeightsReducer(s, { type: "header", update: update(1, 7), at: 10 });
    expect(s.heads.map((h) => [h.chainId, h.height])).toEqual([
      [0, 5],
      [1, 7],
      [2, 7],
    ]);
    expect(s.heads[1]?.hash).toBe(H("u"));
    expect(s.cutHeight).toBe(19);
  });

  it("does not let a snapshot requested before an event undo it", () => {
    let s = chainHeightsReducer(emptyChainHeights, {
      type: "header",
      update: update(0, 9),
      at: 100,
    });
    expect(s.loaded).toBe(false);
    s = chainHeightsReducer(s, { type: "snapshot", cut: cut([8, 3]), requestedAt: 50 });
    expect(s.heads.map((h) => h.height)).toEqual([9, 3]);
    // A snapshot requested after the event wins, even if it is lower (a fork switch).
    s = chainHeightsReducer(s, { type: "snapshot", cut: cut([8, 3]), requestedAt: 150 });
    expect(s.heads.map((h) => h.height)).toEqual([8, 3]);
  });
});

class FakeEventSource implements EventSourceLike {
  static made: FakeEventSource[] = [];
  readyState = 0;
  closed = false;
  readonly listeners = new Map<string, ((e: { data?: unknown }) => void)[]>();
  readonly url: string;
  constructor(url: string) {
    this.url = url;
    FakeEventSource.made.push(this);
  }
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

describe("[renderer] header stream", () => {
  const event = (chainId: number, height: number) =>
    JSON.stringify({ header: { chainId, height, hash: H("h"), creationTime: 1 }, txCount: 0 });

  function follow() {
    FakeEventSource.made = [];
    const states: StreamState[] = [];
    const headers: HeaderUpdate[] = [];
    const bad: string[] = [];
    const timers: (() => void)[] = [];
    const stop = followHeaderStream(
      {
        url: "http://127.0.0.1:1/ledger/0.0/development/header/updates",
        create: (url) => new FakeEventSource(url),
        timers: { setTimeout: (f) => timers.push(f), clearTimeout: () => {} },
      },
      {
        onHeader: (u) => headers.push(u),
        onState: (s) => states.push(s),
        onBadEvent: (r) => bad.push(r),
      },
    );
    return { states, headers, bad, timers, stop };
  }

  it("reports BlockHeader events and the connection state", () => {
    const f = follow();
    const es = FakeEventSource.made[0];
    expect(es?.url).toBe("http://127.0.0.1:1/ledger/0.0/development/header/updates");
    es?.emit("open");
    es?.emit("BlockHeader", event(4, 12));
    es?.emit("BlockHeader", "not json");
    expect(f.headers).toEqual([
      { chainId: 4, height: 12, hash: H("h"), creationTime: 1, txCount: 0 },
    ]);
    expect(f.bad).toEqual(["event data: expected JSON"]);
    expect(f.states).toEqual(["connecting", "open"]);
    f.stop();
    expect(es?.closed).toBe(true);
    expect(f.states.at(-1)).toBe("closed");
  });

  it("lets the browser retry a dropped connection and reopens one it gave up on", () => {
    const f = follow();
    const first = FakeEventSource.made[0];
    first?.emit("error");
    expect(f.states.at(-1)).toBe("reconnecting");
    expect(f.timers).toHaveLength(0);
    if (first) first.readyState = 2;
    first?.emit("error");
    expect(f.timers).toHaveLength(1);
    f.timers[0]?.();
    const second = FakeEventSource.made[1];
    second?.emit("open");
    expect(f.states.at(-1)).toBe("open");
    first?.emit("BlockHeader", event(0, 1));
    expect(f.headers).toHaveLength(0);
    f.stop();
  });
});

describe("[renderer] formatting", () => {
  it("groups integers", () => {
    expect(formatInteger(0)).toBe("0");
    expect(formatInteger(127147019)).toBe("127,147,019");
  });

  it("formats hash rates with three significant digits", () => {
    const cases: [number, string][] = [
      [0, "0 H/s"],
      [-5, "0 H/s"],
      [Number.NaN, "0 H/s"],
      [12.4, "12 H/s"],
      [999, "999 H/s"],
      [1000, "1.00 kH/s"],
      [1534000, "1.53 MH/s"],
      [45_600_000, "45.6 MH/s"],
      [999_600, "1.00 MH/s"],
      [2.5e12, "2.50 TH/s"],
    ];
    for (const [h, s] of cases) expect(formatHashRate(h), String(h)).toBe(s);
  });

  it("shortens hashes", () => {
    expect(shortHash(H("a"))).toBe("aaaaaaaaaa…");
    expect(shortHash("abc")).toBe("abc");
  });
});

describe("[renderer] routes", () => {
  it("keeps the addresses of the contract", () => {
    expect(navPages.map((p) => p.label)).toEqual(["Wallet", "Explorer", "Backup", "Node"]);
    expect(navPages.map((p) => p.to)).toEqual(["/wallet", "/explorer", "/backup", "/node"]);
    expect(homePath).toBe("/node");
    expect(Object.values(routePaths)).toEqual([
      "/node",
      "/wallet",
      "/wallet/account/$name",
      "/wallet/finish/$requestKey",
      "/wallet/send",
      "/wallet/sign",
      "/wallet/dapp",
      "/wallet/multisig",
      "/wallet/history",
      "/backup",
      "/explorer",
      "/explorer/chain/$chain",
      "/explorer/chain/$chain/block/$hash",
      "/explorer/tx/$requestKey",
      "/explorer/account/$name",
      "/explorer/module/$name",
      "/explorer/search/$query",
    ]);
  });

  it("builds hash addresses with their parameters, encoded", () => {
    expect(href("node", {})).toBe("#/node");
    expect(href("explorerBlock", { chain: "3", hash: H("b") })).toBe(
      `#/explorer/chain/3/block/${H("b")}`,
    );
    expect(href("explorerTx", { requestKey: H("r") })).toBe(`#/explorer/tx/${H("r")}`);
    expect(href("walletAccount", { name: "k:ab" })).toBe("#/wallet/account/k%3Aab");
    expect(href("explorerAccount", { name: "a b/c" })).toBe("#/explorer/account/a%20b%2Fc");
    expect(href("explorerModule", { name: "free.m" })).toBe("#/explorer/module/free.m");
    expect(() => href("explorerChain", { chain: "" })).toThrow(/no chain/);
  });
});

describe("[renderer] desktop bridge", () => {
  it("finds the bridge only when it has every method", () => {
    const api = {
      appInfo: vi.fn(),
      chooseFolder: vi.fn(),
      openFolder: vi.fn(),
      readSettings: vi.fn(),
      writeSettings: vi.fn(),
    };
    expect(findDesktopBridge({ weftDesktop: api })).toBe(api);
    expect(findDesktopBridge({ weftDesktop: { ...api, openFolder: 1 } })).toBeNull();
    expect(findDesktopBridge({})).toBeNull();
    expect(findDesktopBridge(undefined)).toBeNull();
  });
});
