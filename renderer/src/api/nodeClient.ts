/**
 * The one typed client the UI uses to talk to the node over its HTTP API, on the page's own
 * origin (the node serves the UI under /app/). Every call resolves to a `ClientResult`:
 * an unreachable node, a timeout, an error status or a reply that does not parse all come
 * back as values the UI can show.
 * @module
 */
import { type AppConfig, parseAppConfig } from "./appConfig.ts";
import { ClientErrorCode, type ClientResult } from "./clientError.ts";
import { type Cut, parseCut } from "./cut.ts";
import { type Decoded, decode, record, reject } from "./decode.ts";
import {
  type MiningChange,
  type MiningHistory,
  type MiningStatus,
  parseMiningHistory,
  parseMiningStatus,
} from "./miningStatus.ts";
import { type NodeInfo, parseNodeInfo } from "./nodeInfo.ts";
import {
  type LogLevel,
  type LogLine,
  type NodeStatus,
  parseNodeLog,
  parseNodeStatus,
} from "./nodeStatus.ts";
import { type PeersStatus, parsePeersStatus } from "./peers.ts";

/** The part of a fetch Response the client reads. */
export type ResponseLike = {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
};

export type RequestInitLike = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Always "same-origin" (fetch's default), so the node's app cookie rides along. */
  credentials?: "same-origin";
};

/** `window.fetch`, or anything shaped like it (tests pass Node's fetch). */
export type FetchLike = (url: string, init: RequestInitLike) => Promise<ResponseLike>;

export type NodeClientOptions = {
  /** The page's origin, e.g. `window.location.origin`. */
  readonly origin: string;
  readonly config: AppConfig;
  readonly fetch: FetchLike;
  /** Per request; default 10 s. */
  readonly timeoutMs?: number | undefined;
};

export type NodeClient = {
  /** The API base on this origin, for display and for the event stream. */
  readonly baseUrl: string;
  /** `GET {base}/health-check`: the node's confirmation text. */
  healthCheck(): Promise<ClientResult<string>>;
  /** `GET {base}/info` */
  info(): Promise<ClientResult<NodeInfo>>;
  /** `GET {base}/cut` */
  cut(): Promise<ClientResult<Cut>>;
  /** `GET /app/api/mining` */
  mining(): Promise<ClientResult<MiningStatus>>;
  /** `POST /app/api/mining` */
  setMining(change: MiningChange): Promise<ClientResult<MiningStatus>>;
  /**
   * `GET /app/api/wallet/keystore`: the stored keystore file as JSON (`null` before the
   * first wallet); the wallet feature parses it (features/wallet/keystore/keystoreFormat.ts).
   */
  walletKeystore(): Promise<ClientResult<{ readonly keystore: unknown }>>;
  /** `PUT /app/api/wallet/keystore`: replaces the stored keystore file. */
  saveWalletKeystore(keystore: unknown): Promise<ClientResult<{ readonly saved: true }>>;
  /**
   * `GET /app/api/wallet/pending`: the stored pending cross-chain transfers' file as JSON
   * (`{pending: null}` before the first); features/wallet/crosschain/pendingFile.ts parses it.
   */
  walletPending(): Promise<ClientResult<unknown>>;
  /** `PUT /app/api/wallet/pending`: replaces the stored pending cross-chain transfers' file. */
  saveWalletPending(file: unknown): Promise<ClientResult<{ readonly saved: true }>>;
  /**
   * `POST {base}/chain/{chain}/pact/api/v1/local?signatureVerification=false`: a command run
   * without effect; the answer's JSON as it came (the caller parses it for what it asked).
   */
  local(chainId: number, command: unknown): Promise<ClientResult<unknown>>;
  /** `GET /app/api/peers` (docs/p2p.md) */
  peers(): Promise<ClientResult<PeersStatus>>;
  /** `POST /app/api/peers` */
  addPeer(address: string): Promise<ClientResult<string>>;
  /** `DELETE /app/api/peers/{address}` */
  removePeer(address: string): Promise<ClientResult<string>>;
  /** `GET /app/api/mining/history`: the last hour of hash rates and blocks found. */
  miningHistory(): Promise<ClientResult<MiningHistory>>;
  /** `GET /app/api/node/status`: facts and what the node catches up on. */
  nodeStatus(): Promise<ClientResult<NodeStatus>>;
  /** `GET /app/api/node/log?level=…`: recent log lines at that level or above. */
  nodeLog(level: LogLevel): Promise<ClientResult<readonly LogLine[]>>;
  /** The URL of `GET {base}/header/updates` (server-sent events). */
  readonly headerUpdatesUrl: string;
  /**
   * `GET {base}{path}` (path with its query, e.g. `/chain/3/header?limit=5`), the reply parsed
   * with `parse`: for a feature's own endpoints, whose parsers live in the feature.
   * `accept` defaults to `application/json`.
   */
  getJson<T>(
    path: string,
    parse: (raw: unknown) => Decoded<T>,
    accept?: string,
  ): Promise<ClientResult<T>>;
  /**
   * `GET {origin}{path}` for the app's private API (`/app/api/…`; the app token rides along
   * as the cookie `/app/` set), the reply parsed with `parse`.
   */
  getAppJson<T>(path: string, parse: (raw: unknown) => Decoded<T>): Promise<ClientResult<T>>;
  /** `POST {base}{path}` with a JSON body, the reply parsed with `parse`. */
  postJson<T>(
    path: string,
    body: unknown,
    parse: (raw: unknown) => Decoded<T>,
  ): Promise<ClientResult<T>>;
  /** `GET /app/api/<path>`, the reply parsed with `parse` (features' app routes build on it). */
  appGet<T>(path: string, parse: (raw: unknown) => Decoded<T>): Promise<ClientResult<T>>;
  /** `POST /app/api/<path>` with a JSON body; `timeoutMs` for the slow ones (default 10 s). */
  appPost<T>(
    path: string,
    body: unknown,
    parse: (raw: unknown) => Decoded<T>,
    timeoutMs?: number,
  ): Promise<ClientResult<T>>;
  /** `DELETE /app/api/<path>` (what it removes is named in the path). */
  appDelete(path: string): Promise<ClientResult<string>>;
};

const DEFAULT_TIMEOUT_MS = 10_000;

function isTimeout(e: unknown): boolean {
  return (
    typeof e === "object" &&
    e !== null &&
    "name" in e &&
    (e.name === "TimeoutError" || e.name === "AbortError")
  );
}

/** An error reply's code and message: `{code, message}` JSON, else short plain text. */
export function errorBodyOf(body: string): {
  readonly nodeCode: string | null;
  readonly message: string | null;
} {
  const text = body.trim();
  if (text === "") return { nodeCode: null, message: null };
  try {
    const j: unknown = JSON.parse(text);
    if (typeof j === "object" && j !== null && !Array.isArray(j)) {
      const code = "code" in j && typeof j.code === "string" && j.code !== "" ? j.code : null;
      const message = "message" in j && typeof j.message === "string" ? j.message : null;
      if (code !== null || message !== null) return { nodeCode: code, message };
    }
    if (typeof j === "string") return { nodeCode: null, message: j };
  } catch {
    // plain text
  }
  return { nodeCode: null, message: text.length > 200 ? `${text.slice(0, 200)}…` : text };
}

/** Sends one request; resolves to the body of a 2xx reply (also for pactClient.ts). */
export async function fetchText(
  fetch: FetchLike,
  url: string,
  init: RequestInitLike,
  timeoutMs: number,
): Promise<ClientResult<string>> {
  let res: ResponseLike;
  let body: string;
  try {
    res = await fetch(url, {
      ...init,
      credentials: "same-origin",
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = await res.text();
  } catch (e) {
    if (isTimeout(e))
      return { ok: false, error: { code: ClientErrorCode.Timeout, url, ms: timeoutMs } };
    const detail = e instanceof Error ? e.message : String(e);
    return { ok: false, error: { code: ClientErrorCode.Unreachable, url, detail } };
  }
  if (!res.ok) {
    return {
      ok: false,
      error: {
        code: ClientErrorCode.HttpStatus,
        url,
        status: res.status,
        ...errorBodyOf(body),
      },
    };
  }
  return { ok: true, value: body };
}

/** Sends one request and parses the JSON reply with `parse`. */
async function fetchJson<T>(
  fetch: FetchLike,
  url: string,
  init: RequestInitLike,
  timeoutMs: number,
  parse: (raw: unknown) => Decoded<T>,
): Promise<ClientResult<T>> {
  const text = await fetchText(fetch, url, init, timeoutMs);
  if (!text.ok) return text;
  const bad = (reason: string): ClientResult<T> => ({
    ok: false,
    error: { code: ClientErrorCode.BadResponse, url, reason },
  });
  let json: unknown;
  try {
    json = JSON.parse(text.value);
  } catch {
    return bad("not JSON");
  }
  const parsed = parse(json);
  return parsed.ok ? { ok: true, value: parsed.value } : bad(parsed.error);
}

export function createNodeClient(options: NodeClientOptions): NodeClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const origin = options.origin.replace(/\/+$/, "");
  const base = `${origin}${options.config.basePath}`;
  const miningUrl = `${origin}/app/api/mining`;
  const keystoreUrl = `${origin}/app/api/wallet/keystore`;
  const pendingUrl = `${origin}/app/api/wallet/pending`;
  const put = (url: string, body: unknown) =>
    fetchJson(
      options.fetch,
      url,
      {
        method: "PUT",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
      },
      timeoutMs,
      (raw) =>
        decode(raw, (x) => {
          if (record(x, "answer").saved !== true) reject("answer.saved", "true");
          return { saved: true as const };
        }),
    );
  const get = <T>(url: string, parse: (raw: unknown) => Decoded<T>, accept = "application/json") =>
    fetchJson(options.fetch, url, { method: "GET", headers: { accept } }, timeoutMs, parse);
  const post = <T>(url: string, body: unknown, parse: (raw: unknown) => Decoded<T>) =>
    fetchJson(
      options.fetch,
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
      },
      timeoutMs,
      parse,
    );
  const appUrl = (path: string) => `${origin}/app/api/${path.replace(/^\/+/, "")}`;
  return {
    baseUrl: base,
    headerUpdatesUrl: `${base}/header/updates`,
    appGet: (path, parse) => get(appUrl(path), parse),
    appDelete: (path) => fetchText(options.fetch, appUrl(path), { method: "DELETE" }, timeoutMs),
    appPost: (path, body, parse, ms) =>
      fetchJson(
        options.fetch,
        appUrl(path),
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(body),
        },
        ms ?? timeoutMs,
        parse,
      ),
    healthCheck: () =>
      fetchText(options.fetch, `${base}/health-check`, { method: "GET" }, timeoutMs),
    info: () => get(`${base}/info`, parseNodeInfo),
    cut: () => get(`${base}/cut`, parseCut),
    mining: () => get(miningUrl, parseMiningStatus),
    miningHistory: () => get(`${miningUrl}/history`, parseMiningHistory),
    nodeStatus: () => get(`${origin}/app/api/node/status`, parseNodeStatus),
    nodeLog: (level) =>
      get(`${origin}/app/api/node/log?level=${encodeURIComponent(level)}&limit=200`, parseNodeLog),
    setMining: (change) => post(miningUrl, change, parseMiningStatus),
    getJson: (path, parse, accept) => get(`${base}${path}`, parse, accept),
    getAppJson: (path, parse) => get(`${origin}${path}`, parse),
    postJson: (path, body, parse) => post(`${base}${path}`, body, parse),
    peers: () => get(`${origin}/app/api/peers`, parsePeersStatus),
    addPeer: (address) =>
      fetchText(
        options.fetch,
        `${origin}/app/api/peers`,
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ address }),
        },
        timeoutMs,
      ),
    removePeer: (address) =>
      fetchText(
        options.fetch,
        `${origin}/app/api/peers/${encodeURIComponent(address)}`,
        { method: "DELETE" },
        timeoutMs,
      ),
    local: (chainId, command) =>
      fetchJson(
        options.fetch,
        `${base}/chain/${chainId}/pact/api/v1/local?signatureVerification=false`,
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(command),
        },
        timeoutMs,
        (raw) => ({ ok: true, value: raw }),
      ),
    walletKeystore: () => get(keystoreUrl, parseKeystoreAnswer),
    saveWalletKeystore: (keystore) => put(keystoreUrl, keystore),
    walletPending: () => get(pendingUrl, (raw) => ({ ok: true, value: raw })),
    saveWalletPending: (file) => put(pendingUrl, file),
  };
}

function parseKeystoreAnswer(raw: unknown): Decoded<{ readonly keystore: unknown }> {
  return decode(raw, (x) => {
    const r = record(x, "answer");
    if (!("keystore" in r)) reject("answer.keystore", "a keystore or null");
    return { keystore: r.keystore };
  });
}

/** Loads `/app/config.json` (the URL is passed in: `${import.meta.env.BASE_URL}config.json`). */
export function loadAppConfig(
  fetch: FetchLike,
  url: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<ClientResult<AppConfig>> {
  return fetchJson(
    fetch,
    url,
    { method: "GET", headers: { accept: "application/json" } },
    timeoutMs,
    parseAppConfig,
  );
}
