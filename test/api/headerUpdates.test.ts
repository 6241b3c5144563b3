/**
 * GET {base_url}/header/updates: server-sent events over a real socket
 * (127.0.0.1, port 0), one `BlockHeader` event per block added to the best
 * cut, fork switches announcing the new branch; closing the node ends the
 * stream.
 */
import { get, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { blockHeaderToObject } from "../../src-node/chain/blockHeaderObject.ts";
import { powHash, powHashHex } from "../../src-node/chain/pow.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { ChainBuilder } from "../support/chainBuilder.ts";
import { executingPayloads } from "../support/executingPayloads.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

let t: TestNode | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

type Event = { event: string; data: Record<string, unknown> };

/** Connects and collects events; `waitFor(n)` resolves once n events arrived. */
function subscribe(url: string) {
  const events: Event[] = [];
  let buffer = "";
  let response: IncomingMessage | undefined;
  let waiters: { n: number; resolve: () => void }[] = [];
  let close = () => {};
  const ended = new Promise<void>((resolveEnd) => {
    const req = get(url, (res) => {
      response = res;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        for (let i = buffer.indexOf("\n\n"); i >= 0; i = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const lines = block.split("\n").filter((l) => !l.startsWith(":"));
          if (lines.length === 0) continue;
          const event = lines.find((l) => l.startsWith("event:"))?.slice(6) ?? "";
          const data = lines
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5))
            .join("\n");
          events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        }
        const ready = waiters.filter((w) => events.length >= w.n);
        waiters = waiters.filter((w) => events.length < w.n);
        for (const w of ready) w.resolve();
      });
      res.on("end", () => resolveEnd());
      res.on("close", () => resolveEnd());
    });
    req.on("error", () => resolveEnd());
    close = () => req.destroy();
  });
  const connected = new Promise<IncomingMessage>((resolve) => {
    const poll = () => (response !== undefined ? resolve(response) : setTimeout(poll, 5));
    poll();
  });
  return {
    events,
    connected,
    ended,
    close: () => close(),
    waitFor: (n: number) =>
      new Promise<void>((resolve) => {
        if (events.length >= n) resolve();
        else waiters.push({ n, resolve });
      }),
  };
}

/**
 * A stream read as the raw bytes of its connection (`HTTP/1.1` or
 * `HTTP/1.0`); `waitFor(text)` resolves once the bytes contain it.
 */
function rawSubscribe(base: string, httpVersion: "1.0" | "1.1") {
  const url = new URL(`${base}/header/updates`);
  const socket = connect(Number(url.port), url.hostname);
  socket.write(`GET ${url.pathname} HTTP/${httpVersion}\r\nHost: ${url.host}\r\n\r\n`);
  let received = "";
  let waiters: { text: string; resolve: () => void }[] = [];
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    received += chunk;
    const ready = waiters.filter((w) => received.includes(w.text));
    waiters = waiters.filter((w) => !received.includes(w.text));
    for (const w of ready) w.resolve();
  });
  return {
    received: () => received,
    /** The bytes after the response head. */
    body: () => received.slice(received.indexOf("\r\n\r\n") + 4),
    waitFor: (text: string) =>
      new Promise<void>((resolve) => {
        if (received.includes(text)) resolve();
        else waiters.push({ text, resolve });
      }),
    close: () => socket.destroy(),
  };
}

/** The SSE text of a header event as the stream writes it. */
function eventText(data: Record<string, unknown>): string {
  return `event:BlockHeader\ndata:${JSON.stringify(data)}\n\n`;
}

describe("[api] GET /header/updates", () => {
  it("streams one BlockHeader event per block added to the cut", async () => {
    t = await openTestNode();
    const base = await t.node.start();
    const s = subscribe(`${base}/header/updates`);
    const res = await s.connected;
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(res.headers["x-ledger-node-version"]).toBeDefined();
    expect(res.headers["x-peer-addr"]).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(res.headers["x-server-timestamp"]).toMatch(/^\d+$/);

    const b = ChainBuilder.create(
      testSingletonVersion,
      "main",
      t.node.blocks.genesis,
      executingPayloads(t.node.blocks),
    );
    const blocks = b.rounds(2);
    for (const x of blocks) t.node.blocks.insertBlock(x);
    await s.waitFor(blocks.length);
    expect(s.events.map((e) => e.event)).toEqual(blocks.map(() => "BlockHeader"));
    const first = s.events[0]!.data;
    const h = blocks[0]!.header;
    expect(first).toEqual({
      header: blockHeaderToObject(h),
      txCount: 1,
      powHash: powHashHex(powHash(h)),
      target: h.target.toString(16).padStart(64, "0"),
    });
    expect(first.powHash).toMatch(/^[0-9a-f]{64}$/);
    expect(s.events.map((e) => (e.data.header as { hash: string }).hash)).toEqual(
      blocks.map((x) => x.header.hash),
    );
  });

  it("announces the new branch of a fork switch, and not blocks that stay off the cut", async () => {
    t = await openTestNode();
    const base = await t.node.start();
    const main = ChainBuilder.create(
      testSingletonVersion,
      "main",
      t.node.blocks.genesis,
      executingPayloads(t.node.blocks),
    );
    for (const x of main.rounds(1)) t.node.blocks.insertBlock(x);
    const side = main.fork("side");
    const s = subscribe(`${base}/header/updates`);
    await s.connected;
    const m = main.round();
    const sb = side.rounds(2);
    for (const x of [...m, ...sb]) t.node.blocks.insertBlock(x);
    await s.waitFor(m.length + sb.length);
    const announced = s.events.map((e) => (e.data.header as { hash: string }).hash);
    expect(announced.slice(0, m.length)).toEqual(m.map((x) => x.header.hash));
    expect([...announced.slice(m.length)].sort()).toEqual(sb.map((x) => x.header.hash).sort());
  });

  it("sends every subscriber the same events through one cut listener, dropped with the last stream", async () => {
    t = await openTestNode();
    const base = await t.node.start();
    const idle = t.node.blocks.cutListenerCount;
    const subs = [0, 1, 2].map(() => subscribe(`${base}/header/updates`));
    await Promise.all(subs.map((s) => s.connected));
    expect(t.node.blocks.cutListenerCount).toBe(idle + 1);
    const b = ChainBuilder.create(
      testSingletonVersion,
      "main",
      t.node.blocks.genesis,
      executingPayloads(t.node.blocks),
    );
    const first = b.round();
    for (const x of first) t.node.blocks.insertBlock(x);
    await Promise.all(subs.map((s) => s.waitFor(first.length)));
    const [a, gone, c] = subs as [(typeof subs)[0], (typeof subs)[0], (typeof subs)[0]];
    gone.close();
    await gone.ended;
    const second = b.round();
    for (const x of second) t.node.blocks.insertBlock(x);
    const all = first.length + second.length;
    await Promise.all([a.waitFor(all), c.waitFor(all)]);
    expect(a.events).toEqual(c.events);
    expect(a.events.map((e) => (e.data.header as { hash: string }).hash)).toEqual(
      [...first, ...second].map((x) => x.header.hash),
    );
    expect(gone.events.length).toBe(first.length);
    a.close();
    c.close();
    await Promise.all([a.ended, c.ended]);
    // The server notices the closed sockets on its own schedule.
    await vi.waitFor(() => expect(t?.node.blocks.cutListenerCount).toBe(idle));
    // A later subscriber is served again.
    const late = subscribe(`${base}/header/updates`);
    await late.connected;
    const third = b.round();
    for (const x of third) t.node.blocks.insertBlock(x);
    await late.waitFor(third.length);
    expect(late.events.map((e) => (e.data.header as { hash: string }).hash)).toEqual(
      third.map((x) => x.header.hash),
    );
  });

  it("writes a cut change's events as one HTTP/1.1 chunk, and unframed to an HTTP/1.0 client", async () => {
    t = await openTestNode();
    const base = await t.node.start();
    const v11 = rawSubscribe(base, "1.1");
    const v10 = rawSubscribe(base, "1.0");
    await Promise.all([v11.waitFor(": connected\n\n"), v10.waitFor(": connected\n\n")]);
    expect(v11.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(v11.received().toLowerCase()).toContain("transfer-encoding: chunked\r\n");
    expect(v10.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(v10.received().toLowerCase()).not.toContain("transfer-encoding");

    const main = ChainBuilder.create(
      testSingletonVersion,
      "main",
      t.node.blocks.genesis,
      executingPayloads(t.node.blocks),
    );
    const data = (h: BlockHeader) => ({
      header: blockHeaderToObject(h),
      txCount: 1,
      powHash: powHashHex(powHash(h)),
      target: h.target.toString(16).padStart(64, "0"),
    });
    // What each cut change added, seen beside the stream's own listener.
    const changes: string[] = [];
    const stop = t.node.blocks.onCutChange((c) => {
      if (c.added.length > 0) changes.push(c.added.map((h) => eventText(data(h))).join(""));
    });
    for (const x of main.rounds(1)) t.node.blocks.insertBlock(x);
    // A side branch overtaking the main one: fork switches add several blocks at once.
    const side = main.fork("side");
    const blocks = [...main.round(), ...side.rounds(2)];
    for (const x of blocks) t.node.blocks.insertBlock(x);
    stop();
    expect(changes.some((c) => c.split("event:").length > 2)).toBe(true);
    const last = changes[changes.length - 1] as string;
    await Promise.all([v11.waitFor(last), v10.waitFor(last)]);
    // HTTP/1.0: the events as they are, after the comment line.
    expect(v10.body()).toBe(`: connected\n\n${changes.join("")}`);
    // HTTP/1.1: each write one chunk (size in hex, CRLF, bytes, CRLF), one per cut change.
    const chunks: string[] = [];
    let rest = v11.body();
    while (rest.length > 0) {
      const eol = rest.indexOf("\r\n");
      const size = Number.parseInt(rest.slice(0, eol), 16);
      chunks.push(rest.slice(eol + 2, eol + 2 + size));
      expect(rest.slice(eol + 2 + size, eol + 4 + size)).toBe("\r\n");
      rest = rest.slice(eol + 4 + size);
    }
    expect(chunks).toEqual([": connected\n\n", ...changes]);
    v11.close();
    v10.close();
  });

  it("ends the stream when the node closes", async () => {
    t = await openTestNode();
    const base = await t.node.start();
    const s = subscribe(`${base}/header/updates`);
    await s.connected;
    await t.node.close();
    await s.ended;
    expect(t.node.server.server.listening).toBe(false);
  });
});
