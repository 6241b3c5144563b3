/**
 * The messages between the node (workerExecution.ts) and an execution worker
 * (execWorker.ts), and their parsers: both sides parse what they receive,
 * nothing crosses the thread boundary unchecked. Headers travel in their
 * binary form (decoded, hash checked, on arrival), commands as the text a
 * block carries them as, payload parts as bytes (hashed again on arrival),
 * errors as {@link WireError}s that become coded errors of the same class
 * and code again.
 * @module
 */
import type { BlockHeader } from "../chain/blockHeader.ts";
import { decodeBlockHeader, encodeBlockHeader } from "../chain/blockHeaderBinary.ts";
import { ChainError } from "../chain/errors.ts";
import { ContractError } from "../contract/errors.ts";
import { NodeError } from "../errors/nodeError.ts";
import { StoreError } from "../store/errors.ts";
import type { ChainRows, StoredResult } from "../store/stateDb.ts";
import { CommandError, ExecError, ExecErrorCode, execInvariant, SpvError } from "./errors.ts";

/** A coded error as it crosses the boundary. */
export type WireError = {
  readonly name: string;
  readonly message: string;
  /** The error's payload (`code` and context), JSON data only. */
  readonly type: { readonly code: string; readonly [k: string]: unknown };
};

/** A candidate command of a payload: its request key and block transaction text. */
export type WireCandidate = { readonly requestKey: string; readonly text: string };

/** Node → worker. */
export type ToExecWorker =
  /** /local on the state after `parent` (its chain's block `rewindDepth` below the head). */
  | {
      kind: "local";
      id: number;
      parent: BlockHeader;
      body: unknown;
      preflight: boolean;
      signatureVerification: boolean;
    }
  /** A payload on `parent` for the miner of `minerData` (payloadBuilder.ts). */
  | {
      kind: "payload";
      id: number;
      parent: BlockHeader;
      minerData: Uint8Array;
      candidates: WireCandidate[];
      blockTimeS: number;
    }
  /** Execute `header`'s block (its payload's parts) on the state after `parent`. */
  | {
      kind: "block";
      id: number;
      parent: BlockHeader;
      header: BlockHeader;
      payload: WirePayload;
    }
  /** Close the databases and exit. */
  | { kind: "close" };

/** A built payload's parts (the node hashes them again). */
export type WirePayload = {
  readonly transactions: { readonly transaction: Uint8Array; readonly output: Uint8Array }[];
  readonly minerData: Uint8Array;
  readonly coinbase: Uint8Array;
};

/** Worker → node. */
export type FromExecWorker =
  | { kind: "ready" }
  | { kind: "local"; id: number; output: string }
  /** /local?preflight: the metadata rules the command breaks. */
  | { kind: "invalid"; id: number; failures: WireError[] }
  | {
      kind: "payload";
      id: number;
      payload: WirePayload;
      included: string[];
      dropped: { requestKey: string; error: WireError }[];
    }
  /** An executed block's writes (an invalid block is a `failed` answer with its ExecError). */
  | {
      kind: "block";
      id: number;
      baseEndTxId: number;
      rows: ChainRows;
      results: StoredResult[];
      endTxId: number;
    }
  /** The state no longer holds the parent (the node moved it meanwhile): ask again. */
  | { kind: "stale"; id: number }
  /** The request failed with `error` (id null: the message could not be read). */
  | { kind: "failed"; id: number | null; error: WireError };

/** Settings passed as `workerData.data` when a worker starts. */
export type ExecWorkerSettings = {
  readonly network: string;
  readonly statePath: string;
  readonly blocksPath: string;
  readonly nativeBinding: string | undefined;
  readonly spvProofDepth: number;
  /** Wall-clock limit of one command's evaluation, ms (exec/timeLimit.ts). */
  readonly commandTimeLimitMs: number;
};

type Direction = "toWorker" | "fromWorker";

function bad(direction: Direction, reason: string): ExecError {
  return execInvariant(`bad execution worker message (${direction}): ${reason}`);
}

function record(
  value: unknown,
  direction: Direction,
  what = "the message",
): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw bad(direction, `${what} is not an object`);
  }
  return value as Record<string, unknown>;
}

function idOf(m: Record<string, unknown>, d: Direction): number {
  const id = m.id;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) {
    throw bad(d, "id is not a non-negative integer");
  }
  return id;
}

function str(m: Record<string, unknown>, key: string, d: Direction): string {
  const v = m[key];
  if (typeof v !== "string") throw bad(d, `${key} is not a string`);
  return v;
}

function bool(m: Record<string, unknown>, key: string, d: Direction): boolean {
  const v = m[key];
  if (typeof v !== "boolean") throw bad(d, `${key} is not a boolean`);
  return v;
}

function int(m: Record<string, unknown>, key: string, d: Direction): number {
  const v = m[key];
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw bad(d, `${key} is not an integer`);
  return v;
}

function bytes(m: Record<string, unknown>, key: string, d: Direction): Uint8Array {
  const v = m[key];
  if (!(v instanceof Uint8Array)) throw bad(d, `${key} is not bytes`);
  return v;
}

function array(m: Record<string, unknown>, key: string, d: Direction): unknown[] {
  const v = m[key];
  if (!Array.isArray(v)) throw bad(d, `${key} is not an array`);
  return v;
}

/**
 * Binary forms already written, by header object: every /local sent to a
 * worker carries the chain's head, the same object while it stays the head,
 * and encoding it cost about as much as the rest of sending the request.
 * Headers are immutable and the bytes are copied by `postMessage`, never
 * transferred, so one encoding serves them all.
 */
const wired = new WeakMap<BlockHeader, Uint8Array>();

/** A header for the boundary (its binary form). */
export function wireHeader(header: BlockHeader): Uint8Array {
  let bytes = wired.get(header);
  if (bytes === undefined) {
    bytes = encodeBlockHeader(header);
    wired.set(header, bytes);
  }
  return bytes;
}

/**
 * The last header read at the boundary, with its bytes: a worker answering
 * /local receives the same head with every request, and decoding it checks
 * its hash. Equal bytes are the same (immutable) header, already checked.
 */
let lastRead: { readonly bytes: Uint8Array; readonly header: BlockHeader } | undefined;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function headerOf(m: Record<string, unknown>, d: Direction, key = "parent"): BlockHeader {
  const given = bytes(m, key, d);
  if (lastRead !== undefined && sameBytes(lastRead.bytes, given)) return lastRead.header;
  try {
    const header = decodeBlockHeader(given);
    lastRead = { bytes: given.slice(), header };
    return header;
  } catch (e) {
    throw bad(d, `${key}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Parses a message received by a worker. @throws {ExecError} EXEC_INVARIANT */
export function parseToExecWorker(value: unknown): ToExecWorker {
  const d: Direction = "toWorker";
  const m = record(value, d);
  switch (m.kind) {
    case "local":
      return {
        kind: "local",
        id: idOf(m, d),
        parent: headerOf(m, d),
        body: m.body,
        preflight: bool(m, "preflight", d),
        signatureVerification: bool(m, "signatureVerification", d),
      };
    case "payload":
      return {
        kind: "payload",
        id: idOf(m, d),
        parent: headerOf(m, d),
        minerData: bytes(m, "minerData", d),
        candidates: array(m, "candidates", d).map((c) => {
          const r = record(c, d, "a candidate");
          return { requestKey: str(r, "requestKey", d), text: str(r, "text", d) };
        }),
        blockTimeS: int(m, "blockTimeS", d),
      };
    case "block":
      return {
        kind: "block",
        id: idOf(m, d),
        parent: headerOf(m, d),
        header: headerOf(m, d, "header"),
        payload: wirePayloadOf(m.payload, d),
      };
    case "close":
      return { kind: "close" };
    default:
      throw bad(d, `unknown kind ${JSON.stringify(String(m.kind))}`);
  }
}

function wireErrorOfValue(value: unknown, d: Direction): WireError {
  const r = record(value, d, "an error");
  const type = record(r.type, d, "an error's type");
  if (typeof type.code !== "string") throw bad(d, "an error's code is not a string");
  return {
    name: str(r, "name", d),
    message: str(r, "message", d),
    type: type as WireError["type"],
  };
}

function wirePayloadOf(value: unknown, d: Direction): WirePayload {
  const p = record(value, d, "payload");
  return {
    transactions: array(p, "transactions", d).map((t) => {
      const r = record(t, d, "a transaction");
      return { transaction: bytes(r, "transaction", d), output: bytes(r, "output", d) };
    }),
    minerData: bytes(p, "minerData", d),
    coinbase: bytes(p, "coinbase", d),
  };
}

function chainRowsOf(value: unknown, d: Direction): ChainRows {
  const m = record(value, d, "rows");
  return {
    versions: array(m, "versions", d).map((x) => {
      const r = record(x, d, "a row version");
      return {
        tbl: str(r, "tbl", d),
        key: str(r, "key", d),
        txid: int(r, "txid", d),
        seq: int(r, "seq", d),
        height: int(r, "height", d),
        value: str(r, "value", d),
      };
    }),
    tables: array(m, "tables", d).map((x) => {
      const r = record(x, d, "a table");
      return {
        tbl: str(r, "tbl", d),
        module: str(r, "module", d),
        txid: int(r, "txid", d),
        height: int(r, "height", d),
      };
    }),
  };
}

/** Parses a message received from a worker. @throws {ExecError} EXEC_INVARIANT */
export function parseFromExecWorker(value: unknown): FromExecWorker {
  const d: Direction = "fromWorker";
  const m = record(value, d);
  switch (m.kind) {
    case "ready":
      return { kind: "ready" };
    case "local":
      return { kind: "local", id: idOf(m, d), output: str(m, "output", d) };
    case "invalid":
      return {
        kind: "invalid",
        id: idOf(m, d),
        failures: array(m, "failures", d).map((f) => wireErrorOfValue(f, d)),
      };
    case "payload":
      return {
        kind: "payload",
        id: idOf(m, d),
        payload: wirePayloadOf(m.payload, d),
        included: array(m, "included", d).map((k) => {
          if (typeof k !== "string") throw bad(d, "an included request key is not a string");
          return k;
        }),
        dropped: array(m, "dropped", d).map((x) => {
          const r = record(x, d, "a dropped command");
          return { requestKey: str(r, "requestKey", d), error: wireErrorOfValue(r.error, d) };
        }),
      };
    case "block":
      return {
        kind: "block",
        id: idOf(m, d),
        baseEndTxId: int(m, "baseEndTxId", d),
        rows: chainRowsOf(m.rows, d),
        results: array(m, "results", d).map((x) => {
          const r = record(x, d, "a result");
          return {
            requestKey: str(r, "requestKey", d),
            height: int(r, "height", d),
            blockHash: str(r, "blockHash", d) as StoredResult["blockHash"],
            position: int(r, "position", d),
            output: str(r, "output", d),
          };
        }),
        endTxId: int(m, "endTxId", d),
      };
    case "stale":
      return { kind: "stale", id: idOf(m, d) };
    case "failed":
      return {
        kind: "failed",
        id: m.id === null ? null : idOf(m, d),
        error: wireErrorOfValue(m.error, d),
      };
    default:
      throw bad(d, `unknown kind ${JSON.stringify(String(m.kind))}`);
  }
}

/**
 * Parses the settings from the `workerData` a worker starts with (its
 * `data` key, see threads/spawnWorker.ts).
 * @throws {ExecError} EXEC_INVARIANT
 */
export function parseExecWorkerSettings(workerData: unknown): ExecWorkerSettings {
  const d: Direction = "toWorker";
  const m = record(record(workerData, d, "workerData").data, d, "settings");
  const nativeBinding = m.nativeBinding;
  if (nativeBinding !== undefined && typeof nativeBinding !== "string") {
    throw bad(d, "nativeBinding is not a string");
  }
  const spvProofDepth = int(m, "spvProofDepth", d);
  if (spvProofDepth < 0) throw bad(d, "spvProofDepth is negative");
  const commandTimeLimitMs = m.commandTimeLimitMs;
  if (
    typeof commandTimeLimitMs !== "number" ||
    !Number.isFinite(commandTimeLimitMs) ||
    commandTimeLimitMs < 0
  ) {
    throw bad(d, "commandTimeLimitMs is not a non-negative number");
  }
  return {
    network: str(m, "network", d),
    statePath: str(m, "statePath", d),
    blocksPath: str(m, "blocksPath", d),
    nativeBinding,
    spvProofDepth,
    commandTimeLimitMs,
  };
}

/**
 * Any thrown value as a {@link WireError}: a coded error keeps its class
 * name, code and payload (as JSON data); anything else (a bug) becomes an
 * EXEC_INVARIANT naming what was thrown.
 */
export function wireErrorOf(e: unknown): WireError {
  if (e instanceof NodeError) {
    let type: WireError["type"];
    try {
      type = JSON.parse(JSON.stringify(e.type)) as WireError["type"];
    } catch {
      type = { code: e.code };
    }
    return { name: e.name, message: e.message, type };
  }
  const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  const x = execInvariant(`execution failed in the worker: ${reason}`);
  return { name: x.name, message: x.message, type: { ...x.type } };
}

type Coded = new (type: never, message: string) => NodeError;

const CLASSES: Readonly<Record<string, Coded>> = {
  CommandError: CommandError as unknown as Coded,
  ExecError: ExecError as unknown as Coded,
  SpvError: SpvError as unknown as Coded,
  StoreError: StoreError as unknown as Coded,
  ChainError: ChainError as unknown as Coded,
  ContractError: ContractError as unknown as Coded,
};

/** The coded error a {@link WireError} stands for (same class where known, same code always). */
export function errorOfWire(w: WireError): NodeError {
  const C = CLASSES[w.name];
  return C === undefined ? new NodeError(w.type, w.message) : new C(w.type as never, w.message);
}

/** A worker that stopped (crashed, or failed to start) while a request was on it. */
export function workerFailed(reason: string): ExecError {
  return new ExecError(
    { code: ExecErrorCode.WorkerFailed, reason },
    `execution failed: the execution worker stopped (${reason})`,
  );
}
