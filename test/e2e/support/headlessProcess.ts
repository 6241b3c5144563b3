/**
 * `npm start -- --headless` as a real process for end-to-end tests: runs the compiled
 * launcher, `node dist/electron/launch.js --headless …` as `npm start` does (compiled first
 * where needed, as `npm run build:node`), in its own process group, waits for the
 * addresses it prints, and stops it with a signal (checking that it exits by
 * itself) or, if a test fails half-way, kills the whole group so nothing is left
 * running.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runStep } from "../../../build/buildSteps.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const launcher = fileURLToPath(new URL("../../../dist/electron/launch.js", import.meta.url));

/** Brings the compiled launcher and node up to date (a no-op when they are). */
export async function compileLauncher(): Promise<void> {
  await runStep(repoRoot, "node", false);
}

export type Exit = { readonly code: number | null; readonly signal: NodeJS.Signals | null };

export type HeadlessProcess = {
  /** `http://127.0.0.1:PORT/app/`: the app's address (without a code). */
  readonly appUrl: string;
  /**
   * `http://127.0.0.1:PORT/app/?code=…` as printed: opens the app once in a browser (a new
   * one: `weft app-url`, cli/appUrl.ts's `requestAppUrl`).
   */
  readonly codeUrl: string;
  /** `http://127.0.0.1:PORT/ledger/0.0/{network}` as printed. */
  readonly baseUrl: string;
  readonly origin: string;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` to the launcher and waits until it exits by itself (at most `timeoutMs`). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<Exit>;
  /** Kills the process group if it is still running (test clean-up). */
  kill(): void;
};

function exited(child: ChildProcess): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((done) => child.once("exit", (code, signal) => done({ code, signal })));
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Starts the launcher with `args` after `--headless` (returns at once). */
export function runLauncher(args: readonly string[]): {
  child: ChildProcess;
  output: () => string;
} {
  const child = spawn(process.execPath, [launcher, "--headless", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  let text = "";
  child.stdout?.setEncoding("utf8").on("data", (c: string) => {
    text += c;
  });
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    text += c;
  });
  return { child, output: () => text };
}

/** Waits until the launcher exits (at most `timeoutMs`, then kills it). */
export async function waitForExit(
  child: ChildProcess,
  timeoutMs: number,
): Promise<Exit | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((done) => {
    timer = setTimeout(() => done("timeout"), timeoutMs);
  });
  const result = await Promise.race([exited(child), timeout]);
  clearTimeout(timer);
  if (result === "timeout") killGroup(child);
  return result;
}

export async function startHeadless(
  args: readonly string[],
  timeoutMs = 45_000,
): Promise<HeadlessProcess> {
  const { child, output } = runLauncher(args);
  const started = Date.now();
  for (;;) {
    const ui = /UI:\s+((http:\/\/\S+\/app\/)\?code=[A-Za-z0-9_-]+)/.exec(output());
    const api = /API:\s+(http:\/\/\S+)/.exec(output());
    if (ui?.[1] !== undefined && ui[2] !== undefined && api?.[1] !== undefined) {
      const appUrl = ui[2];
      return {
        appUrl,
        codeUrl: ui[1],
        baseUrl: api[1],
        origin: new URL(appUrl).origin,
        output,
        async stop(signal = "SIGTERM", stopTimeoutMs = 15_000) {
          child.kill(signal);
          const r = await waitForExit(child, stopTimeoutMs);
          if (r === "timeout") {
            throw new Error(`the launcher did not exit within ${stopTimeoutMs} ms:\n${output()}`);
          }
          return r;
        },
        kill: () => killGroup(child),
      };
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the launcher exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    if (Date.now() - started > timeoutMs) {
      killGroup(child);
      throw new Error(`the launcher printed no address within ${timeoutMs} ms:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
