/**
 * `weft node` as a child process for the multi-node tests: a data folder of
 * its own, port 0 (a free port), loopback; the base URL read from its first
 * line of output; its standard error kept for assertions; killed by `stop()`
 * (SIGTERM, then SIGKILL if it does not exit). `waitFor` polls a condition
 * without asserting on time (generous limits only stop a hung test).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const bin = resolve(import.meta.dirname, "..", "..", "bin", "weft.js");

/** A `k:` account of dev key 0 (any `k:` account is a valid reward account). */
export const MINER_A = "k:368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca";

export type NodeProcess = {
  readonly child: ChildProcess;
  readonly dataDir: string;
  /** `http://127.0.0.1:PORT/ledger/0.0/test-singleton` */
  readonly base: string;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** `127.0.0.1:PORT` */
  readonly address: string;
  stderr(): string;
  stop(): Promise<void>;
  /** `GET /cut`. */
  cut(): Promise<{ height: number; hashes: Record<string, { height: number; hash: string }> }>;
  /** A call to `/app/api/*` with the app token. */
  app(path: string, init?: { method?: string; body?: unknown }): Promise<Response>;
};

/** A failure `waitFor` does not retry. */
export class Fatal extends Error {}

export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  limitMs = 120_000,
): Promise<T> {
  const end = Date.now() + limitMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (e) {
      if (e instanceof Fatal) throw e;
      last = e;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`gave up waiting for ${what}${last === undefined ? "" : `: ${String(last)}`}`);
}

export async function startNode(
  args: readonly string[] = [],
  dataDir = mkdtempSync(join(tmpdir(), "weft-p2p-")),
): Promise<NodeProcess> {
  const child = spawn(
    process.execPath,
    [bin, "node", "--network", "test-singleton", "--data-dir", dataDir, "--port", "0", ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<void>((r) => child.on("exit", () => r()));
  try {
    await waitFor(
      "the node's URL",
      async () => {
        if (child.exitCode !== null) throw new Fatal(`weft node exited: ${err}`);
        return out.includes("\n") ? true : undefined;
      },
      // Generous: on a loaded machine tsx compiles the sources slowly.
      180_000,
    );
  } catch (e) {
    child.kill("SIGKILL");
    throw e;
  }
  const base = out.split("\n")[0] as string;
  const origin = new URL(base).origin;
  const tokenFile = join(dataDir, "test-singleton", "app-token");
  return {
    child,
    dataDir,
    base,
    origin,
    address: new URL(base).host,
    stderr: () => err,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
    async cut() {
      return (await (await fetch(`${base}/cut`)).json()) as Awaited<ReturnType<NodeProcess["cut"]>>;
    },
    app(path, init = {}) {
      return fetch(`${origin}/app/api/${path}`, {
        method: init.method ?? "GET",
        headers: {
          "x-weft-app-token": readFileSync(tokenFile, "utf8").trim(),
          ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    },
  };
}
