/**
 * The messages between the worker pool (main thread) and a miner worker, and
 * their parsers. Both sides parse what they receive; nothing crosses the
 * thread boundary unchecked.
 *
 * `generation` numbers a work assignment: the pool bumps it on new work, on
 * stop and on start, and ignores solutions from an older one (progress
 * reports count whatever their generation while the pool runs: a thread's
 * rate window spans work items).
 * @module
 */
import { WORK_HEADER_BYTES } from "./blake2sMidstate.ts";
import { MiningError, MiningErrorCode } from "./errors.ts";

const U64_MAX = (1n << 64n) - 1n;
const I64_MAX = (1n << 63n) - 1n;

/** Pool → worker. */
export type ToWorker =
  /** Drop any current work; search `header` against `target` from `startNonce`. */
  | {
      kind: "work";
      generation: number;
      header: Uint8Array;
      target: Uint8Array;
      startNonce: bigint;
    }
  /** New creation time (µs) for the work of `generation`; the worker recomputes its midstate. */
  | { kind: "time"; generation: number; creationTime: bigint }
  /** Drop the current work and idle. */
  | { kind: "stop" }
  /** Drop the current work and exit. */
  | { kind: "close" };

/** Worker → pool. */
export type FromWorker =
  /** The worker has loaded and listens. */
  | { kind: "ready" }
  /** `header` (286 bytes, nonce and time set) meets the target of `generation`. */
  | { kind: "solved"; generation: number; header: Uint8Array }
  /** `tried` nonces were hashed in the last `elapsedMs` milliseconds. */
  | { kind: "progress"; generation: number; tried: number; elapsedMs: number }
  /** The worker received something it could not use. */
  | { kind: "failed"; reason: string };

/** Settings passed as `workerData` when a worker starts. */
export type MinerWorkerSettings = {
  /** How often the worker reports its hash rate, in milliseconds. */
  progressIntervalMs: number;
};

type Direction = "toWorker" | "fromWorker";

function bad(direction: Direction, reason: string): MiningError {
  return new MiningError(
    { code: MiningErrorCode.BadMessage, direction, reason },
    `bad miner worker message (${direction}): ${reason}`,
  );
}

function record(value: unknown, direction: Direction): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw bad(direction, "not an object");
  }
  return value as Record<string, unknown>;
}

function generationOf(m: Record<string, unknown>, direction: Direction): number {
  const g = m.generation;
  if (typeof g !== "number" || !Number.isSafeInteger(g) || g < 0) {
    throw bad(direction, "generation is not a non-negative integer");
  }
  return g;
}

function bytesOf(
  m: Record<string, unknown>,
  key: string,
  length: number,
  direction: Direction,
): Uint8Array {
  const b = m[key];
  if (!(b instanceof Uint8Array) || b.length !== length) {
    throw bad(direction, `${key} is not ${length} bytes`);
  }
  return b;
}

function nonNegative(m: Record<string, unknown>, key: string, direction: Direction): number {
  const n = m[key];
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) {
    throw bad(direction, `${key} is not a non-negative number`);
  }
  return n;
}

/** Parses a message received by a worker. @throws MiningError MINING_BAD_MESSAGE */
export function parseToWorker(value: unknown): ToWorker {
  const d: Direction = "toWorker";
  const m = record(value, d);
  switch (m.kind) {
    case "work": {
      const startNonce = m.startNonce;
      if (typeof startNonce !== "bigint" || startNonce < 0n || startNonce > U64_MAX) {
        throw bad(d, "startNonce is not a u64 bigint");
      }
      return {
        kind: "work",
        generation: generationOf(m, d),
        header: bytesOf(m, "header", WORK_HEADER_BYTES, d),
        target: bytesOf(m, "target", 32, d),
        startNonce,
      };
    }
    case "time": {
      const t = m.creationTime;
      if (typeof t !== "bigint" || t < 0n || t > I64_MAX) {
        throw bad(d, "creationTime is not a non-negative i64 bigint");
      }
      return { kind: "time", generation: generationOf(m, d), creationTime: t };
    }
    case "stop":
      return { kind: "stop" };
    case "close":
      return { kind: "close" };
    default:
      throw bad(d, `unknown kind ${JSON.stringify(String(m.kind))}`);
  }
}

/** Parses a message received from a worker. @throws MiningError MINING_BAD_MESSAGE */
export function parseFromWorker(value: unknown): FromWorker {
  const d: Direction = "fromWorker";
  const m = record(value, d);
  switch (m.kind) {
    case "ready":
      return { kind: "ready" };
    case "solved":
      return {
        kind: "solved",
        generation: generationOf(m, d),
        header: bytesOf(m, "header", WORK_HEADER_BYTES, d),
      };
    case "progress": {
      const tried = nonNegative(m, "tried", d);
      if (!Number.isSafeInteger(tried)) throw bad(d, "tried is not an integer");
      return {
        kind: "progress",
        generation: generationOf(m, d),
        tried,
        elapsedMs: nonNegative(m, "elapsedMs", d),
      };
    }
    case "failed": {
      if (typeof m.reason !== "string") throw bad(d, "reason is not a string");
      return { kind: "failed", reason: m.reason };
    }
    default:
      throw bad(d, `unknown kind ${JSON.stringify(String(m.kind))}`);
  }
}

/**
 * Parses the settings from the `workerData` a worker starts with (its
 * `data` key, see threads/spawnWorker.ts; the other keys belong to the loader).
 * @throws MiningError MINING_BAD_MESSAGE
 */
export function parseWorkerSettings(workerData: unknown): MinerWorkerSettings {
  const m = record(record(workerData, "toWorker").data, "toWorker");
  const ms = nonNegative(m, "progressIntervalMs", "toWorker");
  if (ms < 1) throw bad("toWorker", "progressIntervalMs is below 1");
  return { progressIntervalMs: ms };
}
