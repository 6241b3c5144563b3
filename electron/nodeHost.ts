/**
 * The one place the desktop shell reaches into the node: starts it through
 * `createNode(options)` from src-node/node.ts and hands back a small handle. Unit tests
 * replace this module (vi.mock), so nothing else in electron/ imports src-node/node.ts.
 *
 * The options and the handle are the interface written down in docs/desktop.md §2; the
 * assignments below make a drift on either side a type error.
 * @module
 */
import { type CreateNodeOptions, createNode } from "../src-node/node.ts";

/** When the node could not listen because another program has its port: the port and flag. */
export { portInUse } from "../src-node/node.ts";

/** Networks the node knows (docs/desktop.md). */
export type NodeNetwork = "development" | "testnet04" | "mainnet01" | "test-singleton";

/** What a restart asks of the host (src-node/api/nodeRestart.ts; docs/desktop.md §3.4). */
export type NodeRestartRequest = {
  readonly reason: "restart" | "restore";
  /** Runs while the node is stopped, before it starts again. */
  readonly whileStopped?: (() => Promise<void>) | undefined;
};

/** What the node tells its host of a dapp's signing request that starts waiting (docs/dapp-signing.md). */
export type SignRequestNotice = {
  readonly id: string;
  readonly kind: "sign" | "quicksign";
  /** The requesting page's origin; null for a program on this computer. */
  readonly origin: string | null;
};

/** Structured log sink the node may write to (the shell's log file). */
export type NodeLogger = {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

export type NodeMiningOptions = {
  readonly enabled: boolean;
  readonly threads?: number | undefined;
  readonly account?: string | undefined;
  /** Mine on demand (docs/mining.md); `auto`: on for development networks without an account. */
  readonly onDemand?: boolean | "auto" | undefined;
  /** Serve the public mining API. */
  readonly apiEnabled?: boolean | undefined;
};

/** What the desktop passes to `createNode`. */
export type HostedNodeOptions = {
  readonly network: NodeNetwork;
  /** Absolute; the node keeps each network's databases under it. */
  readonly dataDir: string;
  /** Default 127.0.0.1. */
  readonly host?: string | undefined;
  /** Default 1848; 0 = any free port. */
  readonly port?: number | undefined;
  readonly mining?: NodeMiningOptions | undefined;
  /** better_sqlite3.node for this process's ABI (passed as better-sqlite3's nativeBinding). */
  readonly sqliteNativeBinding?: string | undefined;
  readonly logger?: NodeLogger | undefined;
  /** The file `logger` writes (shown on the Node page). */
  readonly logFile?: string | undefined;
  /** The public backup API (`--enable-backup-api`) and its folder. */
  readonly backup?: { readonly apiEnabled: boolean; readonly directory: string } | undefined;
  /** The built UI to serve under /app/ (default: the node's, `dist/renderer`; tests pass their own). */
  readonly rendererDir?: string | undefined;
  /** The per-launch secret `/app/api/*` needs (default: the node makes one). */
  readonly appToken?: string | undefined;
  /** Whether a one-time code (`/app/?code=…`) is exchanged for the token as a cookie (default true; the desktop: false). */
  readonly appTokenCookie?: boolean | undefined;
  /** Called by the node's app routes to be restarted (electron/nodeSupervisor.ts passes it). */
  readonly restart?: ((request: NodeRestartRequest) => void) | undefined;
  /** Called when a dapp's signing request waits for the user (the desktop brings its window to the front). */
  readonly onSignRequest?: ((request: SignRequestNotice) => void) | undefined;
};

/** What `createNode` resolves to once the node listens. */
export type HostedNode = {
  /** `http://HOST:PORT/ledger/0.0/{networkId}` */
  readonly baseUrl: string;
  /** `http://HOST:PORT/app/`: the built renderer, served by the node. */
  readonly appUrl: string;
  /**
   * A one-time address, `http://127.0.0.1:PORT/app/?code=…`, that opens the app once in a
   * browser (the headless launcher prints it; the desktop's window needs none).
   */
  appCodeUrl(): string;
  /** `weft app-url --data-dir … --network …`: the command that prints a new such address. */
  readonly appUrlCommandLine: string;
  /** The launch's app token (the one passed, or the node's own): a restart keeps it. */
  readonly appToken: string;
  /** Stops mining, the HTTP server and the databases; resolves when all are closed. */
  close(): Promise<void>;
};

/**
 * Starts the node; resolves once it listens.
 * @throws whatever `createNode` rejects with: a coded NodeError (bad option, database that
 *   cannot be opened, address in use).
 */
export async function startNode(options: HostedNodeOptions): Promise<HostedNode> {
  const input: CreateNodeOptions = options;
  const node: HostedNode = await createNode(input);
  return node;
}
