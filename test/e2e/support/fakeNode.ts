/**
 * A stand-in for the node's HTTP server, for end-to-end tests of the UI before (and apart
 * from) the real node: it serves a built renderer under /app/ with /app/config.json, the
 * routes the UI calls (health-check, info, cut, the header update stream) and the
 * app-private mining route (with its 409 `MINING_CANNOT_START` refusal when no reward account
 * is set), exactly as docs/desktop.md specifies them; for the explorer, the twenty-chain
 * graph in `/info`, headers and blocks (every block empty, adjacent parents along the
 * graph), branches, a balance from `/local`, and the explorer index's answers (a pending
 * transaction for any request key, an account without transfers, `coin` on every chain, a
 * search finding a 43-character text as a transaction, `coin` as a module, anything else of
 * three characters or more as an account). Tests drive it:
 * push a new block header, make the node unhealthy, read the requests it received.
 * It listens on 127.0.0.1, port 0.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { rendererCspHeader } from "../../../electron/security/csp.ts";
import { twentyChainGraph } from "../../../src-node/chain/knownGraphs.ts";

export type FakeMining = {
  enabled: boolean;
  threads: number;
  account: string | null;
  hashRate: number;
  blocksFound: number;
};

/** A task of `/app/api/node/status`'s `catchingUp`. */
export type CatchUpTaskJson = {
  readonly what: string;
  readonly done: number;
  readonly total: number;
  readonly etaS: number | null;
};

export type FakeNodeOptions = {
  /** A built renderer (index.html + assets/). */
  readonly rendererDir: string;
  readonly networkId?: string;
  readonly chains?: number;
  /** Height of every chain at start. */
  readonly startHeight?: number;
  /** The miner's reward account; null makes turning mining on fail with 409, as the node does. */
  readonly miningAccount?: string | null;
  /** What `GET /app/api/wallet/pending` answers as the wallet's `pending.json` (default none). */
  readonly walletPending?: unknown;
};

export type FakeNode = {
  readonly origin: string;
  readonly appUrl: string;
  readonly baseUrl: string;
  readonly heights: number[];
  readonly mining: FakeMining;
  /** Requests received, as "METHOD /path". */
  readonly requests: string[];
  /** Mining change bodies received. */
  readonly miningPosts: unknown[];
  /** Moves a chain to `height` and sends a BlockHeader event to every open stream. */
  pushHeader(chainId: number, height: number): void;
  /** Makes /health-check answer 503 (false) or 200 (true). */
  setHealthy(healthy: boolean): void;
  /** Makes /app/config.json answer 503 (false) or 200 (true). */
  setConfigAvailable(available: boolean): void;
  /** What `/app/api/node/status` lists as catching up (the banner's tasks). */
  setCatchingUp(items: readonly CatchUpTaskJson[]): void;
  /** Open header streams. */
  streamCount(): number;
  close(): Promise<void>;
};

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** A deterministic 43-character base64url block hash for (chain, height). */
export function fakeHash(chainId: number, height: number): string {
  return createHash("sha256").update(`${chainId}:${height}`).digest("base64url");
}

export async function startFakeNode(options: FakeNodeOptions): Promise<FakeNode> {
  const networkId = options.networkId ?? "development";
  const chains = options.chains ?? 20;
  const heights = Array.from({ length: chains }, () => options.startHeight ?? 100);
  const mining: FakeMining = {
    enabled: false,
    threads: 2,
    account: options.miningAccount === undefined ? "k:miner" : options.miningAccount,
    hashRate: 0,
    blocksFound: 0,
  };
  const requests: string[] = [];
  const miningPosts: unknown[] = [];
  const streams = new Set<ServerResponse>();
  let healthy = true;
  let configAvailable = true;
  let catchingUp: readonly CatchUpTaskJson[] = [];
  let origin = "";
  const basePath = `/ledger/0.0/${networkId}`;

  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
    res.writeHead(status, { "content-type": type, "x-ledger-node-version": "0.1.0-fake" });
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, value: unknown) =>
    send(res, status, "application/json", JSON.stringify(value));

  const cut = () => ({
    hashes: Object.fromEntries(
      heights.map((h, c) => [String(c), { height: h, hash: fakeHash(c, h) }]),
    ),
    origin: null,
    weight: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    height: heights.reduce((a, b) => a + b, 0),
    instance: networkId,
    id: fakeHash(
      -1,
      heights.reduce((a, b) => a + b, 0),
    ),
  });

  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const adjacency = (c: number) =>
    chains === 20 ? (twentyChainGraph.adjacency.get(c) ?? []) : ([] as number[]);
  const header = (c: number, h: number) => ({
    nonce: "0",
    creationTime: 1_764_151_200_000_000 + h * 30_000_000,
    parent: fakeHash(c, h - 1),
    adjacents: Object.fromEntries(adjacency(c).map((a) => [String(a), fakeHash(a, h - 1)])),
    target: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    payloadHash: fakeHash(c, -h - 1),
    chainId: c,
    weight: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    height: h,
    ledgerVersion: networkId,
    epochStart: 1_764_151_200_000_000,
    featureFlags: 0,
    hash: fakeHash(c, h),
  });
  const block = (c: number, h: number) => ({
    header: header(c, h),
    payloadWithOutputs: {
      transactions: [],
      minerData: b64({ account: "k:miner", predicate: "keys-all", "public-keys": ["ab"] }),
      transactionsHash: fakeHash(c, -h - 2),
      outputsHash: fakeHash(c, -h - 3),
      payloadHash: fakeHash(c, -h - 1),
      coinbase: b64({
        gas: 0,
        result: { status: "success", data: "Write succeeded" },
        reqKey: fakeHash(c, -h - 4),
        logs: "x",
        events: [
          {
            name: "TRANSFER",
            params: ["", "k:miner", 2.3],
            module: { name: "coin", namespace: null },
            moduleHash: "x",
          },
        ],
        metaData: null,
        continuation: null,
        txId: null,
      }),
    },
  });
  /** The height of `hash` on chain `c`, or -1. */
  const heightOf = (c: number, hash: string) => {
    for (let h = heights[c] ?? -1; h >= 0; h--) if (fakeHash(c, h) === hash) return h;
    return -1;
  };
  const page = (items: unknown[], next: string | null = null) => ({
    limit: items.length,
    items,
    next,
  });
  const range = (from: number, to: number) =>
    Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

  /** The node's block, header and hash routes under `{base}/chain/{c}/`. */
  const handleChain = (url: URL, body: string, res: ServerResponse) => {
    const m = /^\/chain\/(\d+)\/(header|block|hash)(?:\/(branch|[A-Za-z0-9_-]{43}))?$/.exec(
      url.pathname.slice(basePath.length),
    );
    const c = Number(m?.[1]);
    if (m === null || !(c < chains)) return json(res, 404, { reason: "not found" });
    const head = heights[c] ?? 0;
    const q = (k: string) => url.searchParams.get(k);
    if (m[3] === "branch") {
      const upper = (JSON.parse(body || "{}") as { upper?: string[] }).upper?.[0] ?? "";
      let top = heightOf(c, upper);
      const next = q("next");
      if (next !== null) top = heightOf(c, next.replace(/^inclusive:/, ""));
      if (q("maxheight") !== null) top = Math.min(top, Number(q("maxheight")));
      const low = Math.max(Number(q("minheight") ?? 0), top - Number(q("limit") ?? 360) + 1);
      const hs = range(low, top).reverse();
      const more = low > Number(q("minheight") ?? 0) ? `inclusive:${fakeHash(c, low - 1)}` : null;
      const items = hs.map((h) =>
        m[2] === "hash" ? fakeHash(c, h) : m[2] === "block" ? block(c, h) : header(c, h),
      );
      return json(res, 200, page(items, more));
    }
    if (m[3] !== undefined) {
      const h = heightOf(c, m[3]);
      return h < 0
        ? json(res, 404, { key: m[3], reason: "not found" })
        : json(res, 200, header(c, h));
    }
    const hs = range(Number(q("minheight") ?? 0), Math.min(head, Number(q("maxheight") ?? head)));
    const items = hs.map((h) =>
      m[2] === "hash" ? fakeHash(c, h) : m[2] === "block" ? block(c, h) : header(c, h),
    );
    return json(res, 200, page(items));
  };

  /** The explorer index's answers (docs/explorer-api.md). */
  const handleExplorer = (url: URL, res: ServerResponse) => {
    const rest = url.pathname.slice("/app/api/explorer/".length).split("/").map(decodeURIComponent);
    const [what, name, sub] = rest;
    const now = Math.floor(Date.now() / 1000);
    switch (what) {
      case "status":
        return json(res, 200, {
          state: "ready",
          indexedBlocks: 1,
          totalBlocks: 1,
          message: "up to date",
          format: 1,
        });
      case "tx":
        return json(res, 200, {
          requestKey: name,
          status: "pending",
          chain: 1,
          block: null,
          confirmations: null,
          orphanedIn: [],
          command: {
            hash: name,
            sigs: [],
            cmd: {
              payload: { exec: { code: "(+ 1 2)", data: {} } },
              meta: {
                chainId: "1",
                sender: "sender00",
                gasLimit: 1000,
                gasPrice: 0.00000001,
                ttl: 3600,
                creationTime: now,
              },
              signers: [],
              networkId,
              nonce: "fake",
            },
          },
          sender: "sender00",
          firstCall: null,
          expiresAt: now + 3600,
          gas: null,
          result: null,
          events: [],
          crossChain: null,
        });
      case "account":
        return sub === "transfers"
          ? json(res, 200, page([]))
          : json(res, 200, { account: name, chains: [] });
      case "module":
        return json(res, 200, {
          name,
          chains: heights.map((_, c) => ({
            chain: c,
            kind: "module",
            hash: fakeHash(-2, 0),
            interfaces: ["fungible-v2"],
            code: `(module ${name} GOVERNANCE)`,
            deployedIn: null,
          })),
        });
      case "search": {
        const text = url.searchParams.get("q") ?? "";
        return json(res, 200, {
          query: text,
          results:
            text.length < 3
              ? []
              : /^[A-Za-z0-9_-]{43}$/.test(text)
                ? [
                    {
                      kind: "transaction",
                      requestKey: text,
                      chain: 1,
                      status: "pending",
                      height: null,
                      blockHash: null,
                    },
                  ]
                : text === "coin"
                  ? [{ kind: "module", name: "coin", chains: heights.map((_, c) => c) }]
                  : [{ kind: "account", account: text, chains: [0] }],
        });
      }
      default:
        return json(res, 404, { code: "EXPLORER_NOT_FOUND", message: "not found" });
    }
  };

  const serveApp = async (path: string, res: ServerResponse) => {
    const rel = path === "/app/" ? "index.html" : path.slice("/app/".length);
    const file = normalize(join(options.rendererDir, rel));
    if (!file.startsWith(normalize(options.rendererDir) + sep))
      return send(res, 404, "text/plain", "not found");
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return send(res, 404, "text/plain", "not found");
    }
    res.writeHead(200, {
      "content-type": MIME[extname(file)] ?? "application/octet-stream",
      "content-security-policy": rendererCspHeader,
      "x-content-type-options": "nosniff",
      "cache-control": rel === "index.html" ? "no-cache" : "max-age=31536000, immutable",
    });
    res.end(body);
  };

  const handleMining = (req: IncomingMessage, body: string, res: ServerResponse) => {
    if (req.method === "GET") return json(res, 200, mining);
    // As the node must: JSON only (forces a CORS preflight) and no foreign Origin.
    const requestOrigin = req.headers.origin;
    if (requestOrigin !== undefined && requestOrigin !== origin) {
      return json(res, 403, { code: "APP_FORBIDDEN", message: "Not from this app." });
    }
    if (!(req.headers["content-type"] ?? "").startsWith("application/json")) {
      return json(res, 415, { code: "APP_NOT_JSON", message: "Send JSON." });
    }
    let change: unknown;
    try {
      change = JSON.parse(body);
    } catch {
      return json(res, 400, { code: "APP_BAD_REQUEST", message: "Not JSON." });
    }
    miningPosts.push(change);
    if (
      typeof change !== "object" ||
      change === null ||
      !("enabled" in change) ||
      typeof change.enabled !== "boolean"
    ) {
      return json(res, 400, {
        code: "APP_BAD_REQUEST",
        message: "enabled must be true or false.",
      });
    }
    if (change.enabled && mining.account === null) {
      return json(res, 409, {
        code: "MINING_CANNOT_START",
        message:
          "mining cannot start: no reward account is set (choose one on the app's Node page, give --miner-account, or set mining.account in the configuration)",
      });
    }
    mining.enabled = change.enabled;
    mining.hashRate = change.enabled ? 1_534_000 : 0;
    return json(res, 200, mining);
  };

  let walletKeystore: unknown = null;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      requests.push(`${req.method} ${path}`);
      if (path === "/app") {
        res.writeHead(301, { location: "/app/" });
        res.end();
        return;
      }
      if (path === "/app/config.json") {
        if (!configAvailable) return json(res, 503, { code: "X", message: "starting" });
        return json(res, 200, { networkId, apiVersion: "0.0", baseUrl: `${origin}${basePath}` });
      }
      if (path === "/app/api/mining") return handleMining(req, body, res);
      if (path.startsWith("/app/api/explorer/")) {
        return handleExplorer(new URL(req.url ?? "/", "http://x"), res);
      }
      if (path.startsWith(`${basePath}/chain/`) && /\/(header|block|hash)/.test(path)) {
        return handleChain(new URL(req.url ?? "/", "http://x"), body, res);
      }
      if (path.startsWith(`${basePath}/chain/`) && path.endsWith("/pact/api/v1/local")) {
        return json(res, 200, {
          gas: 20,
          result: {
            status: "success",
            data: ["1000000.0", { keys: ["ab".repeat(32)], pred: "keys-all" }],
          },
          reqKey: fakeHash(0, 0),
          logs: "x",
          metaData: null,
          continuation: null,
          txId: null,
        });
      }
      // The wallet's keystore (docs/wallet.md): kept in memory, no wallet at first.
      if (path === "/app/api/wallet/keystore") {
        if (req.method === "PUT") {
          walletKeystore = JSON.parse(body) as unknown;
          return json(res, 200, { saved: true });
        }
        return json(res, 200, { keystore: walletKeystore });
      }
      // The Node page's other app routes (docs/desktop.md §3.3): nothing mined, nothing logged.
      if (path === "/app/api/mining/history") return json(res, 200, { hashRate: [], blocks: [] });
      if (path === "/app/api/node/status") {
        return json(res, 200, {
          network: networkId,
          dataDir: "/fake/data",
          logFile: null,
          cpus: 2,
          publicApis: { mining: false, backup: false },
          catchingUp,
        });
      }
      if (path === "/app/api/node/log") return json(res, 200, { lines: [] });
      // The Backup page (docs/desktop.md §3.5): the default folder, no backups yet.
      if (path === "/app/api/backup") {
        return json(res, 200, {
          directory: "/fake/backups",
          defaultDirectory: "/fake/backups",
          chosen: false,
          includeState: true,
          schedule: { every: "off", hour: 3, weekday: 0, keep: 7 },
          nextAutomatic: null,
          runningId: null,
          estimate: { bytes: 0, seconds: 0, bytesWithoutState: 0, secondsWithoutState: 0 },
          freshBackupDue: false,
          lastRestore: null,
          restartable: false,
        });
      }
      if (path === "/app/api/backup/list") return json(res, 200, { backups: [] });
      // The Node page's peers panel (docs/p2p.md): a node alone.
      if (path === "/app/api/peers") {
        return json(res, 200, {
          peers: [],
          sync: {
            state: "alone",
            cutHeight: 0,
            peerCutHeight: null,
            blocksLeft: 0,
            blocksPerSecond: 0,
            secondsLeft: null,
          },
        });
      }
      // The Node page's private entities (docs/private.md): no entity, nothing pinned.
      if (path === "/app/api/private") {
        return json(res, 200, {
          entity: null,
          publicKey: "p0KY4LEs3ybc5SyMrZz5W8qflZTwHh-uS7fPHKdfWTk",
          fingerprint: "1571 3732 fe80 a387 721b 4363 d271 b78c",
          trusted: [],
          chains: [],
          diverged: false,
        });
      }
      // The wallet's pending cross-chain transfers and history: as given (none), saves accepted.
      if (path === "/app/api/wallet/pending") {
        return json(
          res,
          200,
          req.method === "PUT" ? { saved: true } : { pending: options.walletPending ?? null },
        );
      }
      // The dapp signing API (docs/dapp-signing.md): off, nobody asks; a long-poll waits first.
      if (path === "/app/api/wallet/dapp-signing") {
        return json(res, 200, {
          enabled: false,
          port: 9467,
          listening: false,
          problem: null,
          timeoutSeconds: 300,
        });
      }
      if (path === "/app/api/wallet/sign-requests") {
        const answer = () => json(res, 200, { version: 0, requests: [], ended: [] });
        if (new URL(req.url ?? "/", "http://x").searchParams.get("since") === null) return answer();
        const wait = setTimeout(answer, 3000);
        res.once("close", () => clearTimeout(wait));
        return;
      }
      if (path.startsWith("/app/")) return void serveApp(path, res);
      switch (path) {
        case `${basePath}/health-check`:
          return healthy
            ? send(res, 200, "text/plain; charset=utf-8", "Health check OK.\n")
            : send(
                res,
                503,
                "text/plain; charset=utf-8",
                "Failed health check due to service drain.\n",
              );
        case `${basePath}/info`:
          return json(res, 200, {
            nodeVersion: networkId,
            nodePackageVersion: "0.1.0-fake",
            nodeApiVersion: "0.0",
            nodeChains: heights.map((_, c) => String(c)),
            nodeNumberOfChains: chains,
            nodeGraphHistory:
              chains === 20
                ? [[0, twentyChainGraph.chains.map((c) => [c, [...adjacency(c)]])]]
                : [],
            nodeLatestBehaviorHeight: 0,
            nodeGenesisHeights: heights.map((_, c) => [String(c), 0]),
            nodeHistoricalChains: [],
            nodeServiceDate: "2099-01-01T00:00:00Z",
            nodeBlockDelay: 30000000,
          });
        case `${basePath}/cut`:
          return json(res, 200, cut());
        case `${basePath}/header/updates`:
          res.writeHead(200, {
            "content-type": "text/event-stream",
            "cache-control": "no-cache",
            connection: "keep-alive",
          });
          res.write(":\n\n");
          streams.add(res);
          // The response closes when the client goes away (the request closes once read).
          res.on("close", () => streams.delete(res));
          return;
        default:
          return json(res, 404, { reason: "not found" });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    appUrl: `${origin}/app/`,
    baseUrl: `${origin}${basePath}`,
    heights,
    mining,
    requests,
    miningPosts,
    pushHeader(chainId, height) {
      heights[chainId] = height;
      const data = JSON.stringify({
        header: {
          nonce: "0",
          creationTime: Date.now() * 1000,
          parent: fakeHash(chainId, height - 1),
          adjacents: {},
          target: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
          payloadHash: fakeHash(chainId, -height),
          chainId,
          weight: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
          height,
          ledgerVersion: networkId,
          epochStart: 0,
          featureFlags: 0,
          hash: fakeHash(chainId, height),
        },
        txCount: 1,
        powHash: "00".repeat(32),
        target: "ff".repeat(32),
      });
      for (const s of streams) s.write(`event:BlockHeader\ndata:${data}\n\n`);
    },
    setHealthy(h) {
      healthy = h;
    },
    setConfigAvailable(a) {
      configAvailable = a;
    },
    setCatchingUp(items) {
      catchingUp = items;
    },
    streamCount: () => streams.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of streams) s.end();
        streams.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
