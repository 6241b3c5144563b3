/**
 * `npm run bench -- exec`:
 * - coin transfers executed per second inside block execution: blocks of
 *   signed TRANSFER-scoped transfers (built first, untimed) inserted into a
 *   test-singleton block database, which executes each block before
 *   accepting it (rules, buy gas, transfer, redeem gas, results, one SQLite
 *   transaction per block); one core. Two figures:
 *   `transfers_per_s`, the node's own path: the transfers came through
 *   /send's checks (signatures verified, cmd parsed: both remembered), the
 *   mempool and the node's payload, so validating the block verifies and
 *   parses nothing again; `transfers_cold_per_s`: a block none of whose
 *   commands this process has seen (re-execution after a restart, a
 *   block built elsewhere), so parsing and every signature are inside;
 * - /local requests per second for `(+ 1 2)` on a listening node, from a
 *   load generator in another process (keep-alive connections), and the same
 *   generator against a bare node:http handler answering a fixed JSON body,
 *   in the same run (the baseline). `local_rps` sends gas limit 2,500 (the
 *   wallets' usual small reads: run on the node's thread); `local_worker_rps`
 *   the same program with gas limit 100,000, above `INLINE_LOCAL_GAS_LIMIT`
 *   (what the wallet's account discovery sends), so each request makes the
 *   round trip to an execution worker.
 *
 * - responsiveness: the p99 response time of `/health-check` (a probe in
 *   another process, one request every 10 ms) on a listening node while
 *   /local is saturated with a heavier program by the load generator, with
 *   execution workers (`health_p99_ms_local_load`) and, as the baseline,
 *   on the node's thread (`health_p99_ms_local_load_in_process`); and while
 *   blocks of maximum gas (250 transfers, payloads built by the workers)
 *   are inserted back to back as mined blocks are (`health_p99_ms_block_exec`:
 *   `WeftNode.insertBlock`, executed in an execution worker first, the node's
 *   thread writing the rows, the explorer index following in steps). The
 *   transfers are signed before the probe starts (`WEFT_BENCH_HEALTH_BLOCKS`
 *   blocks' worth, default 2 × SECONDS + 2): signing them is the
 *   benchmark's work, on the node's thread since it runs in its process.
 *   `health_p99_ms_under_load` is the larger of the two with workers.
 *
 * Fairness: transfers are timed after warm-up blocks (the JIT's first
 * compilations are not block execution); /local is loaded once, uncounted,
 * before its rounds (execution worker threads load their modules then); /local and the bare handler are
 * measured alternately for several rounds with the same generator,
 * connections, warm-up and duration, and the medians are reported (the
 * machine's other load varies between rounds); each part runs in a fresh
 * process of its own. The load average is printed alongside. Environment:
 * `WEFT_BENCH_SECONDS`, `WEFT_BENCH_CONNECTIONS`, `WEFT_BENCH_BLOCKS`,
 * `WEFT_BENCH_ROUNDS`, `WEFT_BENCH_ONLY` (`transfers`, `local` or `health`),
 * `WEFT_BENCH_EXEC_WORKERS` (the /local part's execution workers, default 2;
 * 0 runs /local on the node's thread, for comparison),
 * `WEFT_BENCH_HEALTH_BLOCKS`.
 *
 * Prints `BENCH exec transfers_per_s=<n> 1/s`,
 * `BENCH exec transfers_cold_per_s=<n> 1/s`, `BENCH exec local_rps=<n> 1/s`,
 * `BENCH exec bare_rps=<n> 1/s`, `BENCH exec local_vs_bare=<pct> %`,
 * `BENCH exec local_worker_rps=<n> 1/s`, `BENCH exec local_worker_vs_bare=<pct> %`,
 * `BENCH exec health_p99_ms_under_load=<ms> ms` (and its parts, above) and
 * `BENCH exec load_avg=<n>`.
 */
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import type { Cut } from "../../src-node/chain/cut.ts";
import {
  cutExtension,
  extendableChains,
  extendCut,
  type ParentLookup,
} from "../../src-node/chain/cutExtension.ts";
import type { NetworkVersion } from "../../src-node/chain/networkVersion.ts";
import { newBlockHeader } from "../../src-node/chain/newBlockHeader.ts";
import { createNode } from "../../src-node/node.ts";
import { MINER, openExecChain, signedCommand } from "../support/execChain.ts";
import { tempDir } from "../support/testNode.ts";
import { type HealthProbeResult, runHealthProbe } from "./support/runHealthProbe.ts";
import { PER_BLOCK, transferBlock } from "./support/transferBlock.ts";

const SECONDS = Number(process.env.WEFT_BENCH_SECONDS ?? "3");
const CONNECTIONS = Number(process.env.WEFT_BENCH_CONNECTIONS ?? "16");
const BLOCKS = Number(process.env.WEFT_BENCH_BLOCKS ?? "8");
/** Blocks executed before timing starts. */
const WARMUP_BLOCKS = 2;
const ROUNDS = Number(process.env.WEFT_BENCH_ROUNDS ?? "3");
/** Execution workers of the /local part's node (0: in process, as before workers). */
const EXEC_WORKERS = Number(process.env.WEFT_BENCH_EXEC_WORKERS ?? "2");
/** Blocks of transfers signed ahead for the health part (more than it inserts in SECONDS). */
const HEALTH_BLOCKS = Number(
  process.env.WEFT_BENCH_HEALTH_BLOCKS ?? String(Math.ceil(SECONDS * 2) + 2),
);
/** `transfers`, `local` or `health`: run only that part. */
const ONLY = process.env.WEFT_BENCH_ONLY ?? "";
/**
 * Transfers per second of block execution. `sent`: each transfer passes
 * /send's checks first (untimed); `cold`: the block is built on one chain
 * database and timed on a second one that has seen none of its commands.
 */
async function transfersPerSecond(mode: "sent" | "cold"): Promise<number> {
  const x = openExecChain();
  const cold = mode === "cold" ? openExecChain() : null;
  try {
    let executed = 0;
    let ms = 0;
    for (let b = 0; b < WARMUP_BLOCKS + BLOCKS; b++) {
      const chainId = extendableChains(x.blocks.cut(), x.version, (h) =>
        x.blocks.header(h.parent),
      )[0] as number;
      const candidates = transferBlock(chainId, b, mode);
      if (mode === "sent") {
        const nowS = Math.floor(Date.now() / 1000);
        for (const c of candidates) {
          const r = x.executor.checkSubmission(chainId, c.command, nowS);
          if (!r.ok) throw new Error(r.error[0]?.message);
        }
      }
      const block = x.nextBlock(chainId, candidates);
      const n = block.payload.transactions.length;
      if (n !== PER_BLOCK) throw new Error(`only ${n} of ${PER_BLOCK} transfers fit a block`);
      const timed = cold ?? x;
      const start = performance.now();
      timed.blocks.insertBlock(block);
      const elapsed = performance.now() - start;
      if (cold !== null) x.blocks.insertBlock(block);
      if (b < WARMUP_BLOCKS) continue;
      ms += elapsed;
      executed += n;
    }
    return executed / (ms / 1000);
  } finally {
    x.close();
    cold?.close();
  }
}

function runGenerator(url: string, body: string): Promise<number> {
  const dir = tempDir("weft-bench-load-");
  const file = join(dir, "body.json");
  writeFileSync(file, body);
  const script = join(import.meta.dirname, "support", "loadGenerator.ts");
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", script, url, file, String(CONNECTIONS), String(SECONDS)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      const r = JSON.parse(out.trim()) as { requests: number; errors: number; seconds: number };
      if (r.errors > 0) return reject(new Error(`${r.errors} failed requests`));
      resolve(r.requests / r.seconds);
    });
  });
}

/** A listening node and the URL of its /local. */
async function localServer(): Promise<{ url: string; close(): Promise<void> }> {
  const dataDir = tempDir("weft-bench-local-");
  const node = await createNode({
    network: "test-singleton",
    dataDir,
    port: 0,
    executionWorkers: EXEC_WORKERS,
  });
  return {
    url: `${node.baseUrl}/chain/0/pact/api/v1/local`,
    async close() {
      await node.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The baseline: a bare node:http handler that parses the body and answers a fixed JSON. */
async function bareServer(): Promise<{ url: string; close(): Promise<void> }> {
  const answer = Buffer.from('{"result":{"status":"success","data":3}}');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      JSON.parse(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200, { "content-type": "application/json", "content-length": answer.length });
      res.end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/local`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1
    ? (s[mid] as number)
    : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * The gas limit of the /local commands that go to an execution worker
 * (above `INLINE_LOCAL_GAS_LIMIT`): what the wallet's account discovery sends.
 */
const WORKER_LOCAL_GAS_LIMIT = 100_000;

/**
 * /local (gas limit 2,500: on the node's thread), /local with a gas limit
 * that sends it to a worker (same program), and the bare handler, in turn,
 * `ROUNDS` times each; the medians.
 */
async function localAndBare(): Promise<{ local: number; localWorker: number; bare: number }> {
  const body = JSON.stringify(signedCommand({ code: "(+ 1 2)" }));
  const workerBody = JSON.stringify(
    signedCommand({ code: "(+ 1 2)", gasLimit: WORKER_LOCAL_GAS_LIMIT }),
  );
  const node = await localServer();
  const bareOne = await bareServer();
  const local: number[] = [];
  const localWorker: number[] = [];
  const bare: number[] = [];
  try {
    // Not counted: the node's execution workers load (a thread compiles its
    // modules for seconds) under the first load, not during the rounds.
    await runGenerator(node.url, workerBody);
    const parts = [
      async () => bare.push(await runGenerator(bareOne.url, body)),
      async () => local.push(await runGenerator(node.url, body)),
      async () => localWorker.push(await runGenerator(node.url, workerBody)),
    ];
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate the order, so no part always follows the same other.
      for (const part of r % 2 === 0 ? parts : [...parts].reverse()) await part();
    }
  } finally {
    await bareOne.close();
    await node.close();
  }
  return { local: median(local), localWorker: median(localWorker), bare: median(bare) };
}

/** Runs the health probe against `url` for SECONDS, a request every 10 ms. */
const runProbe = (url: string): Promise<HealthProbeResult> => runHealthProbe(url, SECONDS, 10);

/** A /local program of some milliseconds (list building in a fold). */
const HEAVY_LOCAL = "(length (fold (lambda (acc x) (+ acc [x])) [] (enumerate 1 400)))";

/** /health-check's p99 while the load generator saturates /local (`workers` 0: in process). */
async function healthUnderLocalLoad(workers: number): Promise<number> {
  const dataDir = tempDir("weft-bench-health-");
  const node = await createNode({
    network: "test-singleton",
    dataDir,
    port: 0,
    executionWorkers: workers,
  });
  try {
    const url = `${node.baseUrl}/chain/0/pact/api/v1/local`;
    const body = JSON.stringify(signedCommand({ code: HEAVY_LOCAL, gasLimit: 150_000 }));
    // The first request waits for a worker to load; not part of the measure.
    const first = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    if (first.status !== 200) throw new Error(`/local answered ${first.status}`);
    await runGenerator(url, body); // every worker loaded (see localAndBare)
    const [probe] = await Promise.all([
      runProbe(`${node.origin}/health-check`),
      runGenerator(url, body),
    ]);
    return probe.p99;
  } finally {
    await node.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The chains the next `n` blocks on `cut` extend, the lowest extendable
 * chain first (as the health part inserts them), worked out on headers alone.
 */
function chainSequence(
  cut: Cut,
  version: NetworkVersion,
  parentOf: ParentLookup,
  n: number,
): number[] {
  const made = new Map<string, BlockHeader>();
  const lookup: ParentLookup = (h) => made.get(h.parent) ?? parentOf(h);
  const out: number[] = [];
  let at = cut;
  for (let i = 0; i < n; i++) {
    const chainId = extendableChains(at, version, lookup)[0] as number;
    const ext = cutExtension(at, version, chainId, lookup);
    if (ext.status !== "ready") throw new Error(`chain ${chainId} cannot be extended`);
    const header = newBlockHeader({
      version,
      parent: ext.parent,
      adjacentParents: ext.adjacentParents,
      creationTime:
        Math.max(ext.parent.creationTime, ...ext.adjacentParents.map((a) => a.creationTime)) + 1,
      payloadHash: ext.parent.payloadHash,
    });
    made.set(header.hash, header);
    at = extendCut(at, header);
    out.push(chainId);
  }
  return out;
}

/** /health-check's p99 while blocks of maximum gas are built (workers) and inserted back to back. */
async function healthUnderBlocks(): Promise<number> {
  const dataDir = tempDir("weft-bench-health-");
  const node = await createNode({ network: "test-singleton", dataDir, port: 0 });
  const version = node.version;
  let probing = true;
  try {
    const parentOf: ParentLookup = (h) => node.blocks.header(h.parent);
    // The transfers are signed before the probe starts: signing 250 commands is the
    // benchmark's work, not the node's, and it would hold the node's thread (the same
    // process) for hundreds of milliseconds per block.
    const chains = chainSequence(node.blocks.cut(), version, parentOf, HEALTH_BLOCKS);
    const prepared = chains.map((chainId, b) => transferBlock(chainId, b, "health"));
    const probe = runProbe(`${node.origin}/health-check`).finally(() => {
      probing = false;
    });
    for (let b = 0; probing; b++) {
      const chainId = extendableChains(node.blocks.cut(), version, parentOf)[0] as number;
      const candidates = prepared[b];
      if (candidates !== undefined && chains[b] !== chainId) {
        throw new Error(`block ${b} extends chain ${chainId}, not ${chains[b]} as foreseen`);
      }
      if (candidates === undefined) {
        console.error(
          `exec health: all ${HEALTH_BLOCKS} prepared blocks inserted before the probe ended`,
        );
        await probe;
        break;
      }
      const ext = cutExtension(node.blocks.cut(), version, chainId, parentOf);
      if (ext.status !== "ready") throw new Error(`chain ${chainId} cannot be extended`);
      const latest = Math.max(
        ext.parent.creationTime,
        ...ext.adjacentParents.map((a) => a.creationTime),
      );
      const creationTime = Math.max(Date.now() * 1000, latest + 1);
      const built = await node.execution.buildPayload(
        ext.parent,
        MINER,
        candidates,
        Math.floor(creationTime / 1_000_000),
      );
      const header = newBlockHeader({
        version,
        parent: ext.parent,
        adjacentParents: ext.adjacentParents,
        creationTime,
        payloadHash: built.payload.payloadHash,
      });
      // The path a mined block takes (MiningService.accept): executed in a worker first.
      await node.insertBlock({ header, payload: built.payload });
    }
    return (await probe).p99;
  } finally {
    probing = false;
    await node.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs one part in a fresh process: the servers of the /local part should not
 * start from the JIT and heap state thousands of transfers left behind.
 */
function inFreshProcess(part: "transfers" | "local" | "health"): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
      env: { ...process.env, WEFT_BENCH_ONLY: part, WEFT_BENCH_CHILD: "1" },
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`the ${part} part exited with ${code}`)),
    );
  });
}

if (ONLY === "") {
  await inFreshProcess("transfers");
  await inFreshProcess("local");
  await inFreshProcess("health");
}
if (ONLY === "transfers") {
  const transfers = await transfersPerSecond("sent");
  console.log(`BENCH exec transfers_per_s=${Math.round(transfers)} 1/s`);
  const transfersCold = await transfersPerSecond("cold");
  console.log(`BENCH exec transfers_cold_per_s=${Math.round(transfersCold)} 1/s`);
}
if (ONLY === "local") {
  const { local, localWorker, bare } = await localAndBare();
  console.log(`BENCH exec local_rps=${Math.round(local)} 1/s`);
  console.log(`BENCH exec bare_rps=${Math.round(bare)} 1/s`);
  console.log(`BENCH exec local_vs_bare=${Math.round((100 * local) / bare)} %`);
  console.log(`BENCH exec local_worker_rps=${Math.round(localWorker)} 1/s`);
  console.log(`BENCH exec local_worker_vs_bare=${Math.round((100 * localWorker) / bare)} %`);
}
if (ONLY === "health") {
  const withWorkers = await healthUnderLocalLoad(2);
  const inProcess = await healthUnderLocalLoad(0);
  const blocks = await healthUnderBlocks();
  console.log(`BENCH exec health_p99_ms_local_load=${withWorkers.toFixed(1)} ms`);
  console.log(`BENCH exec health_p99_ms_local_load_in_process=${inProcess.toFixed(1)} ms`);
  console.log(`BENCH exec health_p99_ms_block_exec=${blocks.toFixed(1)} ms`);
  console.log(`BENCH exec health_p99_ms_under_load=${Math.max(withWorkers, blocks).toFixed(1)} ms`);
}
if (process.env.WEFT_BENCH_CHILD === undefined)
  console.log(`BENCH exec load_avg=${loadavg()[0]?.toFixed(2)}`);
