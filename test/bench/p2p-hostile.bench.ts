/**
 * `npm run bench -- p2p-hostile`: a node among hostile peers (docs/p2p.md
 * "What a peer can and cannot make this node do"), every node and fake
 * peer in this process on loopback (so the attack's own requests cost the
 * same CPU: the figures are upper bounds of the slowdown):
 * - `honest_sync_baseline_s`: a late joiner with an empty folder syncing
 *   WEFT_BENCH_HOSTILE_BLOCKS (default 500 × WEFT_BENCH_SCALE) blocks from an honest peer;
 * - `honest_sync_under_attack_s`: the same sync while 20 fake peers
 *   (test/support/fakePeer.ts) flood the joiner with published cuts, each
 *   fake 20 a second: forged origins naming the honest peer, made-up local
 *   origins, and heavy lies naming themselves (which serve a real cut to be
 *   verified, then lies whose branch is a 404). Goal: within 2× the baseline;
 * - `rss_growth_mb_under_huge_bodies`: the growth of this process's RSS
 *   (highest sample every 100 ms over 10 s, less the RSS before) while a
 *   node verifies and polls 20 fake peers answering with 342 MB bodies
 *   (`/info`, `/cut`, `/cut/peer`), announced to it again and again. Goal ≤ 50.
 * Then the load average.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { cutToJson } from "../../src-node/chain/cutJson.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { MINER } from "../support/execChain.ts";
import {
  BASE,
  type FakePeer,
  hugeBody,
  published,
  putCut,
  startFakePeer,
  status,
  weightText,
} from "../support/fakePeer.ts";

const scale = Number(process.env.WEFT_BENCH_SCALE ?? "1");
const blocks = Math.max(
  20,
  Math.round(Number(process.env.WEFT_BENCH_HOSTILE_BLOCKS ?? 500 * scale)),
);
/** How long the huge bodies are served, ms. */
const HUGE_MS = Math.max(1_000, 10_000 * Math.min(1, scale));
const FAKES = 20;
const PER_SECOND = 20;
const HUGE = 342 * 1024 * 1024;

function report(metric: string, value: number, unit: string): void {
  console.log(`BENCH p2p ${metric}=${value.toFixed(2)} ${unit}`);
}

const dir = mkdtempSync(join(tmpdir(), "weft-bench-hostile-"));
const common = { network: "test-singleton", port: 0, executionWorkers: 0 } as const;
const opened: WeftNode[] = [];
const fakes: FakePeer[] = [];

async function node(name: string, peers: string[] = []): Promise<WeftNode> {
  const n = await createNode({
    ...common,
    dataDir: join(dir, name),
    p2p: { peers },
    peerPollIntervalMs: 200,
  });
  opened.push(n);
  return n;
}

function host(n: WeftNode): string {
  return new URL(n.origin).host;
}

/** A cut nobody holds, heavier than anything: random heads at `height`. */
function lie(seed: number, height: number): unknown {
  const hashes: Record<string, { height: number; hash: string }> = {};
  for (let c = 0; c < 10; c++) {
    hashes[String(c)] = { height, hash: Buffer.alloc(32, `lie${seed}.${c}`).toString("base64url") };
  }
  return {
    hashes,
    height: 10 * height,
    weight: weightText(10n ** 30n + BigInt(seed)),
    instance: "test-singleton",
  };
}

/** Resolves once `n` holds a cut of height `target`; seconds since `started`. */
function reached(n: WeftNode, target: number, started: number): Promise<number> {
  return new Promise((resolve) => {
    const check = () => {
      if (cutHeight(n.blocks.cut()) >= target) resolve((performance.now() - started) / 1000);
      else setTimeout(check, 5);
    };
    check();
  });
}

/** Every fake announces to `late` PER_SECOND times a second until `stop()` says so. */
async function flood(late: WeftNode, source: WeftNode, liars: FakePeer[], stop: () => boolean) {
  const base = `${late.origin}/ledger/0.0/test-singleton`;
  let n = 0;
  await Promise.all(
    liars.map(async (f, i) => {
      while (!stop()) {
        const k = n++;
        const kind = k % 3;
        const body =
          kind === 0
            ? published(lie(k, 1_000_000), host(source))
            : kind === 1
              ? published(lie(k, 1_000_000), `10.${i}.${k % 250}.1:1848`)
              : published(lie(k, 1_000 + k), f.address);
        await putCut(base, body).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 1000 / PER_SECOND));
      }
    }),
  );
}

try {
  const source = await node("source");
  for (let i = 0; i < blocks; i++) {
    const work = await source.mining.work(MINER);
    source.mining.submit(work.bytes.subarray(36));
  }
  const target = cutHeight(source.blocks.cut());

  // A first sync warms the JIT up (unreported), then the baseline.
  {
    const warm = await node("late-warm-up", [host(source)]);
    await reached(warm, target, performance.now());
    await warm.close();
  }
  {
    const started = performance.now();
    const late = await node("late-baseline", [host(source)]);
    report("honest_sync_baseline_s", await reached(late, target, started), "s");
    await late.close();
  }

  // Under attack.
  for (let i = 0; i < FAKES; i++) {
    let reads = 0;
    fakes.push(
      await startFakePeer({
        // A real cut to be verified by, then a new lie at every read.
        [`GET ${BASE}/cut`]: () =>
          reads++ < 1
            ? cutToJson(source.blocks.cut(), source.version)
            : lie(1e6 + reads, 500 + reads),
        ...Object.fromEntries(
          Array.from({ length: 10 }, (_, c) => [
            `POST ${BASE}/chain/${c}/block/branch`,
            () => status(404, "no such branch"),
          ]),
        ),
      }),
    );
  }
  {
    let done = false;
    const started = performance.now();
    const late = await node("late-attacked", [host(source)]);
    const attack = flood(late, source, fakes, () => done);
    const seconds = await reached(late, target, started);
    done = true;
    await attack;
    report("honest_sync_under_attack_s", seconds, "s");
    const liars = new Set(fakes.map((f) => f.address));
    const met = late.p2p.peers().filter((p) => liars.has(p.address));
    const banned = met.filter((p) => p.bannedUntil !== null).length;
    console.log(
      `# under attack: ${met.length} of ${FAKES} liars became peers by the end of the sync, ${banned} banned`,
    );
    await late.close();
  }
  for (const f of fakes.splice(0)) await f.close();

  // Huge bodies.
  {
    const victim = await node("victim", [host(source)]);
    for (let i = 0; i < FAKES; i++) {
      let reads = 0;
      fakes.push(
        await startFakePeer(
          i % 2 === 0
            ? { "GET /info": () => hugeBody(HUGE) }
            : {
                [`GET ${BASE}/cut`]: () =>
                  reads++ < 1 ? cutToJson(source.blocks.cut(), source.version) : hugeBody(HUGE),
                [`GET ${BASE}/cut/peer`]: () => hugeBody(HUGE, true),
              },
        ),
      );
    }
    const base = `${victim.origin}/ledger/0.0/test-singleton`;
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const end = performance.now() + HUGE_MS;
    while (performance.now() < end) {
      for (const f of fakes) {
        await putCut(
          base,
          published(cutToJson(source.blocks.cut(), source.version), f.address),
        ).catch(() => undefined);
      }
      peak = Math.max(peak, process.memoryUsage().rss);
      await new Promise((r) => setTimeout(r, 100));
    }
    report("rss_growth_mb_under_huge_bodies", (peak - before) / (1024 * 1024), "MB");
    const banned = victim.p2p.peers().filter((p) => p.bannedUntil !== null).length;
    console.log(
      `# huge bodies: ${banned} of ${FAKES / 2} verified liars banned; the others never peers`,
    );
  }
  console.log(`BENCH p2p load_average=${loadavg()[0]?.toFixed(2)} 1`);
} finally {
  for (const f of fakes) await f.close();
  for (const n of opened.reverse()) await n.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}
