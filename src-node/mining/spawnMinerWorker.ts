/**
 * Starts minerWorker.ts in a worker thread (through threads/spawnWorker.ts).
 * @module
 */
import type { Worker } from "node:worker_threads";
import { spawnWorker } from "../threads/spawnWorker.ts";
import type { MinerWorkerSettings } from "./protocol.ts";

/** A new miner thread; it posts `{kind: "ready"}` once it listens (see protocol.ts). */
export function spawnMinerWorker(settings: MinerWorkerSettings): Worker {
  return spawnWorker(new URL("./minerWorker.ts", import.meta.url), settings);
}
