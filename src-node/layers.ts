/**
 * The allowed imports between the areas of the code, in dependency order: the one
 * machine-readable form of ARCHITECTURE.md's area table ("may import" column).
 *
 * An area is a folder of `src-node/` (`chain` is `src-node/chain/`), the composition root
 * `node.ts`, the desktop shell `electron` (`electron/`) or the UI `renderer`
 * (`renderer/src/`). A permission names an area, or one file by its path from the
 * repository's root when the area may import that file and nothing else of its area.
 * Imports inside an area are free.
 *
 * The table is the code's import graph as it is, not a wish list: test/unit/layering.test.ts
 * fails on an import the table does not allow and on a permission no import uses (so the
 * table, and the document checked against it, cannot drift into rules the code no longer
 * needs), and test/unit/architectureMap.test.ts fails when ARCHITECTURE.md's column differs.
 * Every area imports only areas listed before it. A new edge is a design decision: add it
 * here and in ARCHITECTURE.md in the same commit, and say why in the message.
 * @module
 */

export const LAYERS = {
  /** `NodeError`, the coded error base. */
  errors: [],
  /** How every worker thread of the node starts. */
  threads: [],
  /** What the running node's services share: the lifecycle, the catching-up status, the recent log. */
  runtime: [],
  /** Browser-safe: the renderer imports it. The wallet's stored file formats, one parser each. */
  walletFiles: ["errors"],
  encoding: ["errors"],
  /** Browser-safe: the renderer imports it (and, through it, errors). */
  command: ["errors"],
  /**
   * Browser-safe: the renderer imports it. The app API's routes, shared by the node and the UI;
   * the wallet's file routes take the files' own types.
   */
  appContract: ["walletFiles"],
  crypto: ["errors", "encoding"],
  chain: ["errors", "encoding", "crypto"],
  /** Exact JSON is the command model's. */
  contract: ["errors", "encoding", "crypto", "command"],
  config: ["errors", "chain"],
  /** The contract language's storage interface is implemented here, over SQLite. */
  store: ["errors", "encoding", "chain", "contract"],
  exec: ["errors", "threads", "encoding", "crypto", "command", "chain", "contract", "store"],
  /** The genesis commands are built and their results written as exec's. */
  genesis: ["errors", "encoding", "crypto", "command", "chain", "contract", "exec"],
  mempool: ["errors", "encoding", "command", "chain", "contract", "store", "exec"],
  /** Mining knows no mempool or execution: the node hands it a payload provider. */
  mining: ["errors", "threads", "encoding", "crypto", "chain"],
  backup: ["errors", "chain", "store"],
  /** The explorer shows pending commands from the mempool. */
  index: [
    "errors",
    "runtime",
    "encoding",
    "command",
    "chain",
    "contract",
    "store",
    "exec",
    "mempool",
  ],
  /** Gossip goes through the command service; the built-in miner is held while syncing. */
  p2p: [
    "errors",
    "runtime",
    "encoding",
    "command",
    "chain",
    "contract",
    "store",
    "exec",
    "mempool",
    "mining",
  ],
  api: [
    "errors",
    "runtime",
    "walletFiles",
    "encoding",
    "command",
    "appContract",
    "chain",
    "store",
    "exec",
    "mempool",
    "mining",
    "backup",
    "index",
    "p2p",
  ],
  "node.ts": [
    "errors",
    "runtime",
    "chain",
    "config",
    "store",
    "exec",
    "genesis",
    "mempool",
    "mining",
    "backup",
    "index",
    "p2p",
    "api",
  ],
  cli: [
    "errors",
    "encoding",
    "crypto",
    "command",
    "contract",
    "config",
    "exec",
    "mining",
    "backup",
    "node.ts",
  ],
  /** The shell's errors are `NodeError`s; only electron/nodeHost.ts imports node.ts. */
  electron: ["errors", "node.ts"],
  /**
   * Only browser-safe code: the command model, the app API's routes, the shared result type,
   * the test keys' data module, the bridge's contract.
   */
  renderer: [
    "command",
    "appContract",
    "src-node/errors/result.ts",
    "src-node/genesis/devAccountKeys.ts",
    "electron/ipc/contract.ts",
    // The wallet's stored files, read with the parsers the node checks them with.
    "walletFiles",
  ],
} as const satisfies Record<string, readonly string[]>;

export type Area = keyof typeof LAYERS;

/** Areas in dependency order. */
export const AREAS = Object.keys(LAYERS) as Area[];

/**
 * The area a file belongs to (`path` from the repository's root, `/`-separated), or
 * undefined for a file of none (this table itself, configuration beside the sources).
 */
export function areaOf(path: string): Area | undefined {
  const parts = path.split("/");
  const [top, second] = parts;
  if (top === "electron") return "electron";
  if (top === "renderer") return second === "src" ? "renderer" : undefined;
  if (top !== "src-node" || second === undefined) return undefined;
  if (parts.length === 2) return second === "node.ts" ? "node.ts" : undefined;
  return second in LAYERS ? (second as Area) : undefined;
}

/** Whether a file of `from` may import `path` (from the repository's root). */
export function mayImport(from: Area, path: string): boolean {
  const to = areaOf(path);
  if (to === from) return true;
  const allowed: readonly string[] = LAYERS[from];
  return allowed.includes(path) || (to !== undefined && allowed.includes(to));
}
