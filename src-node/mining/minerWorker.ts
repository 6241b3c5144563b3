/**
 * The miner worker thread's entry: receives work, time refreshes and
 * stop/close from the pool (protocol.ts), searches in short chunks so that
 * messages are handled between them, and reports solutions and hash rate.
 * Loaded only by workerPool.ts, inside a worker.
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";
import { MiningError, MiningErrorCode } from "./errors.ts";
import { MinerCore } from "./minerCore.ts";
import { type FromWorker, parseToWorker, parseWorkerSettings, type ToWorker } from "./protocol.ts";

/** Length of one search chunk in milliseconds: bounds how late a stop or new work is seen. */
const CHUNK_MS = 20;

const port = parentPort;
if (port === null) {
  throw new MiningError(
    { code: MiningErrorCode.WorkerFailed, thread: -1, reason: "not in a worker thread" },
    "minerWorker.ts must run in a worker thread",
  );
}
const settings = parseWorkerSettings(workerData);
const core = new MinerCore();
let generation = -1;
let scheduled = false;
let chunk = 1 << 14;
let tried = 0;
let windowStart = performance.now();
/** When the thread ran out of work (solved or stopped); undefined while searching. */
let idleSince: number | undefined;

function post(message: FromWorker): void {
  port?.postMessage(message);
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(step);
}

function step(): void {
  scheduled = false;
  if (!core.hasWork) return;
  const t0 = performance.now();
  const result = core.search(chunk);
  const now = performance.now();
  tried += result.tried;
  // Size the next chunk to about CHUNK_MS whatever this machine's speed.
  const ms = now - t0;
  if (ms > 0) chunk = Math.max(1024, Math.min(1 << 26, Math.round((chunk * CHUNK_MS) / ms)));
  // Progress first: the pool ignores reports of a generation it has left,
  // and a solution makes it leave this one.
  if (now - windowStart >= settings.progressIntervalMs) {
    post({ kind: "progress", generation, tried, elapsedMs: now - windowStart });
    tried = 0;
    windowStart = now;
  }
  if (result.header !== null) {
    // The work is done: a second solution for the same parent is useless.
    core.clear();
    idleSince = now;
    post({ kind: "solved", generation, header: result.header });
  }
  if (core.hasWork) schedule();
}

function resetRate(): void {
  tried = 0;
  windowStart = performance.now();
}

function handle(message: ToWorker): void {
  switch (message.kind) {
    case "work":
      // The rate window runs on across work items (when blocks come faster
      // than the report interval, a window per item would never report),
      // unless the thread sat idle for longer than a window (stopped).
      if (idleSince !== undefined && performance.now() - idleSince >= settings.progressIntervalMs) {
        resetRate();
      }
      idleSince = undefined;
      generation = message.generation;
      core.setWork(message.header, message.target, message.startNonce);
      schedule();
      return;
    case "time":
      if (message.generation === generation && core.hasWork) {
        core.setCreationTime(message.creationTime);
      }
      return;
    case "stop":
      if (core.hasWork) idleSince = performance.now();
      core.clear();
      return;
    case "close":
      core.clear();
      port?.close();
      return;
    default: {
      const unreachable: never = message;
      throw unreachable;
    }
  }
}

port.on("message", (raw: unknown) => {
  try {
    handle(parseToWorker(raw));
  } catch (e) {
    post({ kind: "failed", reason: e instanceof Error ? e.message : String(e) });
  }
});
post({ kind: "ready" });
