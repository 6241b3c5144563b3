/**
 * Starts the responsiveness probe (healthProbe.ts) in its own process, so that its timings are
 * the node's and not this process's event loop, and resolves to its figures; rejects when a
 * request failed or none was made.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

export type HealthProbeResult = {
  readonly count: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
};

/** GETs `url` one request at a time every `intervalMs` for `seconds`. */
export function runHealthProbe(
  url: string,
  seconds: number,
  intervalMs: number,
): Promise<HealthProbeResult> {
  const script = join(import.meta.dirname, "healthProbe.ts");
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", script, url, String(seconds), String(intervalMs)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`health probe exited with ${code}`));
      const r = JSON.parse(out.trim()) as HealthProbeResult;
      if (r.errors > 0 || r.count === 0) return reject(new Error(`health probe: ${out.trim()}`));
      resolve(r);
    });
  });
}
