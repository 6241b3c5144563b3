/**
 * The one place the desktop shell reaches into the node: starts it through
 * `createNode(options)` from src-node/node.ts and hands back a small handle. Unit tests
 * replace this module (vi.mock), so nothing else in electron/ imports src-node/node.ts.
 *
 * The options and the handle are the interface written down in docs/desktop.md §2.
 *
 * Until src-node/node.ts exists, the module is loaded by a computed specifier (which
 * TypeScript does not resolve) and its export is checked at run time; once it lands, this
 * becomes a static `import { createNode } from "../src-node/node.ts"` and the check below
 * turns into a compile-time one.
 * @module
 */
import { DesktopError, DesktopErrorCode } from "./errors.ts";

/** Networks the node knows (docs/desktop.md). */
export type NodeNetwork = "development" | "testnet04" | "mainnet01" | "test-singleton";

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
};

/** What `createNode` resolves to once the node listens. */
export type HostedNode = {
  /** `http://HOST:PORT/ledger/0.0/{networkId}` */
  readonly baseUrl: string;
  /** `http://HOST:PORT/app/`: the built renderer, served by the node. */
  readonly appUrl: string;
  /** Stops mining, the HTTP server and the databases; resolves when all are closed. */
  close(): Promise<void>;
};

/** Where createNode lives, relative to this file. Computed so TypeScript leaves it alone. */
const nodeModuleUrl = new URL(["..", "src-node", "node.ts"].join("/"), import.meta.url).href;

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null;
}

function invalid(reason: string): DesktopError {
  return new DesktopError(
    { code: DesktopErrorCode.NodeModuleInvalid, reason },
    `The node module does not match the desktop interface: ${reason}.`,
  );
}

function isHttpUrl(s: unknown): s is string {
  if (typeof s !== "string") return false;
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** Checks what createNode resolved to against `HostedNode`. */
export function parseHostedNode(raw: unknown): HostedNode {
  if (!isRecord(raw)) throw invalid("createNode did not resolve to an object");
  const { baseUrl, appUrl, close } = raw;
  if (!isHttpUrl(baseUrl)) throw invalid("baseUrl is not an http URL");
  if (!isHttpUrl(appUrl)) throw invalid("appUrl is not an http URL");
  if (typeof close !== "function") throw invalid("close is not a function");
  return {
    baseUrl,
    appUrl,
    close: async () => {
      await close.call(raw);
    },
  };
}

/**
 * Starts the node.
 * @throws DesktopError `DESKTOP_NODE_MODULE_INVALID` when src-node/node.ts cannot be loaded
 *   or does not export `createNode`; whatever `createNode` rejects with (a coded NodeError)
 *   when the node fails to start.
 */
export async function startNode(options: HostedNodeOptions): Promise<HostedNode> {
  let mod: unknown;
  try {
    mod = await import(nodeModuleUrl);
  } catch (e) {
    throw invalid(`cannot load src-node/node.ts (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isRecord(mod) || typeof mod.createNode !== "function") {
    throw invalid("src-node/node.ts has no createNode export");
  }
  const handle: unknown = await mod.createNode(options);
  return parseHostedNode(handle);
}
