/**
 * A small HTTP load generator for benchmarks, run in its own process (so it
 * does not share the server's event loop): N keep-alive connections each
 * POST the same body back to back for a fixed time; prints one JSON line
 * `{"requests": n, "errors": e, "seconds": s}`.
 *
 * Usage: node --import tsx loadGenerator.ts URL BODY_FILE CONNECTIONS SECONDS
 */
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";

const [url, bodyFile, connectionsText, secondsText] = process.argv.slice(2);
if (url === undefined || bodyFile === undefined) {
  console.error("usage: loadGenerator.ts URL BODY_FILE CONNECTIONS SECONDS");
  process.exit(2);
}
const body = readFileSync(bodyFile);
const connections = Number(connectionsText ?? "16");
const seconds = Number(secondsText ?? "3");
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const target = new URL(url);
let requests = 0;
let errors = 0;
let running = true;

function one(): Promise<void> {
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": body.length },
      },
      (res) => {
        res.on("data", () => undefined);
        res.on("end", () => {
          if (res.statusCode === 200) requests++;
          else errors++;
          resolve();
        });
      },
    );
    req.on("error", () => {
      errors++;
      resolve();
    });
    req.end(body);
  });
}

async function worker(): Promise<void> {
  while (running) await one();
}

// Warm up briefly, then count.
const warm = Array.from({ length: connections }, worker);
await new Promise((r) => setTimeout(r, 300));
requests = 0;
errors = 0;
const start = performance.now();
await new Promise((r) => setTimeout(r, seconds * 1000));
running = false;
const elapsed = (performance.now() - start) / 1000;
const counted = requests;
await Promise.all(warm);
agent.destroy();
console.log(JSON.stringify({ requests: counted, errors, seconds: elapsed }));
