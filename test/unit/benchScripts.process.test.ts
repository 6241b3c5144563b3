/**
 * Every benchmark of test/bench/ still runs: each is started as
 * `npm run bench -- <name>` would start it, at a tiny size (the
 * WEFT_BENCH_* knobs), and must exit 0 and print its figures as
 * `BENCH <name> <metric>=<number> [unit]` lines, the metrics issues ask for
 * included. No figure is judged here: speed is measured by the benchmarks
 * themselves, on a quiet machine.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const benchDir = join(root, "test", "bench");
const names = readdirSync(benchDir)
  .filter((f) => f.endsWith(".bench.ts"))
  .map((f) => f.slice(0, -".bench.ts".length))
  .sort();

/** The figures the issues name, per benchmark (comparison baselines included). */
const REQUIRED: Record<string, readonly string[]> = {
  mining: ["nonces_per_s_per_thread", "node_crypto_blake2s_per_s"],
  headers: [
    "pages_per_s",
    "raw_pages_per_s",
    "branch_pages_per_s",
    "block_pages_per_s",
    "raw_block_pages_per_s",
    "updates_fanout_ms",
  ],
  contract: ["fold_per_s", "fold_ts_per_s", "format_per_s", "format_ts_per_s", "object_per_s"],
  exec: [
    "transfers_per_s",
    "local_rps",
    "bare_rps",
    "local_worker_rps",
    "health_p99_ms_under_load",
  ],
  backup: ["blocks_s_per_gb", "state_s_per_gb"],
  startup: ["cli_help_ms", "node_ready_ms"],
  hostile: ["max_us_per_gas"],
  storage: [
    "bytes_per_tx",
    "stored_bytes_per_tx",
    "state_bytes_per_block",
    "state_row_mb_compacted",
    "mempool_adds_per_s",
    "rss_mb_after_10k_mined",
  ],
  // rss_growth_second_half_pct is printed too, but may be zero or negative.
  soak: ["blocks", "rss_mb_mid", "rss_mb_end", "health_p99_ms", "health_requests"],
  index: ["blocks_per_s", "txs_per_s", "search_ms", "account_page_ms"],
  wallet: [
    "unlock_ms",
    "unlock_cpu_ms",
    "balances_ms",
    "first_paint_after_unlock_ms",
    "balances_painted_ms",
  ],
  sync: [
    "blocks_per_s",
    "cpu_blocks_per_s",
    "propagation_ms",
    "full_blocks_per_s",
    "full_txs_per_s",
  ],
  // rss_growth_mb_under_huge_bodies is printed too, but may be zero at the tiny size.
  "p2p-hostile": ["honest_sync_baseline_s", "honest_sync_under_attack_s"],
};

/** Benchmarks whose lines carry another name than their file's, as their issue asks. */
const PRINTS_AS: Record<string, string> = { "p2p-hostile": "p2p" };

/**
 * Benchmarks that may take longer at the tiny size (ms): wallet builds the UI when its
 * inputs changed and starts Chromium.
 */
const SLOW: Record<string, number> = { wallet: 300_000 };

const TINY = {
  WEFT_BENCH_SCALE: "0.05",
  WEFT_BENCH_SECONDS: "0.2",
  WEFT_BENCH_HEIGHT: "30",
  WEFT_BENCH_BACKUP_MB: "2",
  WEFT_BENCH_BLOCKS: "2",
  WEFT_BENCH_ROUNDS: "1",
  WEFT_BENCH_CONNECTIONS: "2",
  WEFT_BENCH_INDEX_TXS: "2000",
  WEFT_BENCH_MINED: "20",
  WEFT_BENCH_SOAK_SECONDS: "3",
  WEFT_BENCH_SUBSCRIBERS: "20",
};

function runBench(name: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(benchDir, "run.ts"), name], {
      cwd: root,
      env: { ...process.env, ...TINY },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

const LINE = /^BENCH (\S+) ([a-z0-9_]+)=(-?[0-9]+(?:\.[0-9]+)?)(?: (\S+))?$/;

describe("[bench] every benchmark runs and prints BENCH lines", () => {
  it("finds the benchmarks the issues ask for", () => {
    for (const name of Object.keys(REQUIRED)) expect(names).toContain(name);
  });

  for (const name of names) {
    it(
      `${name}`,
      async () => {
        const { code, out, err } = await runBench(name);
        expect(code, err).toBe(0);
        const lines = out.split("\n").filter((l) => l.startsWith("BENCH"));
        expect(lines.length).toBeGreaterThan(0);
        const metrics = new Map<string, number>();
        for (const l of lines) {
          const m = LINE.exec(l);
          expect(m, l).not.toBeNull();
          expect(m?.[1], l).toBe(PRINTS_AS[name] ?? name);
          metrics.set(m?.[2] as string, Number(m?.[3]));
        }
        for (const metric of REQUIRED[name] ?? []) {
          expect(metrics.has(metric), `${name} prints ${metric}`).toBe(true);
          expect(metrics.get(metric), `${name} ${metric}`).toBeGreaterThan(0);
        }
      },
      SLOW[name] ?? 120_000,
    );
  }
});
