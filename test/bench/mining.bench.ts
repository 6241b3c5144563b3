/**
 * Proof-of-work search speed: nonces per second of searchNonce on one thread
 * (in-process), of the worker pool with 2 threads, and as baselines a whole
 * Blake2s-256 hash of the 286-byte header per nonce with node:crypto and with
 * @noble/hashes. Targets are unreachable so every nonce is hashed.
 */
import { createHash } from "node:crypto";
import { blake2s } from "@noble/hashes/blake2.js";
import { NONCE_OFFSET } from "../../src-node/mining/blake2sMidstate.ts";
import { searchNonce } from "../../src-node/mining/nonceSearch.ts";
import { WorkerPool } from "../../src-node/mining/workerPool.ts";
import { scaled } from "./support/scaled.ts";

const header = new Uint8Array(286);
for (let i = 0; i < header.length; i++) header[i] = (i * 151 + 7) & 0xff;
const zeroTarget = new Uint8Array(32);

function report(metric: string, perSecond: number): void {
  console.log(`BENCH mining ${metric}=${Math.round(perSecond)} 1/s`);
}

/** Runs `batch` (returning how many items it did) for about `ms` after a warm-up; items per second. */
function rate(ms: number, batch: () => number): number {
  const warm = performance.now() + 300;
  while (performance.now() < warm) batch();
  let done = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    done += batch();
    now = performance.now();
  }
  return (done * 1000) / (now - start);
}

let nonce = 0n;
report(
  "nonces_per_s_per_thread",
  rate(scaled(3000), () => {
    const r = searchNonce(header, zeroTarget, nonce, 1 << 20);
    nonce += BigInt(r.tried);
    return r.tried;
  }),
);

const nodeHeader = Buffer.from(header);
let n1 = 0;
report(
  "node_crypto_blake2s_per_s",
  rate(scaled(1500), () => {
    for (let i = 0; i < 1000; i++) {
      nodeHeader.writeUInt32LE(n1++ >>> 0, NONCE_OFFSET);
      createHash("blake2s256").update(nodeHeader).digest();
    }
    return 1000;
  }),
);

const nobleHeader = header.slice();
const nobleView = new DataView(nobleHeader.buffer);
let n2 = 0;
report(
  "noble_blake2s_per_s",
  rate(scaled(1500), () => {
    for (let i = 0; i < 1000; i++) {
      nobleView.setUint32(NONCE_OFFSET, n2++ >>> 0, true);
      blake2s(nobleHeader, { dkLen: 32 });
    }
    return 1000;
  }),
);

const samples: number[] = [];
const pool = new WorkerPool({
  threads: 2,
  progressIntervalMs: 500,
  onSolution: () => undefined,
  onHashRate: (r) => samples.push(r),
});
const work = new Uint8Array(322);
work.set(header, 36);
pool.setWork("bench", work);
await pool.start();
// Skip the first reports (warm-up), then average the pool's summed rate.
await new Promise((r) => setTimeout(r, scaled(1500, 600)));
const skip = samples.length;
await new Promise((r) => setTimeout(r, scaled(3000, 1100)));
await pool.close();
const measured = samples.slice(skip);
report(
  "pool_2_threads_nonces_per_s",
  measured.length === 0 ? 0 : measured.reduce((a, b) => a + b, 0) / measured.length,
);
