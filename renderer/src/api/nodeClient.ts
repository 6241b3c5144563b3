/**
 * The one HTTP client of the UI, on the page's own origin (the node serves the UI under
 * /app/); services hold the one instance. One way to name an endpoint — its path as the docs
 * write it (`NodePath`) — and one set of verbs (`get`, `post`, `put`, `delete`, `request` for
 * a reply read another way). Every call resolves to a `ClientResult`: an unreachable node, a
 * timeout, an error status or a reply that does not parse all come back as values the UI can
 * show. The app API (`/app/api/*`) is called through its endpoint contract (`endpoint.ts`'s
 * `callEndpoint` over this client's `request`), never by path; the ledger API's endpoints
 * several features use are typed here, a feature's own in its `api.ts`.
 * @module
 */
import { type AppConfig, parseAppConfig } from "./appConfig.ts";
import { ClientErrorCode, type ClientResult } from "./clientError.ts";
import { type Cut, parseCut } from "./cut.ts";
import type { Decoded } from "./decode.ts";
import { type NodeInfo, parseNodeInfo } from "./nodeInfo.ts";

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
  /** The ledger API's path on that origin (`AppConfig.basePath`, `/ledger/0.0/development`). */
  readonly basePath: string;
  readonly fetch: FetchLike;
  /** Per request; default 10 s. */
  readonly timeoutMs?: number | undefined;
};

/**
 * A path of the node's HTTP API, written as the docs write it: the app's own routes from the
 * origin (`/app/api/backup`, docs/desktop.md; made from their contract entries by
 * `endpointPath`), the ledger API's under its base (`/cut`, `/chain/3/header?limit=5`,
 * docs/api.md). The client puts the base in front of the second kind; features never build URLs.
 */
export type NodePath = `/${string}`;

export type RequestOptions = {
  /** Default `application/json`. */
  readonly accept?: string;
  /** For the slow ones (a backup's check, an SPV proof); default the client's. */
  readonly timeoutMs?: number;
};

/** Reads a reply's JSON into a typed value, or says why it cannot. */
export type Parse<T> = (raw: unknown) => Decoded<T>;

export type NodeClient = {
  /** The ledger API's base on this origin, for display. */
  readonly baseUrl: string;
  /** The full URL of a path (the event stream's, `/header/updates`, is opened by EventSource). */
  url(path: NodePath): string;
  /** Sends one request; the body of a 2xx reply as text (replies read exactly: pactClient.ts). */
  request(
    method: RequestInitLike["method"],
    path: NodePath,
    options?: RequestOptions & { readonly body?: unknown },
  ): Promise<ClientResult<string>>;
  /** `GET path`, the JSON reply parsed with `parse`. */
  get<T>(path: NodePath, parse: Parse<T>, options?: RequestOptions): Promise<ClientResult<T>>;
  /** `POST path` with a JSON body, the JSON reply parsed with `parse`. */
  post<T>(
    path: NodePath,
    body: unknown,
    parse: Parse<T>,
    options?: RequestOptions,
  ): Promise<ClientResult<T>>;
  /** `PUT path` with a JSON body, the JSON reply parsed with `parse`. */
  put<T>(
    path: NodePath,
    body: unknown,
    parse: Parse<T>,
    options?: RequestOptions,
  ): Promise<ClientResult<T>>;
  /** `DELETE path` (what it removes is named in the path); the reply's text. */
  delete(path: NodePath, options?: RequestOptions): Promise<ClientResult<string>>;

  // The ledger API's endpoints more than one feature (or the services) use, typed once here;
  // a feature's own live in its `api.ts` over `get`/`post`/`put`/`delete`. The app API's
  // (`/app/api/*`) are its contract's entries, called with `callEndpoint` (endpoint.ts).
  /** `GET /health-check`: the node's confirmation text. */
  healthCheck(): Promise<ClientResult<string>>;
  /** `GET /info` */
  info(): Promise<ClientResult<NodeInfo>>;
  /** `GET /cut` */
  cut(): Promise<ClientResult<Cut>>;
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

/**
 * A reply's text read into a typed value by `read`; a failed call stays as it was, and a reply
 * that does not read is a `BadResponse` naming `url` and why.
 */
export function readReply<T>(
  text: ClientResult<string>,
  url: string,
  read: (text: string) => Decoded<T>,
): ClientResult<T> {
  if (!text.ok) return text;
  const parsed = read(text.value);
  return parsed.ok
    ? { ok: true, value: parsed.value }
    : { ok: false, error: { code: ClientErrorCode.BadResponse, url, reason: parsed.error } };
}

/** A reply's JSON parsed with `parse`. */
function parseJson<T>(text: ClientResult<string>, url: string, parse: Parse<T>): ClientResult<T> {
  return readReply(text, url, (body) => {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return { ok: false, error: "not JSON" };
    }
    return parse(json);
  });
}

/** Whether a path is one of the app's own routes, which sit at the origin's root. */
const isAppPath = (path: NodePath) => path === "/app" || path.startsWith("/app/");

export function createNodeClient(options: NodeClientOptions): NodeClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const origin = options.origin.replace(/\/+$/, "");
  const base = `${origin}${options.basePath.replace(/\/+$/, "")}`;
  const url = (path: NodePath) => (isAppPath(path) ? `${origin}${path}` : `${base}${path}`);
  const request: NodeClient["request"] = (method, path, o = {}) =>
    fetchText(
      options.fetch,
      url(path),
      {
        method,
        headers: {
          accept: o.accept ?? "application/json",
          ...(o.body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
      },
      o.timeoutMs ?? timeoutMs,
    );
  const json = async <T>(
    method: RequestInitLike["method"],
    path: NodePath,
    body: unknown,
    parse: Parse<T>,
    o: RequestOptions = {},
  ): Promise<ClientResult<T>> =>
    parseJson(await request(method, path, { ...o, body }), url(path), parse);
  const client: NodeClient = {
    baseUrl: base,
    url,
    request,
    get: (path, parse, o) => json("GET", path, undefined, parse, o),
    post: (path, body, parse, o) => json("POST", path, body, parse, o),
    put: (path, body, parse, o) => json("PUT", path, body, parse, o),
    delete: (path, o) => request("DELETE", path, o),
    healthCheck: () => request("GET", "/health-check", { accept: "text/plain" }),
    info: () => client.get("/info", parseNodeInfo),
    cut: () => client.get("/cut", parseCut),
  };
  return client;
}

/** Loads `/app/config.json` (the URL is passed in: `${import.meta.env.BASE_URL}config.json`). */
export function loadAppConfig(
  fetch: FetchLike,
  url: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<ClientResult<AppConfig>> {
  const init: RequestInitLike = { method: "GET", headers: { accept: "application/json" } };
  return fetchText(fetch, url, init, timeoutMs).then((text) =>
    parseJson(text, url, parseAppConfig),
  );
}
