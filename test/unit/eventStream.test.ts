/**
 * EventStreams over a real socket: a client that stops reading is dropped
 * once MAX_PENDING_BYTES wait for it (the node's memory stays bounded), and
 * a client that reads gets every event.
 */
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import {
  type EventStream,
  EventStreams,
  eventFrame,
  MAX_PENDING_BYTES,
} from "../../src-node/api/eventStream.ts";

let server: FastifyInstance | undefined;
let client: Socket | undefined;
afterEach(async () => {
  client?.destroy();
  await server?.close();
  server = client = undefined;
});

/** A server with one stream route; resolves with the stream once a client opened it. */
async function streamServer(): Promise<{ port: number; opened: Promise<EventStream> }> {
  const streams = new EventStreams();
  let resolveOpened: (s: EventStream) => void = () => undefined;
  const opened = new Promise<EventStream>((r) => {
    resolveOpened = r;
  });
  server = Fastify();
  server.get("/s", (request, reply) => {
    resolveOpened(streams.open(request, reply, {}));
  });
  await server.listen({ host: "127.0.0.1", port: 0 });
  return { port: (server.server.address() as AddressInfo).port, opened };
}

/** A raw client: sends the request, waits for the response head, then reads or not. */
async function rawClient(port: number, read: boolean): Promise<{ received: () => number }> {
  let bytes = 0;
  const socket = connect(port, "127.0.0.1");
  client = socket;
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.on("error", () => undefined);
  socket.write("GET /s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  await new Promise<void>((resolve) => {
    socket.once("data", (chunk: Buffer) => {
      bytes += chunk.length;
      resolve();
    });
  });
  if (read) socket.on("data", (chunk: Buffer) => (bytes += chunk.length));
  else socket.pause();
  return { received: () => bytes };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

describe("EventStreams", () => {
  it("drops a client that stops reading once MAX_PENDING_BYTES wait for it", async () => {
    const { port, opened } = await streamServer();
    await rawClient(port, false);
    const stream = await opened;
    let ended = false;
    stream.onEnd(() => {
      ended = true;
    });
    const frame = eventFrame("Big", JSON.stringify("x".repeat(64 * 1024)));
    let sent = 0;
    // The kernel's buffers take a few MB before Node's start to fill.
    while (!ended && sent < 64 * 1024 * 1024) {
      stream.sendFrame(frame);
      sent += frame.chunk.length;
      await tick();
    }
    expect(ended).toBe(true);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    // Later sends to the dropped stream are ignored.
    stream.sendFrame(frame);
    stream.send("x", "1");
    stream.sendEvent("y");
  });

  it("keeps a client that reads, through more than MAX_PENDING_BYTES of events", async () => {
    const { port, opened } = await streamServer();
    const c = await rawClient(port, true);
    const stream = await opened;
    let ended = false;
    stream.onEnd(() => {
      ended = true;
    });
    const frame = eventFrame("Big", JSON.stringify("x".repeat(64 * 1024)));
    const total = 2 * MAX_PENDING_BYTES;
    for (let sent = 0; sent < total; sent += frame.chunk.length) {
      stream.sendFrame(frame);
      // A reading client keeps up with one frame a turn.
      while (c.received() < sent) await tick();
    }
    expect(ended).toBe(false);
    stream.end();
    expect(ended).toBe(true);
  });
});
