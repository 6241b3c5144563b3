/**
 * `npm run bench -- soak`: whether the node's memory levels off and it stays responsive
 * under a steady load (issue 35 finding 5). A node (test-singleton, in process, listening on
 * loopback, one execution worker) mines block after block on every chain while coin transfers
 * arrive over HTTP at `/send` at about 20 per second, and a probe in its own process GETs
 * `/health-check` every 100 ms; memory (`process.memoryUsage()`, V8's heap after a collection)
 * is sampled every few seconds.
 * - `rss_growth_second_half_pct`: RSS growth over the second half of the run, in percent of
 *   the RSS at its middle (goal ≤ 5; also printed under its older name
 *   `second_half_growth_pct`); `heap_second_half_growth_pct` the same for the V8 heap in use
 *   after a collection.
 * - `health_p99_ms` (goal ≤ 100), `health_p50_ms`: `/health-check`'s response times.
 * - `rss_mb_start`, `rss_mb_mid`, `rss_mb_end`, `blocks`, `transfers`.
 * Runs `WEFT_BENCH_SOAK_SECONDS` (default 600); `WEFT_BENCH_SOAK_VERBOSE=1`
 * prints every sample to stderr.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { extendableChains } from "../../src-node/chain/cutExtension.ts";
import { signedCommand, transferCaps } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode } from "../support/testNode.ts";
import { runHealthProbe } from "./support/runHealthProbe.ts";

const SECONDS = Number(process.env.WEFT_BENCH_SOAK_SECONDS ?? "600");
const VERBOSE = process.env.WEFT_BENCH_SOAK_VERBOSE === "1";
const TRANSFERS_PER_S = 20;
const SAMPLE_MS = Math.max(200, Math.min(5000, (SECONDS * 1000) / 40));

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function report(metric: string, value: number, unit = ""): void {
  const v = Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
  console.log(`BENCH soak ${metric}=${v}${unit === "" ? "" : ` ${unit}`}`);
}

/** A signed coin transfer among sender00…sender08, as a client would send it. */
function transfer(chainId: number, n: number, i: number): unknown {
  const from = n % 9;
  const to = (from + 1 + (i % 7)) % 9;
  const sender = `sender0${from}`;
  const receiver = `sender0${to}`;
  return JSON.parse(
    JSON.stringify(
      signedCommand({
        code: `(coin.transfer "${sender}" "${receiver}" 0.01)`,
        sender,
        chainId,
        gasLimit: 600,
        signers: [{ key: from, caps: transferCaps(sender, receiver, "0.01") }],
        nonce: `soak-${process.pid}-${n}`,
      }),
    ),
  );
}

type Sample = { t: number; rss: number; heap: number; external: number };

function sample(t: number): Sample {
  gc();
  const m = process.memoryUsage();
  return { t, rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20, external: m.external / 2 ** 20 };
}

const t = await openTestNode({ executionWorkers: 1, listen: true });
const { node } = t;
try {
  const probe = runHealthProbe(`${node.origin}/health-check`, SECONDS, 100);
  const samples: Sample[] = [];
  let blocks = 0;
  let transfers = 0;
  let sent = 0;
  const start = performance.now();
  let nextSample = start;
  let batch = 0;
  for (;;) {
    const now = performance.now();
    if (now >= nextSample) {
      const s = sample((now - start) / 1000);
      samples.push(s);
      if (VERBOSE)
        console.error(
          `soak t=${s.t.toFixed(0)}s rss=${s.rss.toFixed(1)} heap=${s.heap.toFixed(1)} ext=${s.external.toFixed(1)} blocks=${blocks} transfers=${transfers}`,
        );
      nextSample += SAMPLE_MS;
    }
    if (now - start >= SECONDS * 1000) break;
    // Transfers at about 20 a second, in small batches on the chain mined next.
    const cut = node.blocks.cut();
    const chainId = extendableChains(cut, node.version, (h) =>
      node.blocks.header(h.parent),
    )[0] as number;
    const due = Math.floor(((now - start) / 1000) * TRANSFERS_PER_S) - sent;
    if (due > 0) {
      const cmds = Array.from({ length: Math.min(due, 50) }, (_, i) =>
        transfer(chainId, batch++, i),
      );
      // As a client sends them; a full mempool or a refused batch is not counted (the soak
      // is about memory and answers, not acceptance).
      const r = await fetch(`${node.baseUrl}/chain/${chainId}/pact/api/v1/send`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ cmds }),
      });
      await r.arrayBuffer();
      if (r.ok) transfers += cmds.length;
      sent += due;
    }
    await mineOn(node, chainId);
    blocks++;
    await new Promise<void>((r) => setImmediate(r));
  }
  const first = samples[0] as Sample;
  const last = samples[samples.length - 1] as Sample;
  const mid = samples[Math.floor((samples.length - 1) / 2)] as Sample;
  report("blocks", blocks);
  report("transfers", transfers);
  report("rss_mb_start", first.rss, "MB");
  report("rss_mb_mid", mid.rss, "MB");
  report("rss_mb_end", last.rss, "MB");
  report("heap_mb_end", last.heap, "MB");
  const growth = ((last.rss - mid.rss) / mid.rss) * 100;
  report("rss_growth_second_half_pct", growth, "%");
  report("second_half_growth_pct", growth, "%");
  report("heap_second_half_growth_pct", ((last.heap - mid.heap) / mid.heap) * 100, "%");
  const health = await probe;
  report("health_p99_ms", health.p99, "ms");
  report("health_p50_ms", health.p50, "ms");
  report("health_requests", health.count);
} finally {
  await t.cleanup();
}
