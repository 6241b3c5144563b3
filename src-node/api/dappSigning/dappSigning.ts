/**
 * The dapp signing API as a node service (docs/dapp-signing.md): its setting (off by default;
 * on, on a port, 9467 by default) kept in `<dataDir>/<network>/wallet/dapp-signing.json` beside
 * the wallet's other non-secret files, the listener on 127.0.0.1 started and stopped to match
 * it (dappSigningServer.ts), and the queue of requests the wallet page answers
 * (signRequestQueue.ts). The node starts it when it listens and closes it first when it stops;
 * the app routes `/app/api/wallet/dapp-signing` and `/app/api/wallet/sign-requests` drive it.
 * @module
 */
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { readFileIfExists, writeFileAtomic } from "../../store/atomicFile.ts";
import type { ApiLog } from "../apiServices.ts";
import { AppError, AppErrorCode } from "../errors.ts";
import { buildDappSigningServer } from "./dappSigningServer.ts";
import type { OriginRate } from "./originRateLimit.ts";
import { type PendingSignRequest, SignRequestQueue } from "./signRequestQueue.ts";

/** Chainweaver's port, the one dapps call by default. */
export const DEFAULT_DAPP_SIGNING_PORT = 9467;

/** The setting's file inside the network's `wallet/` folder. */
export const DAPP_SIGNING_FILE = "dapp-signing.json";

/** How long a request waits for the user by default: 5 minutes. */
export const DEFAULT_SIGN_REQUEST_TIMEOUT_MS = 5 * 60 * 1000;

/** What the node's host is told of a request that starts waiting (`createNode({onSignRequest})`). */
export type SignRequestNotice = {
  readonly id: string;
  readonly kind: "sign" | "quicksign";
  /** The requesting page's `Origin`: a web origin, `"null"` (hidden: a sandboxed frame), or null (a program). */
  readonly origin: string | null;
};

export type DappSigningSettings = { readonly enabled: boolean; readonly port: number };

export type DappSigningStatus = DappSigningSettings & {
  /** Whether the API listens now (`enabled` but not listening: see `problem`). */
  readonly listening: boolean;
  /** Why it does not listen while enabled (port in use…), or why the file was not read. */
  readonly problem: string | null;
  /** How long a request waits for the user, seconds. */
  readonly timeoutSeconds: number;
};

export type DappSigningOptions = {
  /** `<dataDir>/<network>/wallet`. */
  readonly walletDir: string;
  /** Default {@link DEFAULT_SIGN_REQUEST_TIMEOUT_MS}. */
  readonly timeoutMs?: number | undefined;
  /** Most requests waiting at once, from all origins (default 10). */
  readonly maxPending?: number | undefined;
  /** Each origin's token bucket (default 3 at once, then one every 5 s: originRateLimit.ts). */
  readonly originRate?: OriginRate | undefined;
  readonly log?: ApiLog | undefined;
  /**
   * Told when a request starts waiting for the user (the desktop shell brings its window to
   * the front: `createNode({onSignRequest})`); what it throws is logged, the request waits on.
   */
  readonly onRequest?: ((request: PendingSignRequest) => void) | undefined;
};

const DEFAULTS: DappSigningSettings = { enabled: false, port: DEFAULT_DAPP_SIGNING_PORT };

function isPort(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 65535;
}

export class DappSigning {
  readonly queue: SignRequestQueue;
  readonly #file: string;
  readonly #timeoutMs: number;
  readonly #log: ApiLog | undefined;
  #server: FastifyInstance | undefined;
  #listeningPort: number | undefined;
  #problem: string | null = null;
  #busy: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(options: DappSigningOptions) {
    this.#file = join(options.walletDir, DAPP_SIGNING_FILE);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_SIGN_REQUEST_TIMEOUT_MS;
    this.#log = options.log;
    const onRequest = options.onRequest;
    this.queue = new SignRequestQueue({
      timeoutMs: this.#timeoutMs,
      maxPending: options.maxPending ?? 10,
      originRate: options.originRate,
      onRequest:
        onRequest === undefined
          ? undefined
          : (request) => {
              try {
                onRequest(request);
              } catch (e) {
                this.#log?.warn("the host's signing request listener failed", {
                  error: e instanceof Error ? e.message : String(e),
                });
              }
            },
    });
  }

  /** The saved setting (defaults when there is no file, or it is unreadable). */
  settings(): DappSigningSettings {
    const text = readFileIfExists(this.#file);
    if (text === undefined) return DEFAULTS;
    try {
      const v = JSON.parse(text) as Record<string, unknown>;
      if (typeof v.enabled === "boolean" && isPort(v.port))
        return { enabled: v.enabled, port: v.port };
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      // Not JSON: reported below, as a file of the wrong shape is.
    }
    this.#problem = `wallet/${DAPP_SIGNING_FILE} is unreadable: the signing API stays off until it is switched on again`;
    return DEFAULTS;
  }

  status(): DappSigningStatus {
    const s = this.settings();
    return {
      ...s,
      listening: this.#listeningPort !== undefined,
      problem: this.#problem,
      timeoutSeconds: Math.round(this.#timeoutMs / 1000),
    };
  }

  /** The address the API listens on now (always 127.0.0.1), or undefined. */
  address(): { readonly host: string; readonly port: number } | undefined {
    const a = this.#server?.server.address();
    return typeof a === "object" && a !== null ? { host: a.address, port: a.port } : undefined;
  }

  /** Applies the saved setting (the node calls it once it listens); a busy port is reported, not thrown. */
  start(): Promise<void> {
    return this.#serial(async () => {
      const s = this.settings();
      if (!s.enabled) return;
      try {
        await this.#listen(s.port);
      } catch (e) {
        this.#log?.warn("the dapp signing API did not start", {
          port: s.port,
          error: e instanceof Error ? e.message : String(e),
        });
      }
    });
  }

  /**
   * Switches the API on (on `port`) or off and saves the setting; on, it listens before the
   * setting is saved.
   * @throws {AppError} APP_DAPP_PORT_UNAVAILABLE when it cannot listen on `port` (nothing saved).
   */
  configure(next: DappSigningSettings): Promise<DappSigningStatus> {
    return this.#serial(async () => {
      if (next.enabled) await this.#listen(next.port);
      else await this.#stop();
      this.#problem = null;
      writeFileAtomic(
        this.#file,
        `${JSON.stringify({ enabled: next.enabled, port: next.port })}\n`,
      );
      this.#log?.info("dapp signing API", { enabled: next.enabled, port: next.port });
      return this.status();
    });
  }

  /** Answers every waiting request, stops listening. Idempotent. */
  close(): Promise<void> {
    this.#closed = true;
    this.queue.close();
    return this.#serial(() => this.#stop());
  }

  async #listen(port: number): Promise<void> {
    if (this.#closed) return;
    if (this.#listeningPort === port) return;
    await this.#stop();
    const server = buildDappSigningServer(this.queue);
    try {
      await server.listen({ host: "127.0.0.1", port });
    } catch (e) {
      await server.close().catch(() => {
        // The listen failure below is what the caller is told; closing a server that never
        // listened can only fail for the same cause.
      });
      const reason = e instanceof Error ? e.message : String(e);
      this.#problem = `cannot listen on 127.0.0.1:${port}: ${reason}`;
      throw new AppError(
        { code: AppErrorCode.DappPortUnavailable, port, reason },
        `the dapp signing API cannot listen on 127.0.0.1:${port} (${reason}): another program (Chainweaver?) may use it; choose another port`,
        { cause: e },
      );
    }
    this.#server = server;
    this.#listeningPort = port;
    this.#problem = null;
  }

  async #stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#listeningPort = undefined;
    if (server === undefined) return;
    // Held requests end first (their dapps get the API's stop answer), so close() does not wait on them.
    this.queue.endAll();
    server.server.closeIdleConnections();
    await server.close();
  }

  #serial<T>(f: () => Promise<T>): Promise<T> {
    const run = this.#busy.then(f, f);
    this.#busy = run.catch(() => {
      // The chain only orders the runs: each caller gets its own run's rejection.
    });
    return run;
  }
}
