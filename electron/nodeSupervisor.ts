/**
 * The node's supervisor in its host (the desktop's main process, and `npm start --
 * --headless`): starts the node through nodeHost.ts and restarts it when the app asks
 * (`POST /app/api/node/restart`, the backup page's restore; docs/desktop.md §3.4). A
 * restart closes the node (server, miner, databases, the data folder's lock), runs the
 * request's step while it is stopped (a restore replaces the databases then), and starts
 * it again with the options read again (`reload`: the host's saved settings, so settings
 * saved on the Node page apply on "Restart node"; without it, and after a restore, the same
 * options), on the
 * same address (the port it actually listened on, also when the first start asked for
 * port 0, unless the saved port changed) and with the same app token, so the page that
 * asked reconnects by itself. Every node it starts tells `onSignRequest` of dapps' signing
 * requests. Closing waits for a restart under way.
 * @module
 */
import {
  type HostedNode,
  type HostedNodeOptions,
  type NodeLogger,
  type NodeRestartRequest,
  type SignRequestNotice,
  startNode,
} from "./nodeHost.ts";

export type NodeSupervisorOptions = {
  /** The node's options (the supervisor adds `restart`, and on a restart the port and token). */
  readonly options: HostedNodeOptions;
  /**
   * The options a restart starts with: the host's saved settings read again (the
   * desktop's settings.json, the headless launcher's `--settings` file). Default: the
   * first start's options. When it throws, the restart keeps the running node's options;
   * a restore (whose step wrote into the running node's data folder) keeps them too.
   */
  readonly reload?: (() => HostedNodeOptions) | undefined;
  /** Starts a node (default nodeHost.ts's `startNode`; tests pass their own). */
  readonly start?: ((options: HostedNodeOptions) => Promise<HostedNode>) | undefined;
  readonly log?: NodeLogger | undefined;
  /** After every successful restart, with the new node. */
  readonly onRestarted?: ((node: HostedNode) => void) | undefined;
  /** When a restart could not start the node again (the host shows why, or exits). */
  readonly onRestartFailed?: ((error: unknown) => void) | undefined;
  /**
   * When a dapp's signing request waits for the user, whichever node (first or restarted)
   * runs: the desktop brings its window to the front.
   */
  readonly onSignRequest?: ((request: SignRequestNotice) => void) | undefined;
  /** Starts tried before a restart gives up (the port may take a moment to free); default 20. */
  readonly attempts?: number | undefined;
  /** Pause between those tries, ms; default 250. */
  readonly retryDelayMs?: number | undefined;
};

/** Codes worth another try: the address or the data folder not yet released. */
const RETRYABLE = new Set(["API_LISTEN_FAILED", "BACKUP_DATA_IN_USE"]);

function codeOf(e: unknown): string | null {
  return e instanceof Error && "code" in e && typeof e.code === "string" ? e.code : null;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The port of a node's base URL (what a restart listens on again). */
export function portOf(node: HostedNode): number {
  const url = new URL(node.baseUrl);
  return url.port === "" ? 80 : Number(url.port);
}

export class NodeSupervisor {
  readonly #opts: NodeSupervisorOptions;
  readonly #start: (options: HostedNodeOptions) => Promise<HostedNode>;
  #node: HostedNode | null = null;
  /** The options the running node was started with (before the supervisor's port and token). */
  #launched: HostedNodeOptions;
  #restarting: Promise<void> | null = null;
  #closing: Promise<void> | null = null;

  constructor(options: NodeSupervisorOptions) {
    this.#opts = options;
    this.#start = options.start ?? startNode;
    this.#launched = options.options;
  }

  /** The running node; null before the first start, during a restart and after close. */
  get node(): HostedNode | null {
    return this.#node;
  }

  /** Whether a restart is under way. */
  get restarting(): boolean {
    return this.#restarting !== null;
  }

  /**
   * First start with the configured options.
   * @throws whatever `startNode` rejects with.
   */
  async start(): Promise<HostedNode> {
    const node = await this.#start(this.#withRestart(this.#launched));
    this.#node = node;
    return node;
  }

  /** The options with the supervisor's hooks (reloaded options have none). */
  #withRestart(options: HostedNodeOptions): HostedNodeOptions {
    const onSignRequest = this.#opts.onSignRequest ?? options.onSignRequest;
    return {
      ...options,
      restart: (request) => void this.restart(request),
      ...(onSignRequest === undefined ? {} : { onSignRequest }),
    };
  }

  /**
   * Closes the node, runs the request's step, starts the node again on the same address.
   * A second request while one runs joins it (its step is not run). Resolves when the node
   * runs again, or when the restart failed (then `onRestartFailed` has been told).
   */
  restart(request: NodeRestartRequest): Promise<void> {
    if (this.#restarting !== null) {
      this.#opts.log?.warn("restart asked while one is under way; ignored", {
        reason: request.reason,
      });
      return this.#restarting;
    }
    const old = this.#node;
    if (old === null || this.#closing !== null) return Promise.resolve();
    this.#restarting = this.#restart(old, request).finally(() => {
      this.#restarting = null;
    });
    return this.#restarting;
  }

  async #restart(old: HostedNode, request: NodeRestartRequest): Promise<void> {
    const log = this.#opts.log;
    log?.info("restarting the node", { reason: request.reason, baseUrl: old.baseUrl });
    // A restore wrote into the running node's data folder, checked against its network:
    // the node starts again on those; settings saved meanwhile wait for the next restart.
    const next = request.reason === "restore" ? this.#launched : this.#reload();
    // The same address unless the saved port changed (port 0 listened on some port: kept).
    const port = next.port === this.#launched.port ? portOf(old) : next.port;
    const options: HostedNodeOptions = this.#withRestart({
      ...next,
      port,
      appToken: old.appToken ?? next.appToken,
    });
    this.#launched = next;
    this.#node = null;
    try {
      await old.close();
    } catch (e) {
      log?.error("the node did not close cleanly before the restart", { error: messageOf(e) });
    }
    if (request.whileStopped !== undefined) {
      try {
        await request.whileStopped();
      } catch (e) {
        log?.error("the step between stop and start failed; starting the node anyway", {
          reason: request.reason,
          code: codeOf(e),
          error: messageOf(e),
        });
      }
    }
    const attempts = Math.max(1, this.#opts.attempts ?? 20);
    const delay = this.#opts.retryDelayMs ?? 250;
    for (let attempt = 1; ; attempt++) {
      try {
        const node = await this.#start(options);
        this.#node = node;
        log?.info("node restarted", { baseUrl: node.baseUrl, attempt });
        this.#opts.onRestarted?.(node);
        return;
      } catch (e) {
        const code = codeOf(e);
        if (attempt >= attempts || code === null || !RETRYABLE.has(code)) {
          log?.error("the node could not start again", { code, error: messageOf(e), attempt });
          this.#opts.onRestartFailed?.(e);
          return;
        }
        await new Promise((done) => setTimeout(done, delay));
      }
    }
  }

  /** The options for the next start: `reload`'s, or the running node's when there is none or it fails. */
  #reload(): HostedNodeOptions {
    const reload = this.#opts.reload;
    if (reload === undefined) return this.#launched;
    try {
      const next = reload();
      const changed = (["network", "dataDir", "port", "mining", "backup"] as const).filter(
        (k) => JSON.stringify(next[k]) !== JSON.stringify(this.#launched[k]),
      );
      if (changed.length > 0) this.#opts.log?.info("restarting with changed settings", { changed });
      return next;
    } catch (e) {
      this.#opts.log?.error("the saved settings could not be read; restarting with the same ones", {
        code: codeOf(e),
        error: messageOf(e),
      });
      return this.#launched;
    }
  }

  /** Closes the node (after a restart under way). Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#restarting !== null) await this.#restarting;
      const node = this.#node;
      this.#node = null;
      await node?.close();
    })();
    return this.#closing;
  }
}
