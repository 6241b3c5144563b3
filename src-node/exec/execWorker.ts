/**
 * The execution worker thread's entry: opens read-only connections to
 * state.sqlite and blocks.sqlite and answers /local and payload requests
 * (execProtocol.ts) with a {@link SnapshotExecutor}, one at a time, off the
 * node's event loop. Every failure of a request, coded or not, becomes that
 * request's `failed` answer: nothing a command does stops the thread.
 * Started only by workerExecution.ts, through threads/spawnWorker.ts.
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";
import { parseMinerData } from "../chain/minerData.ts";
import { buildPayloadWithOutputs } from "../chain/payloadWithOutputs.ts";
import { versionByName } from "../chain/versions.ts";
import { BlockStore } from "../store/blockStore.ts";
import { StateDb } from "../store/stateDb.ts";
import { execInvariant } from "./errors.ts";
import {
  type FromExecWorker,
  parseExecWorkerSettings,
  parseToExecWorker,
  type ToExecWorker,
  type WirePayload,
  wireErrorOf,
} from "./execProtocol.ts";
import { SnapshotExecutor, STALE } from "./snapshotExecutor.ts";

const port = parentPort;
if (port === null) throw execInvariant("execWorker.ts must run in a worker thread");
const settings = parseExecWorkerSettings(workerData);
const version = versionByName(settings.network);
const state = StateDb.openReader({
  path: settings.statePath,
  nativeBinding: settings.nativeBinding,
});
const blocks = BlockStore.openReader(settings.blocksPath, {
  nativeBinding: settings.nativeBinding,
});
const executor = new SnapshotExecutor({
  version,
  state,
  blocks,
  spvProofDepth: settings.spvProofDepth,
  commandTimeLimitMs: settings.commandTimeLimitMs,
});

function post(message: FromExecWorker): void {
  port?.postMessage(message);
}

function answer(message: Exclude<ToExecWorker, { kind: "close" }>): FromExecWorker {
  const id = message.id;
  if (message.kind === "local") {
    const r = executor.local(message.parent, message.body, message);
    if (r === STALE) return { kind: "stale", id };
    if (r.kind === "invalid") return { kind: "invalid", id, failures: r.failures.map(wireErrorOf) };
    return { kind: "local", id, output: r.output };
  }
  if (message.kind === "block") {
    const r = executor.executeBlock(
      message.parent,
      message.header,
      buildPayloadWithOutputs(message.payload),
    );
    if (r === STALE) return { kind: "stale", id };
    return { kind: "block", id, ...r };
  }
  const miner = parseMinerData(message.minerData);
  const r = executor.buildPayload(message.parent, miner, message.candidates, message.blockTimeS);
  if (r === STALE) return { kind: "stale", id };
  const p = r.payload;
  const payload: WirePayload = {
    transactions: p.transactions.map((t) => ({ transaction: t.transaction, output: t.output })),
    minerData: p.minerData,
    coinbase: p.coinbase,
  };
  return {
    kind: "payload",
    id,
    payload,
    included: r.included.map((c) => c.hash),
    dropped: r.dropped.map((d) => ({ requestKey: d.requestKey, error: wireErrorOf(d.error) })),
  };
}

port.on("message", (raw: unknown) => {
  let id: number | null = null;
  try {
    const message = parseToExecWorker(raw);
    if (message.kind === "close") {
      state.close();
      blocks.close();
      port.close();
      return;
    }
    id = message.id;
    post(answer(message));
  } catch (e) {
    // A message that did not parse still names its request when it can.
    const loose = (raw as { id?: unknown } | null)?.id;
    if (id === null && typeof loose === "number" && Number.isSafeInteger(loose)) id = loose;
    post({ kind: "failed", id, error: wireErrorOf(e) });
  }
});
post({ kind: "ready" });
