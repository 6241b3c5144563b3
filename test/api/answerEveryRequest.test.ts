/**
 * Every request gets an answer or a closed connection, never silence (issue
 * 35, finding 4; docs/api.md "Every request is answered"). A seeded
 * generator writes malformed requests over every route of the spec (and the
 * node's own: app, p2p, private) on real sockets to a node listening on
 * loopback, eight at a time: fresh connections, keep-alive connections reused
 * request after request, pipelined pairs, and Node's own keep-alive
 * `http.Agent`. Bodies are bad JSON, the wrong type, huge, deeply nested, in
 * odd chunks, announced longer or shorter than sent; queries and path
 * parameters are bad; headers are foreign or contradictory.
 *
 * A request whose body the client never finishes (content-length larger than
 * what it sends, chunks that stop, headers never ended) is not waited for
 * forever either: the node answers it 408, or closes the connection when it
 * answered already, once the request timeout has passed since the request
 * began (`requestTimeoutMs`: 30 s by default, 0.6 s here). Such a request
 * must be answered within 5 s plus that timeout; every other within 5 s.
 *
 * Fails on any request without an answer (or a close) within 5 s, naming it
 * with its seed index so that it replays alone; and on a small, complete
 * request met by a bare close (a connection left stuck behind an unread body,
 * closed only by the request timeout). A sweep over every route sends an
 * oversized body on a keep-alive connection and then the next request on it.
 * WEFT_FUZZ_ANSWER_RUNS raises the count; WEFT_FUZZ_ANSWER_SEED picks
 * another seed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RawAnswer, RawConnection, within } from "../support/rawHttp.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const RUNS = Number(process.env.WEFT_FUZZ_ANSWER_RUNS ?? "600");
const SEED = Number(process.env.WEFT_FUZZ_ANSWER_SEED ?? "0x35f4");
const CONCURRENCY = 8;
/** The issue's bound: any request unanswered this long is a failure. */
const ANSWER_MS = 5_000;
/** The node's request timeout here: a stalled request is answered 408 (or closed) after it. */
const BODY_TIMEOUT_MS = 600;
/** Requests this small arrive whole before any answer: the node can always answer them. */
const SMALL = 16 * 1024;

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  const bytes = (n: number): Buffer => {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = int(256);
    return b;
  };
  return { next, int, pick, bytes };
}
type Rng = ReturnType<typeof rng>;

let t: TestNode;
let port: number;
let rendererDir: string;
let backupDir: string;

beforeAll(async () => {
  rendererDir = mkdtempSync(join(tmpdir(), "weft-answer-ui-"));
  writeFileSync(join(rendererDir, "index.html"), "<!doctype html><title>w</title>");
  mkdirSync(join(rendererDir, "assets"));
  writeFileSync(join(rendererDir, "assets", "a.js"), "1");
  backupDir = mkdtempSync(join(tmpdir(), "weft-answer-backup-"));
  t = await openTestNode({
    commands: { listenTimeout: 0.3 },
    spv: { timeout: 0.3 },
    requestTimeoutMs: BODY_TIMEOUT_MS,
    rendererDir,
    mining: { apiEnabled: true, updateStreamTimeout: 1 },
    backup: { apiEnabled: true, directory: backupDir },
  });
  await t.node.start();
  port = Number(new URL(t.node.origin).port);
});
afterAll(async () => {
  await t?.cleanup();
  rmSync(rendererDir, { recursive: true, force: true });
  rmSync(backupDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------
// The generator

type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "OPTIONS" | "HEAD";

/** How the request's body is framed on the wire. */
type Framing =
  | "length" // content-length, exact
  | "chunked" // transfer-encoding: chunked, well formed, random chunk sizes
  | "chunked-ext" // chunk extensions and upper-case hex sizes
  | "chunked-bad" // a size that is not hex: the parser refuses it
  | "both" // content-length and chunked at once (a smuggling pattern: refused)
  | "length-twice" // two different content-length headers
  | "short" // content-length larger than the body: the body never completes
  | "long" // content-length smaller than the body: the rest is garbage after it
  | "none"; // a body without any framing header (HTTP/1.1: no body)

type Case = {
  readonly index: number;
  readonly label: string;
  readonly bytes: Buffer;
  readonly head: boolean;
  /** The connection cannot carry another request after this one. */
  readonly last: boolean;
  /** The body never completes: answered or closed after the body timeout. */
  readonly stalls: boolean;
  readonly mode: "fresh" | "keepalive" | "pipelined" | "agent";
  /** An event stream, when the node takes the request: nothing can follow it on its connection. */
  readonly stream: boolean;
  /** For the agent: the request as http.request takes it. */
  readonly agent?: { method: Method; path: string; headers: Record<string, string>; body?: Buffer };
};

const HASH = "A".repeat(43);
const KEY = "ab".repeat(32);
const MINER = { account: `k:${KEY}`, predicate: "keys-all", "public-keys": [KEY] };

function chains(r: Rng): string {
  return r.pick(["0", "0", "0", "1", "19", "20", "-1", "x", "%ZZ", "01", "9".repeat(30), "%00"]);
}

/** A route of the spec (or the node's own) with the method it takes and a fitting body. */
type Route = { method: Method; path: string; body?: unknown };

/** Every route of the spec (and the node's own), with the method it takes and a fitting body. */
function routes(r: Rng, base: string): Route[] {
  const c = chains(r);
  const api = `${base}/chain/${c}/pact/api/v1`;
  const command = {
    hash: HASH,
    sigs: [],
    cmd: JSON.stringify({ payload: { exec: { code: "(+ 1 2)", data: {} } }, signers: [] }),
  };
  const bounds = { lower: [HASH], upper: [r.pick([HASH, "x", 7])] };
  return [
    { method: "GET", path: "/health-check" },
    { method: "GET", path: `${base}/health-check` },
    { method: "GET", path: "/info" },
    { method: "GET", path: `${base}/cut` },
    { method: "GET", path: `${base}/chain/${c}/hash` },
    { method: "POST", path: `${base}/chain/${c}/hash/branch`, body: bounds },
    { method: "GET", path: `${base}/chain/${c}/header` },
    { method: "GET", path: `${base}/chain/${c}/header/${r.pick([HASH, "short", "%ZZ"])}` },
    { method: "POST", path: `${base}/chain/${c}/header/branch`, body: bounds },
    { method: "GET", path: `${base}/chain/${c}/block` },
    { method: "POST", path: `${base}/chain/${c}/block/branch`, body: bounds },
    { method: "GET", path: `${base}/header/updates` },
    { method: "POST", path: `${api}/local`, body: command },
    { method: "POST", path: `${api}/send`, body: { cmds: [command] } },
    { method: "POST", path: `${api}/poll`, body: { requestKeys: [HASH] } },
    { method: "POST", path: `${api}/listen`, body: { listen: HASH } },
    { method: "POST", path: `${api}/private`, body: command },
    { method: "POST", path: `${api}/spv`, body: { requestKey: HASH, targetChainId: "1" } },
    { method: "POST", path: `${base}/chain/${c}/pact/spv`, body: { requestKey: HASH } },
    { method: "GET", path: `${base}/mining/work`, body: MINER },
    { method: "POST", path: `${base}/mining/solved`, body: Buffer.alloc(286) },
    { method: "GET", path: `${base}/mining/updates`, body: Buffer.from([0, 0, 0, 0]) },
    { method: "POST", path: `${base}/make-backup` },
    { method: "GET", path: `${base}/check-backup/${r.pick(["1", "x/y", "%ZZ"])}` },
    { method: "PUT", path: `${base}/cut`, body: { origin: null, hashes: {} } },
    { method: "GET", path: `${base}/cut/peer` },
    { method: "GET", path: `${base}/private/entity` },
    { method: "POST", path: `${base}/private/envelope`, body: {} },
    { method: "GET", path: "/app" },
    { method: "GET", path: "/app/" },
    { method: "GET", path: "/app/assets/a.js" },
    { method: "GET", path: "/app/config.json" },
    { method: "GET", path: "/app/api/mining" },
    { method: "POST", path: "/app/api/mining", body: { threads: 1 } },
    { method: "PUT", path: "/app/api/wallet/keystore", body: {} },
    { method: "GET", path: "/nowhere" },
  ];
}

/** A route, now and then with another method than its own. */
function route(r: Rng, base: string): Route {
  const chosen = r.pick(routes(r, base));
  // Now and then another method than the route's.
  if (r.next() < 0.1)
    return {
      ...chosen,
      method: r.pick(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]),
    };
  return chosen;
}

function query(r: Rng): string {
  return r.pick([
    "",
    "",
    "",
    "?limit=x",
    "?limit=-1&limit=2",
    "?minheight=1e3&maxheight=%ZZ",
    "?next=inclusive:x",
    "?preflight=maybe&rewindDepth=-3",
    "?confirmationDepth=99999999999999999999",
    "?chain=77",
    "?backupPact=nope",
    `?${"a=1&".repeat(400)}`,
    "?%",
    "?a[b]=1&a[c]=2",
  ]);
}

/** A body for the route: its own, broken JSON, another type, huge, nested, random bytes. */
function body(r: Rng, fitting: unknown): Buffer | undefined {
  const own =
    fitting === undefined
      ? undefined
      : Buffer.isBuffer(fitting)
        ? fitting
        : Buffer.from(JSON.stringify(fitting));
  const kind = r.int(12);
  switch (kind) {
    case 0:
    case 1:
      return own;
    case 2:
      return undefined;
    case 3:
      return Buffer.from(r.pick(['{"cmds": [', "{", "[1,2", '{"a":}', "nul", '"x', "{}}"]));
    case 4:
      return Buffer.from(r.pick(["[]", "1", '"text"', "null", "true", "{}", '{"__proto__": {}}']));
    case 5:
      // Over the 2 MiB limit.
      return Buffer.alloc(2 * 1024 * 1024 + 1 + r.int(4096), 0x20);
    case 6:
      return Buffer.from(`${"[".repeat(20_000)}${"]".repeat(20_000)}`);
    case 7:
      return r.bytes(1 + r.int(600));
    case 8:
      return Buffer.from(`\ufeff${own?.toString() ?? "{}"}`);
    case 9:
      return Buffer.from([0xff, 0xfe, 0x7b, 0x7d]);
    case 10:
      // Large but within the limit.
      return Buffer.from(JSON.stringify({ cmds: Array(20_000).fill(HASH) }));
    default:
      return own === undefined ? undefined : own.subarray(0, r.int(own.length + 1));
  }
}

/** The body type a route takes (none for the mining routes' GET bodies). */
function contentTypeOf(route: string): string | undefined {
  return route.endsWith("/mining/solved")
    ? "application/octet-stream"
    : route.includes("/mining/")
      ? undefined
      : "application/json";
}

function contentType(r: Rng, route: string): string | undefined {
  const own = contentTypeOf(route);
  return r.pick([
    own,
    own,
    own,
    undefined,
    "text/plain",
    "application/octet-stream",
    "application/json; charset=latin1",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
    "a/b;;;=",
    "application/json, text/plain",
    "",
  ]);
}

function extraHeaders(r: Rng): [string, string][] {
  const h: [string, string][] = [];
  if (r.next() < 0.06) h.push(["origin", r.pick(["https://evil.example", "null"])]);
  if (r.next() < 0.08)
    h.push([
      "accept",
      r.pick([
        "application/octet-stream",
        "application/json;blockheader-encoding=object",
        "text/html",
        "*/*;q=x",
      ]),
    ]);
  if (r.next() < 0.06) h.push(["expect", "100-continue"]);
  if (r.next() < 0.04) h.push(["x-weft-app-token", "0".repeat(64)]);
  if (r.next() < 0.03) h.push(["cookie", `weft-app-token-${port}=${"1".repeat(64)}`]);
  if (r.next() < 0.03) h.push(["content-encoding", r.pick(["gzip", "br", "x"])]);
  return h;
}

function chunk(bodyBytes: Buffer, r: Rng, ext: boolean): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < bodyBytes.length) {
    const n = Math.min(bodyBytes.length - at, 1 + r.int(bodyBytes.length > 10_000 ? 65_536 : 64));
    const size = ext ? n.toString(16).toUpperCase() : n.toString(16);
    parts.push(Buffer.from(`${size}${ext ? ";name=value" : ""}\r\n`));
    parts.push(bodyBytes.subarray(at, at + n), Buffer.from("\r\n"));
    at += n;
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
}

function generate(r: Rng, index: number, base: string): Case {
  const rt = route(r, base);
  const path = `${rt.path}${query(r)}`;
  const bodyBytes = rt.method === "HEAD" ? undefined : body(r, rt.body);
  const type = bodyBytes === undefined && r.next() < 0.7 ? undefined : contentType(r, rt.path);
  const hostOk = r.next() < 0.95;
  const headers: [string, string][] = [
    ["host", hostOk ? `127.0.0.1:${port}` : "evil.example"],
    ...(type === undefined ? [] : ([["content-type", type]] as [string, string][])),
    ...extraHeaders(r),
  ];
  const framing: Framing =
    bodyBytes === undefined
      ? r.pick<Framing>(["length", "length", "length", "length", "chunked", "chunked", "short"])
      : r.pick<Framing>([
          "length",
          "length",
          "length",
          "length",
          "chunked",
          "chunked",
          "chunked-ext",
          "chunked-bad",
          "both",
          "length-twice",
          r.next() < 0.5 ? "short" : "length",
          "long",
          "none",
        ]);
  const b = bodyBytes ?? Buffer.alloc(0);
  let wire: Buffer = b;
  let stalls = false;
  let last = false;
  switch (framing) {
    case "length":
      if (bodyBytes !== undefined || r.next() < 0.5)
        headers.push(["content-length", String(b.length)]);
      break;
    case "chunked":
      headers.push(["transfer-encoding", "chunked"]);
      wire = chunk(b, r, false);
      break;
    case "chunked-ext":
      headers.push(["transfer-encoding", "chunked"]);
      wire = chunk(b, r, true);
      break;
    case "chunked-bad":
      headers.push(["transfer-encoding", "chunked"]);
      wire = Buffer.concat([Buffer.from("zz\r\n"), b, Buffer.from("\r\n0\r\n\r\n")]);
      last = true;
      break;
    case "both":
      headers.push(["content-length", String(b.length)], ["transfer-encoding", "chunked"]);
      wire = chunk(b, r, false);
      last = true;
      break;
    case "length-twice":
      headers.push(["content-length", String(b.length)], ["content-length", String(b.length + 1)]);
      last = true;
      break;
    case "short":
      headers.push(["content-length", String(b.length + 1 + r.int(100_000))]);
      stalls = true;
      last = true;
      break;
    case "long":
      headers.push(["content-length", String(r.int(b.length))]);
      last = true;
      break;
    case "none":
      last = true;
      break;
  }
  const head = `${rt.method} ${path} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`;
  const bytes = Buffer.concat([Buffer.from(head, "latin1"), wire]);
  const label = `#${index} ${rt.method} ${path.length > 90 ? `${path.slice(0, 90)}…` : path} ${framing}${type === undefined ? "" : ` [${type}]`} body=${bodyBytes === undefined ? "none" : `${bodyBytes.length}B`}${headers
    .filter(([k]) => ["origin", "accept", "expect", "content-encoding"].includes(k))
    .map(([k, v]) => ` ${k}=${v}`)
    .join("")}`;
  const agentOk = !last && framing !== "chunked-ext" && hostOk;
  // An event stream never ends: a request pipelined after it would wait behind it for ever,
  // as HTTP/1.1 wants. Streams go first on a connection of their own.
  const stream = rt.path.endsWith("/updates");
  const modes: Case["mode"][] = ["fresh", "keepalive", "keepalive"];
  if (!stream) modes.push("pipelined");
  if (agentOk) modes.push("agent");
  const mode = last || stalls ? "fresh" : r.pick(modes);
  return {
    index,
    label,
    bytes,
    head: rt.method === "HEAD",
    last,
    stalls,
    mode,
    stream,
    ...(mode === "agent"
      ? {
          agent: {
            method: rt.method,
            path,
            // The body's length always: Node's client sends a GET's body without any framing.
            headers: {
              ...Object.fromEntries(
                headers.filter(([k]) => k !== "content-length" && k !== "transfer-encoding"),
              ),
              ...(bodyBytes === undefined ? {} : { "content-length": String(bodyBytes.length) }),
            },
            ...(bodyBytes === undefined ? {} : { body: bodyBytes }),
          },
        }
      : {}),
  };
}

// ---------------------------------------------------------------------------
// Sending

type Outcome = {
  readonly c: Case;
  readonly answer: RawAnswer | "silent";
  readonly ms: number;
  /** Sent after an answer that said `connection: close` (pipelined): a close is its due. */
  readonly afterClose?: boolean;
  readonly log?: string[];
};

const agent = new Agent({ keepAlive: true, maxSockets: 2 });

function viaAgent(c: Case): Promise<RawAnswer> {
  const a = c.agent as NonNullable<Case["agent"]>;
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method: a.method, path: a.path, headers: a.headers, agent },
      (res) => {
        resolve({
          kind: "answer",
          status: res.statusCode ?? 0,
          headers: new Map(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
        });
        // Streams are not read to their end; everything else is, so the socket goes back.
        if (String(res.headers["content-type"] ?? "").startsWith("text/event-stream"))
          res.destroy();
        else res.resume();
      },
    );
    req.on("error", () => resolve({ kind: "closed" }));
    req.end(a.body);
  });
}

/** One worker: its own keep-alive connection, used until the node or a case closes it. */
async function worker(queue: Case[], outcomes: Outcome[]): Promise<void> {
  let kept: RawConnection | undefined;
  const keptConnection = async (): Promise<RawConnection> => {
    if (kept === undefined || !kept.usable) {
      kept?.close();
      kept = await RawConnection.open(port);
    }
    return kept;
  };
  for (;;) {
    const c = queue.shift();
    if (c === undefined) break;
    const limit = ANSWER_MS + (c.stalls ? BODY_TIMEOUT_MS : 0);
    const started = performance.now();
    let current: RawConnection | undefined;
    const record = (answer: RawAnswer | "silent", cc = c, afterClose = false) =>
      outcomes.push({
        c: cc,
        answer,
        ms: performance.now() - started,
        afterClose,
        ...(current === undefined ? {} : { log: current.log.slice(-6) }),
      });
    if (c.mode === "agent") {
      record(await within(viaAgent(c), limit, "silent" as const));
    } else if (c.mode === "fresh") {
      const conn = await RawConnection.open(port);
      current = conn;
      record(await within(conn.send(c.bytes, { head: c.head }), limit, "silent" as const));
      conn.close();
    } else if (c.mode === "keepalive") {
      const conn = await keptConnection();
      current = conn;
      const answer = await within(conn.send(c.bytes, { head: c.head }), limit, "silent" as const);
      record(answer);
      if (answer === "silent") {
        conn.close();
        kept = undefined;
      }
    } else {
      // Pipelined: this request and the next queued one that can follow it, written at once.
      const second = queue.findIndex(
        (q) => (q.mode === "pipelined" || q.mode === "keepalive") && !q.stream,
      );
      const next = second < 0 ? undefined : queue.splice(second, 1)[0];
      const conn = await keptConnection();
      current = conn;
      const both = Buffer.concat([c.bytes, next?.bytes ?? Buffer.alloc(0)]);
      const first = conn.send(both, { head: c.head });
      const then = next === undefined ? undefined : conn.next(next.head);
      record(await within(first, limit, "silent" as const));
      const afterClose = conn.closing;
      if (next !== undefined && then !== undefined)
        record(await within(then, limit, "silent" as const), next, afterClose);
      conn.close();
      kept = undefined;
    }
  }
  kept?.close();
}

/** The node's health on a connection of its own, while the fuzz runs. */
async function watchHealth(stop: { done: boolean }): Promise<number> {
  let worst = 0;
  while (!stop.done) {
    const conn = await RawConnection.open(port);
    const started = performance.now();
    const a = await within(
      conn.send(
        Buffer.from(`GET /health-check HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`, "latin1"),
      ),
      ANSWER_MS,
      "silent" as const,
    );
    conn.close();
    const ms = a === "silent" || a.kind !== "answer" ? ANSWER_MS : performance.now() - started;
    worst = Math.max(worst, ms);
    await new Promise((r) => setTimeout(r, 100));
  }
  return worst;
}

/** Choices that take the first of everything: the routes with chain 0 and well-formed names. */
const FIRST: Rng = {
  next: () => 0,
  int: () => 0,
  pick: (xs) => xs[0] as never,
  bytes: Buffer.alloc,
};

/** An oversized body (over the 2 MiB limit) for `rt`, with a length or chunked. */
function oversized(rt: Route, framing: "length" | "chunked"): Buffer {
  const type = contentTypeOf(rt.path);
  const body = Buffer.alloc(2 * 1024 * 1024 + 1, 0x20);
  const head =
    `${rt.method} ${rt.path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n` +
    (type === undefined ? "" : `content-type: ${type}\r\n`) +
    (framing === "length"
      ? `content-length: ${body.length}\r\n\r\n`
      : `transfer-encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n`);
  return Buffer.concat([
    Buffer.from(head, "latin1"),
    body,
    Buffer.from(framing === "length" ? "" : "\r\n0\r\n\r\n"),
  ]);
}

describe("[api] every request is answered (seeded fuzz on real sockets)", () => {
  it(`${RUNS} malformed requests, ${CONCURRENCY} at a time: each answered or closed within ${ANSWER_MS} ms`, async () => {
    const r = rng(SEED);
    const cases = Array.from({ length: RUNS }, (_, i) => generate(r, i, t.base));
    const queue = [...cases];
    const outcomes: Outcome[] = [];
    const stop = { done: false };
    const health = watchHealth(stop);
    await Promise.all(Array.from({ length: CONCURRENCY }, () => worker(queue, outcomes)));
    stop.done = true;
    const worstHealthMs = await health;
    agent.destroy();

    const shown = (o: Outcome) =>
      `${o.c.label} (${o.c.mode}, ${Math.round(o.ms)} ms)\n${(o.log ?? []).join("\n---\n")}`;
    const silent = outcomes.filter((o) => o.answer === "silent").map(shown);
    expect(silent).toEqual([]);
    expect(outcomes.length).toBe(RUNS);
    // A request the node can read in full gets an answer, not a bare close (a close is for
    // requests it cannot read, bodies that never complete, and requests pipelined after an
    // answer that said `connection: close`). Only small requests: a large body refused early
    // may meet a reset that drops the answer before the client reads it. This catches a
    // connection stuck behind an unread body that the request timeout closes in the end.
    const closed = outcomes
      .filter((o) => o.answer !== "silent" && o.answer.kind === "closed")
      .filter((o) => !o.c.last && !o.c.stalls && !o.afterClose && o.c.bytes.length < SMALL)
      .map(shown);
    expect(closed).toEqual([]);
    // No 5xx but those the docs give for this input (503 from a full stream table, 504 /listen).
    const fiveHundreds = outcomes
      .filter((o) => o.answer !== "silent" && o.answer.kind === "answer" && o.answer.status >= 500)
      .filter(
        (o) =>
          o.answer !== "silent" &&
          o.answer.kind === "answer" &&
          ![503, 504].includes(o.answer.status),
      )
      .map((o) => o.c.label);
    expect(fiveHundreds).toEqual([]);
    expect(worstHealthMs).toBeLessThan(ANSWER_MS);
    // The node still answers a plain request.
    const conn = await RawConnection.open(port);
    const a = await conn.send(
      Buffer.from(`GET /health-check HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`, "latin1"),
    );
    conn.close();
    expect(a.kind === "answer" ? a.status : a.kind).toBe(200);
  }, 60_000);

  it("every route: an oversized body on a keep-alive connection, then the next request on it", async () => {
    const cases = routes(FIRST, t.base)
      .filter((rt) => !rt.path.endsWith("/header/updates"))
      .flatMap((rt) => (["length", "chunked"] as const).map((f) => ({ rt, f })));
    const problems: string[] = [];
    const one = async ({ rt, f }: (typeof cases)[number]): Promise<void> => {
      const name = `${rt.method} ${rt.path} ${f}`;
      const conn = await RawConnection.open(port);
      try {
        const first = await within(conn.send(oversized(rt, f)), ANSWER_MS, "silent" as const);
        if (first === "silent") {
          problems.push(`${name}: no answer`);
          return;
        }
        // Answered with connection: close, or closed: nothing may follow on this connection.
        if (first.kind === "closed" || conn.closing) return;
        const next = await within(
          conn.send(Buffer.from(`GET /health-check HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`)),
          ANSWER_MS,
          "silent" as const,
        );
        const got = next === "silent" ? next : next.kind === "answer" ? next.status : next.kind;
        if (got !== 200)
          problems.push(
            `${name}: answered ${first.status} keep-alive, then the next request: ${got}`,
          );
      } finally {
        conn.close();
      }
    };
    const queue = [...cases];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let c = queue.shift(); c !== undefined; c = queue.shift()) await one(c);
      }),
    );
    expect(problems).toEqual([]);
  }, 60_000);

  it("a request that stalls gets 408 after the request timeout, its connection closed", async () => {
    const stalled = [
      // A body announced longer than sent.
      `POST ${t.base}/chain/0/pact/api/v1/send HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"cmds":`,
      // Chunks that stop.
      `POST ${t.base}/chain/0/hash/branch HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n`,
      // Headers never finished.
      `GET ${t.base}/cut HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`,
    ];
    for (const text of stalled) {
      const conn = await RawConnection.open(port);
      const started = performance.now();
      const a = await within(
        conn.send(Buffer.from(text)),
        ANSWER_MS + BODY_TIMEOUT_MS,
        "silent" as const,
      );
      const ms = performance.now() - started;
      expect(a === "silent" ? a : a.kind === "answer" ? a.status : a.kind, text).toBe(408);
      expect(ms).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS * 0.9);
      if (a !== "silent" && a.kind === "answer") expect(a.headers.get("connection")).toBe("close");
      conn.close();
    }
  });
});
