/**
 * Start-up of the compiled `weft` command (compiled first if needed, as `npm run build:node`):
 * - `cli_help_ms`: `node bin/weft.js help`, process start to exit, median of
 *   WEFT_BENCH_ROUNDS runs (default 10); baselines `node_bare_ms` (`node -e 0`) and
 *   `cli_help_tsx_ms` (the same through tsx, as before the compile step; fewer runs).
 * - `node_ready_ms`: `node bin/weft.js node --network development --port 0` on an empty data
 *   folder, process start to the printed base URL (printed once it listens), median of
 *   min(3, rounds) runs; `node_restart_ready_ms`: the same on the folder a first run left.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runStep } from "../../build/buildSteps.ts";

const repo = resolve(import.meta.dirname, "..", "..");
const bin = join(repo, "bin", "weft.js");
const rounds = Math.max(1, Number(process.env.WEFT_BENCH_ROUNDS ?? "10"));

function report(metric: string, value: number, unit: string): void {
  console.log(`BENCH startup ${metric}=${Math.round(value)} ${unit}`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** Milliseconds from spawning `args` to its exit (which must be 0). */
function timeToExit(args: string[]): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("error", fail);
    child.on("exit", (code) => {
      const ms = performance.now() - started;
      if (code === 0) done(ms);
      else fail(new Error(`${args.join(" ")} exited ${code}: ${err}`));
    });
  });
}

/** Milliseconds from spawning a node to its first stdout line; the node is then stopped. */
function timeToListening(dataDir: string): Promise<number> {
  return new Promise((done, fail) => {
    const args = [bin, "node", "--network", "development", "--data-dir", dataDir, "--port", "0"];
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let ms = 0;
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (ms === 0 && out.includes("\n")) {
        ms = performance.now() - started;
        child.kill("SIGTERM");
      }
    });
    child.on("error", fail);
    child.on("exit", (code) => {
      if (ms > 0 && code === 0) done(ms);
      else fail(new Error(`weft node exited ${code} before listening: ${err}`));
    });
  });
}

async function series(n: number, run: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await run());
  return out;
}

await runStep(repo, "node", false);

report("node_bare_ms", median(await series(rounds, () => timeToExit(["-e", "0"]))), "ms");
report("cli_help_ms", median(await series(rounds, () => timeToExit([bin, "help"]))), "ms");
const tsxRounds = Math.min(3, rounds);
report(
  "cli_help_tsx_ms",
  median(
    await series(tsxRounds, () =>
      timeToExit(["--import", "tsx", join(repo, "test", "bench", "support", "cliHelp.ts")]),
    ),
  ),
  "ms",
);

const nodeRounds = Math.min(3, rounds);
const dirs: string[] = [];
try {
  const fresh: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < nodeRounds; i++) {
    const dir = mkdtempSync(join(tmpdir(), "weft-bench-startup-"));
    dirs.push(dir);
    fresh.push(await timeToListening(dir));
    again.push(await timeToListening(dir));
  }
  report("node_ready_ms", median(fresh), "ms");
  report("node_restart_ready_ms", median(again), "ms");
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
