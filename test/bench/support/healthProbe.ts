/**
 * Responsiveness probe for benchmarks, run in its own process: GETs a URL
 * (the node's /health-check) one request at a time, every INTERVAL ms, for
 * SECONDS, and prints one JSON line `{"count": n, "errors": e, "p50": ms,
 * "p99": ms, "max": ms}` of the response times.
 *
 * Usage: node --import tsx healthProbe.ts URL SECONDS INTERVAL_MS
 */
import { Agent, get } from "node:http";

const [url, secondsText, intervalText] = process.argv.slice(2);
if (url === undefined) {
  console.error("usage: healthProbe.ts URL SECONDS INTERVAL_MS");
  process.exit(2);
}
const seconds = Number(secondsText ?? "3");
const intervalMs = Number(intervalText ?? "10");
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const times: number[] = [];
let errors = 0;

function one(): Promise<void> {
  const start = performance.now();
  return new Promise((resolve) => {
    const req = get(url as string, { agent }, (res) => {
      res.on("data", () => undefined);
      res.on("end", () => {
        if (res.statusCode === 200) times.push(performance.now() - start);
        else errors++;
        resolve();
      });
    });
    req.on("error", () => {
      errors++;
      resolve();
    });
  });
}

const end = performance.now() + seconds * 1000;
while (performance.now() < end) {
  await one();
  await new Promise((r) => setTimeout(r, intervalMs));
}
agent.destroy();
const sorted = [...times].sort((a, b) => a - b);
const at = (q: number): number =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number);
console.log(
  JSON.stringify({
    count: sorted.length,
    errors,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted.at(-1) ?? Number.NaN,
  }),
);
