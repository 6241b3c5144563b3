/**
 * A stand-in for the node's HTTP server, for end-to-end tests of the UI before (and apart
 * from) the real node: it serves a built renderer under /app/ with /app/config.json, the
 * routes the UI calls (health-check, info, cut, the header update stream) and the
 * app-private mining route (with its 409 `MINING_CANNOT_START` refusal when no reward account
 * is set), exactly as docs/desktop.md specifies them. Tests drive it:
 * push a new block header, make the node unhealthy, read the requests it received.
 * It listens on 127.0.0.1, port 0.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { rendererCspHeader } from "../../../electron/security/csp.ts";

export type FakeMining = {
  enabled: boolean;
  threads: number;
  account: string | null;
  hashRate: number;
  blocksFound: number;
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
          "mining cannot start: no reward account is set (give --miner-account and --miner-key or set mining.account in the configuration)",
      });
    }
    mining.enabled = change.enabled;
    mining.hashRate = change.enabled ? 1_534_000 : 0;
    return json(res, 200, mining);
  };

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
      // The Node page's other app routes (docs/desktop.md §3.3): nothing mined, nothing logged.
      if (path === "/app/api/mining/history") return json(res, 200, { hashRate: [], blocks: [] });
      if (path === "/app/api/node/status") {
        return json(res, 200, {
          network: networkId,
          dataDir: "/fake/data",
          logFile: null,
          cpus: 2,
          catchingUp: [],
        });
      }
      if (path === "/app/api/node/log") return json(res, 200, { lines: [] });
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
            nodeGraphHistory: [],
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
