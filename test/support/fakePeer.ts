/**
 * The hostile-peer simulator: fake peers as small HTTP servers on loopback
 * (a free port each) that answer a real node's peer requests as a liar
 * would (docs/p2p.md "What a peer can and cannot make this node do").
 * A fake answers `GET /info` like a node, with an identity it proves
 * (nodeIdentity.ts) unless told otherwise, and every other route from its
 * `routes` (`"METHOD /path"` without the query); what is not there is a 404.
 * A route returns JSON to send, or an {@link Answer} made by the helpers
 * below (a huge body streamed without holding it, a slow body, a status).
 * Requests are counted per route. Servers stop with `close()`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NodeIdentity } from "../../src-node/p2p/nodeIdentity.ts";

export const NETWORK = "test-singleton";
export const BASE = `/ledger/0.0/${NETWORK}`;

export type FakeRequest = {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: string;
};

/** How a route answers when plain JSON will not do. */
export type Answer = { readonly answer: (res: ServerResponse) => void | Promise<void> };

export type Route = (req: FakeRequest) => unknown | Answer | Promise<unknown | Answer>;

export type FakePeer = {
  readonly server: Server;
  /** `127.0.0.1:PORT` */
  readonly address: string;
  readonly port: number;
  readonly identity: NodeIdentity;
  /** Requests served per `"METHOD /path"`. */
  readonly hits: Map<string, number>;
  hitsOf(route: string): number;
  close(): Promise<void>;
};

function isAnswer(v: unknown): v is Answer {
  return typeof v === "object" && v !== null && typeof (v as Answer).answer === "function";
}

/** A status with a short text. */
export function status(code: number, text = ""): Answer {
  return { answer: (res) => void res.writeHead(code, { "content-type": "text/plain" }).end(text) };
}

/**
 * A JSON-looking body of `bytes` bytes, streamed in 64 KiB chunks as the
 * reader takes them (the fake never holds it), optionally declaring its length.
 */
export function hugeBody(bytes: number, declareLength = false): Answer {
  return {
    answer: (res) =>
      new Promise<void>((resolve) => {
        res.writeHead(200, {
          "content-type": "application/json",
          ...(declareLength ? { "content-length": String(bytes) } : {}),
        });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        chunk[0] = 0x5b; // "["
        let sent = 0;
        const pump = (): void => {
          while (sent < bytes) {
            const n = Math.min(chunk.length, bytes - sent);
            sent += n;
            if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
              res.once("drain", pump);
              return;
            }
          }
          res.end();
          resolve();
        };
        res.once("close", () => resolve());
        pump();
      }),
  };
}

/** No answer at all: the request hangs until the reader gives up. */
export function hang(): Answer {
  return { answer: (res) => new Promise<void>((resolve) => res.once("close", () => resolve())) };
}

/** A body that trickles: one byte of `text` every `everyMs`, until done or the reader leaves. */
export function slowBody(text: string, everyMs: number): Answer {
  return {
    answer: (res) =>
      new Promise<void>((resolve) => {
        res.writeHead(200, { "content-type": "application/json" });
        let i = 0;
        const timer = setInterval(() => {
          if (i >= text.length || res.destroyed) {
            clearInterval(timer);
            res.end();
            resolve();
            return;
          }
          res.write(text[i++] as string);
        }, everyMs);
        timer.unref();
        res.once("close", () => {
          clearInterval(timer);
          resolve();
        });
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      // A fake keeps at most 1 MiB of what it is sent.
      size += c.length;
      if (size <= 1024 * 1024) chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(""));
  });
}

/**
 * Starts a fake peer. `identity: false`: its `/info` proves no identity;
 * `network`: the network its `/info` names (default test-singleton).
 */
export async function startFakePeer(
  routes: Record<string, Route>,
  options: { identity?: boolean; network?: string } = {},
): Promise<FakePeer> {
  const identity = NodeIdentity.ephemeral();
  const network = options.network ?? NETWORK;
  const hits = new Map<string, number>();
  const all: Record<string, Route> = {
    "GET /info": (req) => {
      const challenge = req.query.get("challenge");
      return {
        nodeVersion: network,
        ...(challenge === null || options.identity === false
          ? {}
          : identity.prove(network, challenge)),
      };
    },
    [`GET ${BASE}/cut/peer`]: () => ({ limit: 0, items: [], next: null }),
    [`PUT ${BASE}/cut`]: () => status(204),
    ...routes,
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const key = `${req.method} ${url.pathname}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    const body = await readBody(req);
    const route = all[key];
    try {
      if (route === undefined) {
        res.writeHead(404).end();
        return;
      }
      const out = await route({
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        body,
      });
      if (isAnswer(out)) await out.answer(res);
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out));
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    }
  });
  // A fake never keeps the test process alive, and drops a connection the node left.
  server.unref();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    address: `127.0.0.1:${port}`,
    port,
    identity,
    hits,
    hitsOf: (route) => hits.get(route) ?? 0,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A cut as a peer publishes it (`PUT /cut`), from `GET /cut`'s JSON and an origin. */
export function published(cut: unknown, origin: string): unknown {
  const [hostname, port] = origin.split(":");
  return {
    ...(cut as Record<string, unknown>),
    origin: { id: null, address: { hostname, port: Number(port) } },
  };
}

/** `PUT {base}/cut` to a node. */
export function putCut(base: string, body: unknown): Promise<Response> {
  return fetch(`${base}/cut`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** A 32-byte weight in base64url (little-endian), as cuts carry it. */
export function weightText(weight: bigint): string {
  const bytes = Buffer.alloc(32);
  let w = weight;
  for (let i = 0; i < 32; i++) {
    bytes[i] = Number(w & 0xffn);
    w >>= 8n;
  }
  return bytes.toString("base64url");
}
