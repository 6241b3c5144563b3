/**
 * Starts minerWorker.ts in a worker thread.
 *
 * Sources are TypeScript run through tsx, and Node 20 ignores `--import` in a
 * worker's execArgv, so a tiny CommonJS bootstrap registers tsx inside the
 * thread and then imports the entry (registering it twice, on Nodes that
 * pass hooks on to workers, is harmless). This works the same under Vitest,
 * `npx tsx` and `node bin/weft.js` (which registers tsx only in the main
 * thread).
 * @module
 */
import { Worker } from "node:worker_threads";
import type { MinerWorkerSettings } from "./protocol.ts";

// Plain JavaScript that runs as CommonJS or as ESM (hence import(), not require()).
const BOOTSTRAP = `
import("node:worker_threads")
  .then(({ workerData }) => import(workerData.loader).then((tsx) => {
    tsx.register();
    return import(workerData.entry);
  }));
`;

/** A new miner thread; it posts `{kind: "ready"}` once it listens (see protocol.ts). */
export function spawnMinerWorker(settings: MinerWorkerSettings): Worker {
  const entry = new URL("./minerWorker.ts", import.meta.url).href;
  const loader = import.meta.resolve("tsx/esm/api");
  // execArgv: [] so that flags of the parent (e.g. --input-type) do not reach the bootstrap.
  return new Worker(BOOTSTRAP, {
    eval: true,
    execArgv: [],
    workerData: { loader, entry, settings },
  });
}
