/**
 * Header pages over HTTP: pages of 360 object-encoded headers per second
 * (GET {base_url}/chain/0/header?limit=360 with
 * Accept: application/json;blockheader-encoding=object, following the `next`
 * cursors through the chain, one request at a time, client in the same
 * process) on a test-singleton database of 10,000 blocks per chain (100,000
 * blocks). Baselines from the same run and database: the raw SQLite read of
 * the same 360-row pages (header bytes only), the same pages read and decoded
 * by the store, and the route through Fastify's inject() (no socket).
 *
 * Fair to both sides: the raw reads take the rows' bytes and decode nothing,
 * and the HTTP client (node:http, one kept-alive socket) takes the body's
 * bytes and reads as text only its first bytes (`limit`) and last bytes
 * (`next`), as a peer relaying pages would; one page is parsed in full
 * before the timing to check it. Its CPU counts against the route (same
 * process). `fetch_pages_per_s`: the object pages through fetch(), each body
 * decoded to a string and scanned for its headers (the client this bench
 * used before, for comparison: it spends more per page than the server).
 * `raw_text_pages_per_s`: the same rows' stored object texts read row by
 * row from `header_texts`, the table header pages are joined from (kept in
 * page order, so a page's texts lie on consecutive pages of the file, where
 * the raw read above takes each header from a page of its own): what that
 * layout alone is worth, beside what the route adds.
 * Each pages figure comes with `<name>_cpu_us`: the process's CPU time per
 * page (user and system, server and client). On a loaded machine (the
 * benchmarks share 2 cores with other work) wall time mostly measures the
 * wait for a core; the ratio of CPU times is the one to compare then.
 *
 * The database is built with the test chain builder and written through the
 * store directly in large transactions (validation is measured elsewhere),
 * and served by the node's API server (`buildServer`) without the contract
 * state: header pages do not touch it.
 *
 * The other page routes over HTTP on the same database, each beside its
 * raw SQLite read: `base64_pages_per_s` (base64url headers) and
 * `hash_pages_per_s` (hashes, 360 a page) against `raw_pages_per_s`;
 * `branch_pages_per_s` (POST …/header/branch, object headers from the head
 * of chain 0 down, following `next`); `block_pages_per_s` (GET …/block,
 * 360 full blocks of `WEFT_BENCH_BLOCK_TXS` transactions each, default 2)
 * against `raw_block_pages_per_s` (the same blocks' header, payload and
 * transaction rows read by SQLite, no encoding). Goals (issue 23): object
 * pages ≥ 0.5×, base64url and hashes ≥ 0.7×, blocks ≥ 0.4× of their raw reads.
 *
 * `updates_fanout_ms`: `WEFT_BENCH_SUBSCRIBERS` (default 1,000) clients hold
 * `GET {base_url}/header/updates` streams open over sockets; a block is
 * inserted and the time until every client has read its event is taken, the
 * slowest of `FANOUT_BLOCKS` blocks reported (goal ≤ 50 ms; after
 * `FANOUT_WARMUP` blocks not counted, whose slowest is
 * `updates_fanout_warmup_ms`), beside
 * `updates_fanout_median_ms`. The clients run in a child process
 * (support/sseSubscribers.ts, node:http, each counting the events in its
 * body's bytes), as subscribers of a node are other processes: the figure is
 * the server's delivery with the clients reading on a core of their own, and
 * the child's report of "all clients have the block" (an IPC message)
 * counts in it. `updates_fanout_cpu_ms` (slowest) and
 * `updates_fanout_cpu_median_ms`: the server process's CPU time per block
 * (the insert and 1,000 socket writes); `updates_fanout_clients_cpu_median_ms`:
 * the child's, reading the 1,000 events. Then the same clients in the
 * server's own process (how this bench measured before, their reads counted
 * in the server's time): `updates_fanout_inprocess_ms`,
 * `…_inprocess_median_ms`, `…_inprocess_cpu_ms`, `…_inprocess_cpu_median_ms`.
 * A fresh database (genesis only).
 *
 * The goals' ratios are also measured with the raw read and the route
 * taking turns (250 ms each, 2 × SECONDS), so that both see the same load:
 * `pages_pct_of_raw_in_turns` and `base64_pages_pct_of_raw_in_turns` (pages
 * per second, % of the raw read's), `…_cpu_pct_of_raw_in_turns` (the raw
 * read's CPU per page, % of the route's; `…_in_turns_cpu_us` and
 * `…_in_turns_raw_cpu_us` the two). Goals: 50 % and 70 %.
 *
 * `header_bytes_per_block`: what a header takes on disk in `headers` (row,
 * indexes); `header_texts_bytes_per_block`: its page texts (`header_texts`).
 *
 * `WEFT_BENCH_HEADERS_PARTS=pages` or `=fanout` runs one part alone.
 */
import { fork } from "node:child_process";
import { rmSync } from "node:fs";
import { Agent, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { basePath } from "../../src-node/api/apiServices.ts";
import { buildServer } from "../../src-node/api/buildServer.ts";
import { testSingletonVersion } from "../../src-node/chain/versions.ts";
import { BlockDb } from "../../src-node/store/blockDb.ts";
import { databaseSpace } from "../../src-node/store/databaseSpace.ts";
import { sql } from "../../src-node/store/sql.ts";
import { ChainBuilder } from "../support/chainBuilder.ts";
import { tempDir } from "../support/testNode.ts";
import { openSubscribers } from "./support/sseSubscribers.ts";

const HEIGHT = Number(process.env.WEFT_BENCH_HEIGHT ?? 10_000);
const PAGE = 360;
const SECONDS = Number(process.env.WEFT_BENCH_SECONDS ?? 5);
const OBJECT = "application/json;blockheader-encoding=object";
const SUBSCRIBERS = Number(process.env.WEFT_BENCH_SUBSCRIBERS ?? 1000);
const FANOUT_BLOCKS = 20;
/**
 * Blocks announced first and not counted: the first few events of a fresh
 * server reach every subscriber through code not yet optimised (40–60 ms
 * where the rest take 15–30); a node serving 1,000 subscribers has long
 * been warm. Their slowest is reported apart (`updates_fanout_warmup_ms`).
 */
const FANOUT_WARMUP = 5;
const BLOCK_TXS = Number(process.env.WEFT_BENCH_BLOCK_TXS ?? 2);
/** Which parts run: `pages` (every page route), `fanout` (the update stream); default both. */
const PARTS = (process.env.WEFT_BENCH_HEADERS_PARTS ?? "pages,fanout").split(",");

function report(metric: string, value: number, unit = "1/s"): void {
  console.log(`BENCH headers ${metric}=${Math.round(value)} ${unit}`);
}

/** The process's CPU time so far (user and system, all threads), µs. */
function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * Calls `step` (one page) for about SECONDS after a short warm-up; pages per
 * second. Also prints `<name>_cpu_us`, the process's CPU time per page (server
 * and client alike, they share the process): on a loaded machine wall time
 * mostly measures the wait for a core, CPU time what a page costs.
 */
async function pagesPerSecond(step: () => Promise<void> | void, name?: string): Promise<number> {
  const warm = performance.now() + 500;
  while (performance.now() < warm) await step();
  let pages = 0;
  const start = performance.now();
  const cpuStart = cpuMicros();
  let now = start;
  while (now - start < SECONDS * 1000) {
    await step();
    pages++;
    now = performance.now();
  }
  if (name !== undefined) report(`${name}_cpu_us`, (cpuMicros() - cpuStart) / pages, "us");
  return (pages * 1000) / (now - start);
}

type TurnFigures = { readonly perSecond: number; readonly cpuMicros: number };

/**
 * Runs `a` and `b` (one page each) in turns of 250 ms for 2 × SECONDS, after
 * a short warm-up of each: pages per second and CPU µs per page of each,
 * measured under the same load.
 */
async function inTurns(
  a: () => Promise<void> | void,
  b: () => Promise<void> | void,
): Promise<[TurnFigures, TurnFigures]> {
  const steps = [a, b];
  const totals = steps.map(() => ({ pages: 0, ms: 0, cpu: 0 }));
  for (const step of steps) {
    const warm = performance.now() + 250;
    while (performance.now() < warm) await step();
  }
  const end = performance.now() + 2 * SECONDS * 1000;
  for (let turn = 0; performance.now() < end; turn++) {
    const step = steps[turn % 2] as () => Promise<void> | void;
    const t = totals[turn % 2] as { pages: number; ms: number; cpu: number };
    const start = performance.now();
    const cpuStart = cpuMicros();
    let now = start;
    while (now - start < 250) {
      await step();
      t.pages++;
      now = performance.now();
    }
    t.ms += now - start;
    t.cpu += cpuMicros() - cpuStart;
  }
  const [ta, tb] = totals.map((t) => ({
    perSecond: (t.pages * 1000) / t.ms,
    cpuMicros: t.cpu / t.pages,
  }));
  return [ta as TurnFigures, tb as TurnFigures];
}

const version = testSingletonVersion;
const dir = tempDir("weft-bench-");
try {
  if (PARTS.includes("pages")) {
    // ---- build the database
    const t0 = performance.now();
    const db = BlockDb.open({ path: join(dir, version.name, "blocks.sqlite"), version });
    const builder = ChainBuilder.create(version);
    for (let r = 0; r < HEIGHT; r += 100) {
      const blocks = builder.rounds(Math.min(100, HEIGHT - r), { transactions: BLOCK_TXS });
      db.store.transaction(() => {
        for (const b of blocks) {
          db.store.insertPayload(b.payload);
          db.store.insertHeader(b.header);
          db.store.setBestChain(b.header);
        }
        db.store.replaceCutHeads([...builder.cut.values()]);
      });
    }
    const blockCount = db.store.headerCount();
    // What a header takes on disk: its row and indexes, and its page texts.
    const space = databaseSpace(db.store.db);
    const onDisk = (names: readonly string[]): number =>
      names.reduce((n, name) => n + (space.objects.get(name)?.bytes ?? 0), 0);
    const headerObjects = [...space.objects.keys()].filter(
      (n) =>
        n === "headers" || n.startsWith("headers_") || n.startsWith("sqlite_autoindex_headers"),
    );
    report("header_bytes_per_block", onDisk(headerObjects) / blockCount, "B");
    report("header_texts_bytes_per_block", onDisk(["header_texts"]) / blockCount, "B");
    db.close();
    report("setup_blocks", blockCount, "blocks");
    report("setup_ms", performance.now() - t0, "ms");

    // ---- raw SQLite reads of the same pages (header bytes, no decoding)
    const raw = BlockDb.open({ path: join(dir, version.name, "blocks.sqlite"), version });
    let rawHeight = 0;
    report(
      "raw_pages_per_s",
      await pagesPerSecond(() => {
        const rows = raw.store.db.column(
          sql`SELECT header FROM headers WHERE chain_id = ${0} AND height >= ${rawHeight}
              ORDER BY height, hash LIMIT ${PAGE + 1}`,
          (v) => v as Buffer,
        );
        rawHeight = rows.length > PAGE ? rawHeight + PAGE : 0;
      }, "raw_pages"),
    );
    // The same rows' stored object texts, read row by row from header_texts
    // (kept in page order): what the texts' layout alone gives a page.
    let rawTextHeight = 0;
    report(
      "raw_text_pages_per_s",
      await pagesPerSecond(() => {
        const rows = raw.store.db.column(
          sql`SELECT object_json FROM header_texts WHERE chain_id = ${0} AND height >= ${rawTextHeight}
              ORDER BY height, hash LIMIT ${PAGE + 1}`,
          (v) => v as string,
        );
        rawTextHeight = rows.length > PAGE ? rawTextHeight + PAGE : 0;
      }, "raw_text_pages"),
    );
    // The store's page read: rows decoded into headers (what the route starts from).
    let storeHeight = 0;
    report(
      "store_pages_per_s",
      await pagesPerSecond(() => {
        const rows = raw.store.scanHeaders(
          0,
          { kind: "height", height: storeHeight },
          HEIGHT,
          PAGE + 1,
        );
        // Read every header: rows decode lazily.
        for (const r of rows) if (r.header.chainId !== 0) throw new Error("wrong chain");
        storeHeight = rows.length > PAGE ? storeHeight + PAGE : 0;
      }, "store_pages"),
    );
    // The raw read of a block page: header, payload and transaction rows, as stored.
    let rawBlockHeight = 0;
    report(
      "raw_block_pages_per_s",
      await pagesPerSecond(() => {
        const heads = raw.store.db.all(
          sql`SELECT h.header, p.miner_data, p.coinbase, p.transactions_hash, p.outputs_hash
              FROM headers AS h JOIN payloads AS p ON p.payload_hash = h.payload_hash
              WHERE h.chain_id = ${0} AND h.height >= ${rawBlockHeight}
              ORDER BY h.height, h.hash LIMIT ${PAGE + 1}`,
          (r) => r,
        );
        const txs = raw.store.db.all(
          sql`SELECT t.transaction_bytes, t.output_bytes
              FROM headers AS h JOIN payload_transactions AS t ON t.payload_hash = h.payload_hash
              WHERE h.chain_id = ${0} AND h.height >= ${rawBlockHeight}
                AND h.height < ${rawBlockHeight + PAGE}
              ORDER BY h.height, h.hash, t.position`,
          (r) => r,
        );
        if (txs.length < 0) throw new Error("unreachable");
        rawBlockHeight = heads.length > PAGE ? rawBlockHeight + PAGE : 0;
      }, "raw_block_pages"),
    );

    // ---- the route without a socket, then over HTTP
    // The node's own API server on the block database. Header reads need no
    // contract state, and a node would first execute the 100,000 placeholder
    // blocks (which it refuses: their coinbase outputs are not executed ones).
    const blocks = BlockDb.open({ path: join(dir, version.name, "blocks.sqlite"), version });
    const server = buildServer({
      version,
      blocks,
      packageVersion: "bench",
      serviceDate: new Date(0).toISOString(),
    });
    await server.listen({ host: "127.0.0.1", port: 0 });
    const { port } = server.server.address() as AddressInfo;
    const node = {
      basePath: basePath(version),
      origin: `http://127.0.0.1:${port}`,
      server,
      async close() {
        await server.close();
        blocks.close();
      },
    };
    const first = `${node.basePath}/chain/0/header?limit=${PAGE}`;
    /** The `next` cursor of a page body: read from its tail, the rest of the body left as bytes. */
    const nextOf = (body: Buffer | string): string | null => {
      const tail =
        typeof body === "string"
          ? body.slice(-200)
          : body.toString("latin1", Math.max(0, body.length - 200));
      const m = /"next":(null|"([^"]+)")\}$/.exec(tail);
      return m === null || m[2] === undefined ? null : m[2];
    };
    /** The `limit` (item count) a page body starts with. */
    const limitOf = (body: Buffer): number =>
      Number(/^\{"limit":([0-9]+)/.exec(body.toString("latin1", 0, 24))?.[1] ?? 0);
    const pageUrl = (path: string, next: string | null): string =>
      next === null || next.startsWith("exclusive:")
        ? path
        : `${path}${path.includes("?") ? "&" : "?"}next=${next}`;
    let injectUrl = first;
    report(
      "inject_pages_per_s",
      await pagesPerSecond(async () => {
        const r = await node.server.inject({
          method: "GET",
          url: injectUrl,
          headers: { accept: OBJECT },
        });
        injectUrl = pageUrl(first, nextOf(r.body));
      }, "inject_pages"),
    );
    // The client: node:http on one kept-alive socket, the body collected as
    // bytes (what a peer or a proxy does with it), only its first and last
    // bytes read as text for the count and the cursor. The raw reads above
    // decode nothing either; a client that decodes and scans every body
    // (fetch, then .text()) is reported beside as `fetch_pages_per_s`.
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const httpBody = (
      method: "GET" | "POST",
      path: string,
      accept: string,
      body?: string,
    ): Promise<{ status: number; body: Buffer }> =>
      new Promise((resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path,
            method,
            agent: keepAlive,
            headers: {
              accept,
              ...(body === undefined
                ? {}
                : {
                    "content-type": "application/json",
                    "content-length": Buffer.byteLength(body),
                  }),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () =>
              resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }),
            );
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    // Once, outside the timing: a page parsed in full has its items and cursor.
    const checked = await httpBody("GET", first, OBJECT);
    const parsed = JSON.parse(checked.body.toString()) as {
      limit: number;
      items: { nonce?: unknown }[];
      next: string | null;
    };
    if (
      checked.status !== 200 ||
      parsed.items.length !== parsed.limit ||
      parsed.items.some((h) => h.nonce === undefined) ||
      parsed.next !== nextOf(checked.body)
    ) {
      throw new Error(`unexpected header page: ${checked.body.toString().slice(0, 200)}`);
    }

    /** Pages per second over HTTP of a route, following `next` from `path` (a GET or a POST). */
    const routePages = async (
      name: string,
      path: string,
      accept: string,
      body?: unknown,
    ): Promise<{ perSecond: number; items: number }> => {
      let url = path;
      let count = 0;
      let pages = 0;
      const text = body === undefined ? undefined : JSON.stringify(body);
      const perS = await pagesPerSecond(async () => {
        const res = await httpBody(text === undefined ? "GET" : "POST", url, accept, text);
        if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body.toString()}`);
        count += limitOf(res.body);
        pages++;
        url = pageUrl(path, nextOf(res.body));
      }, name);
      return { perSecond: perS, items: count / pages };
    };
    const objectPages = await routePages("pages", first, OBJECT);
    report("pages_per_s", objectPages.perSecond);
    report("headers_per_page", objectPages.items, "headers");
    let fetchUrl = first;
    report(
      "fetch_pages_per_s",
      await pagesPerSecond(async () => {
        const res = await fetch(`${node.origin}${fetchUrl}`, { headers: { accept: OBJECT } });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text}`);
        if (text.split('"nonce"').length - 1 !== limitOf(Buffer.from(text.slice(0, 24)))) {
          throw new Error("a page's headers do not match its limit");
        }
        fetchUrl = pageUrl(first, nextOf(text));
      }, "fetch_pages"),
    );
    report(
      "base64_pages_per_s",
      (await routePages("base64_pages", first, "application/json")).perSecond,
    );
    // The goals' ratios again, the raw read and the route taking turns in
    // slices of 250 ms for 2 × SECONDS: on a loaded machine both then see the
    // same load (it changes between the separate measurements above).
    let turnHeight = 0;
    const rawStep = (): void => {
      const rows = raw.store.db.column(
        sql`SELECT header FROM headers WHERE chain_id = ${0} AND height >= ${turnHeight}
            ORDER BY height, hash LIMIT ${PAGE + 1}`,
        (v) => v as Buffer,
      );
      turnHeight = rows.length > PAGE ? turnHeight + PAGE : 0;
    };
    const routeStep = (path: string, accept: string): (() => Promise<void>) => {
      let url = path;
      return async () => {
        const res = await httpBody("GET", url, accept);
        if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body.toString()}`);
        url = pageUrl(path, nextOf(res.body));
      };
    };
    for (const [name, accept] of [
      ["pages", OBJECT],
      ["base64_pages", "application/json"],
    ] as const) {
      const [r, p] = await inTurns(rawStep, routeStep(first, accept));
      report(`${name}_pct_of_raw_in_turns`, (100 * p.perSecond) / r.perSecond, "%");
      report(`${name}_cpu_pct_of_raw_in_turns`, (100 * r.cpuMicros) / p.cpuMicros, "%");
      report(`${name}_in_turns_cpu_us`, p.cpuMicros, "us");
      report(`${name}_in_turns_raw_cpu_us`, r.cpuMicros, "us");
    }
    raw.close();
    report(
      "hash_pages_per_s",
      (
        await routePages(
          "hash_pages",
          `${node.basePath}/chain/0/hash?limit=${PAGE}`,
          "application/json",
        )
      ).perSecond,
    );
    const head = blocks.cut().get(0);
    if (head === undefined) throw new Error("no head");
    const branch = await routePages(
      "branch_pages",
      `${node.basePath}/chain/0/header/branch?limit=${PAGE}`,
      OBJECT,
      {
        lower: [],
        upper: [head.hash],
      },
    );
    report("branch_pages_per_s", branch.perSecond);
    report("branch_headers_per_page", branch.items, "headers");
    const blockPages = await routePages(
      "block_pages",
      `${node.basePath}/chain/0/block?limit=${PAGE}`,
      "application/json",
    );
    report("block_pages_per_s", blockPages.perSecond);
    report("blocks_per_page", blockPages.items, "blocks");
    keepAlive.destroy();
    await node.close();
  }

  if (PARTS.includes("fanout")) {
    // ---- the header update stream fanned out to many subscribers
    // Clients in another process (as subscribers are: the figure is the
    // server's delivery, the clients reading on a core of their own), then in
    // this process (their reads count in the server's time, as before).
    const fanoutDir = join(dir, "fanout");
    const live = BlockDb.open({ path: join(fanoutDir, "blocks.sqlite"), version });
    const liveServer = buildServer({
      version,
      blocks: live,
      packageVersion: "bench",
      serviceDate: new Date(0).toISOString(),
    });
    await liveServer.listen({ host: "127.0.0.1", port: 0 });
    const livePort = (liveServer.server.address() as AddressInfo).port;
    const updatesPath = `${basePath(version)}/header/updates`;
    const liveBuilder = ChainBuilder.create(version, "main", live.genesis);
    // Blocks in braiding order (a round has one per chain), each announced alone.
    const queue = liveBuilder.rounds(
      Math.ceil((2 * (FANOUT_WARMUP + FANOUT_BLOCKS)) / version.chainIds.length) + 1,
      {
        transactions: 0,
      },
    );
    let announced = 0;
    /**
     * Inserts FANOUT_WARMUP + FANOUT_BLOCKS blocks, each once every client
     * read the last; wall and CPU times, ms, of the counted blocks, and the
     * slowest warm-up block's wall time.
     */
    const fanout = async (
      delivered: (events: number) => Promise<unknown>,
    ): Promise<{ times: number[]; cpuTimes: number[]; warmup: number }> => {
      let times: number[] = [];
      let cpuTimes: number[] = [];
      let warmup = 0;
      for (let k = 0; k < FANOUT_WARMUP + FANOUT_BLOCKS; k++) {
        if (k === FANOUT_WARMUP) {
          warmup = Math.max(...times);
          times = [];
          cpuTimes = [];
        }
        const block = queue[announced];
        if (block === undefined) throw new Error("no block");
        announced++;
        const all = delivered(announced);
        const start = performance.now();
        const cpuStart = cpuMicros();
        live.insertBlock(block);
        await all;
        times.push(performance.now() - start);
        cpuTimes.push((cpuMicros() - cpuStart) / 1000);
      }
      return { times, cpuTimes, warmup };
    };
    const slowest = (xs: number[]): number => Math.max(...xs);
    const median = (xs: number[]): number =>
      [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

    // In another process: it reports (over IPC) each time all its clients
    // have read n events, with its own CPU time; that message's latency
    // counts in the figure.
    const child = fork(
      join(import.meta.dirname, "support", "sseSubscribers.ts"),
      ["127.0.0.1", String(livePort), updatesPath, String(SUBSCRIBERS)],
      { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] },
    );
    const waiting = new Map<number, () => void>();
    const childCpu: number[] = [];
    let childReady: () => void = () => undefined;
    const ready = new Promise<void>((r) => {
      childReady = r;
    });
    child.on("message", (m: { ready?: true; all?: number; cpuUs: number }) => {
      childCpu.push(m.cpuUs);
      if (m.ready === true) childReady();
      if (m.all !== undefined) waiting.get(m.all)?.();
    });
    const exited = new Promise<void>((resolve, reject) => {
      child.on("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`subscribers exited with ${code}`)),
      );
    });
    await Promise.race([ready, exited]);
    const apart = await fanout(
      (events) =>
        new Promise<void>((resolve) => {
          waiting.set(events, resolve);
        }),
    );
    child.send({ close: true });
    await exited;
    // The clients' CPU per counted block: from one report to the next.
    const clientCpu = childCpu
      .slice(FANOUT_WARMUP + 1)
      .map((us, i) => (us - (childCpu[i + FANOUT_WARMUP] as number)) / 1000);
    report("updates_subscribers", SUBSCRIBERS, "streams");
    report("updates_fanout_ms", slowest(apart.times), "ms");
    report("updates_fanout_median_ms", median(apart.times), "ms");
    report("updates_fanout_cpu_ms", slowest(apart.cpuTimes), "ms");
    report("updates_fanout_cpu_median_ms", median(apart.cpuTimes), "ms");
    report("updates_fanout_clients_cpu_median_ms", median(clientCpu), "ms");
    report("updates_fanout_warmup_ms", apart.warmup, "ms");

    // In this process, as the bench measured before.
    let onAll: ((events: number) => void) | null = null;
    const clients = await openSubscribers({
      host: "127.0.0.1",
      port: livePort,
      path: updatesPath,
      count: SUBSCRIBERS,
      // The clients connect after the blocks above: they count from zero.
      onAll: (events) => onAll?.(events + FANOUT_WARMUP + FANOUT_BLOCKS),
    });
    const inProcess = await fanout(
      (events) =>
        new Promise<void>((resolve) => {
          onAll = (n) => {
            if (n === events) resolve();
          };
        }),
    );
    report("updates_fanout_inprocess_ms", slowest(inProcess.times), "ms");
    report("updates_fanout_inprocess_median_ms", median(inProcess.times), "ms");
    report("updates_fanout_inprocess_cpu_ms", slowest(inProcess.cpuTimes), "ms");
    report("updates_fanout_inprocess_cpu_median_ms", median(inProcess.cpuTimes), "ms");
    clients.close();
    await liveServer.close();
    live.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
