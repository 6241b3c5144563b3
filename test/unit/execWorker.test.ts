/**
 * Execution off the event loop (exec/workerExecution.ts, execWorker.ts,
 * snapshotExecutor.ts): /local and payload building in worker threads on
 * read-only connections, giving what in-process execution gives; failures
 * inside a worker answer the request and leave the worker running; a
 * stopped worker is replaced (logged), its request sent once more; workers
 * that cannot start turn the host to in-process execution.
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import type { ReadyCommand } from "../../src-node/exec/chainExecutor.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { ExecError, ExecErrorCode } from "../../src-node/exec/errors.ts";
import { InProcessExecution } from "../../src-node/exec/executionHost.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { SnapshotExecutor, STALE } from "../../src-node/exec/snapshotExecutor.ts";
import {
  EXEC_WORKER_HEAP_MB,
  spawnExecWorker,
  WorkerExecution,
} from "../../src-node/exec/workerExecution.ts";
import { CommandService } from "../../src-node/mempool/commandService.ts";
import { MiningService } from "../../src-node/mining/miningService.ts";
import { BlockStore } from "../../src-node/store/blockStore.ts";
import { NO_TXID_LIMIT, StateDb } from "../../src-node/store/stateDb.ts";
import {
  type ExecChain,
  MINER,
  openExecChain,
  signedCommand,
  transferCaps,
} from "../support/execChain.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

type Logged = { level: string; message: string; fields?: Record<string, unknown> | undefined };

function recordingLog(into: Logged[]) {
  const at =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      into.push({ level, message, fields });
    };
  return { info: at("info"), warn: at("warn"), error: at("error") };
}

function ready(cmd: ReturnType<typeof signedCommand>): ReadyCommand {
  const command = nodeCommands.parseCommand(JSON.parse(JSON.stringify(cmd)));
  return { command, input: contractInputOf(command) };
}

function hostOn(x: ExecChain, options: Partial<ConstructorParameters<typeof WorkerExecution>[0]>) {
  return new WorkerExecution({
    executor: x.executor,
    statePath: join(x.dir, "state.sqlite"),
    blocksPath: join(x.dir, "blocks.sqlite"),
    // Every /local to a worker, whatever its gas limit, unless a test says otherwise.
    inlineLocalGasLimit: 0,
    ...options,
  });
}

const PLAIN = { preflight: false, signatureVerification: true, rewindDepth: 0 };

function resultOf(answer: { kind: string; output?: string }): unknown {
  if (answer.kind !== "result" || answer.output === undefined) throw new Error(answer.kind);
  return (JSON.parse(answer.output) as { result: unknown }).result;
}

describe("[exec] /local in execution workers (a node)", () => {
  let t: TestNode;
  const logged: Logged[] = [];
  beforeAll(async () => {
    t = await openTestNode({
      logger: recordingLog(logged),
      executionWorkers: 2,
      inlineLocalGasLimit: 0,
    });
  });
  afterAll(() => t.cleanup());
  const url = () => `${t.base}/chain/0/pact/api/v1/local`;

  it("answers from a worker; bad commands get their 4xx and the worker keeps serving", async () => {
    expect(t.node.execution).toBeInstanceOf(WorkerExecution);
    const ok = await t.request("POST", url(), { body: signedCommand({ code: "(+ 1 2)" }) });
    expect(ok.statusCode).toBe(200);
    expect(JSON.parse(ok.body).result).toEqual({ status: "success", data: 3 });

    const malformed = await t.request("POST", url(), { body: { cmd: "{}" } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain("hash");

    const cmd = signedCommand({ code: "(+ 1 2)" });
    const other = signedCommand({ code: "(+ 1 2)" });
    const badSig = await t.request("POST", url(), { body: { ...cmd, sigs: other.sigs } });
    expect(badSig.statusCode).toBe(400);

    const wrongChain = await t.request("POST", `${url()}?preflight=true`, {
      body: signedCommand({ code: "(+ 1 2)", chainId: 1, network: "test-singleton" }),
    });
    expect(wrongChain.statusCode).toBe(400);
    expect(wrongChain.body).toContain("Metadata validation failed");

    const failing = await t.request("POST", url(), { body: signedCommand({ code: '(+ 1 "a")' }) });
    expect(failing.statusCode).toBe(200);
    expect(JSON.parse(failing.body).result.status).toBe("failure");

    const again = await t.request("POST", url(), { body: signedCommand({ code: "(* 6 7)" }) });
    expect(JSON.parse(again.body).result.data).toBe(42);
    // Every failure above was an answer: no worker stopped.
    expect(logged.filter((l) => l.message.includes("worker stopped"))).toEqual([]);
    expect((t.node.execution as WorkerExecution).workers).toBeGreaterThanOrEqual(1);
  });

  it("keeps the event loop free: /health-check answers while a long /local runs", async () => {
    const heavy = signedCommand({
      code: "(length (fold (lambda (acc x) (+ acc [x])) [] (enumerate 1 1500)))",
      gasLimit: 150_000,
    });
    const order: string[] = [];
    const local = t.request("POST", url(), { body: heavy }).then((r) => {
      order.push("local");
      return r;
    });
    const health = t.request("GET", "/health-check").then((r) => {
      order.push("health");
      return r;
    });
    const [l, h] = await Promise.all([local, health]);
    expect(h.statusCode).toBe(200);
    expect(l.statusCode).toBe(200);
    expect(order).toEqual(["health", "local"]);
  });
});

describe("[exec] payloads and restarts of execution workers", () => {
  let x: ExecChain;
  beforeAll(() => {
    x = openExecChain();
  });
  afterAll(() => x.close());

  it("builds the payload in-process execution builds, drops what it drops, and mines it", async () => {
    const host = hostOn(x, {});
    try {
      const parent = x.executor.bestHead(0);
      const candidates = [
        ready(
          signedCommand({
            code: '(coin.transfer "sender00" "sender01" 1.5)',
            signers: [{ key: 0, caps: transferCaps("sender00", "sender01", "1.5") }],
          }),
        ),
        // Fails, pays its gas: included.
        ready(signedCommand({ code: '(+ 1 "a")' })),
        // No such account to buy gas from: dropped.
        ready(signedCommand({ code: "(+ 1 2)", sender: "nobody-at-all" })),
        ready(
          signedCommand({
            code: '(coin.transfer "sender00" "sender02" 2.0)',
            signers: [{ key: 0, caps: transferCaps("sender00", "sender02", "2.0") }],
          }),
        ),
      ];
      const timeS = Math.floor(Date.now() / 1000);
      const inWorker = await host.buildPayload(parent, MINER, candidates, timeS);
      const inProcess = x.executor.buildPayload(parent, MINER, candidates, timeS);
      expect(inWorker.payload.payloadHash).toBe(inProcess.payload.payloadHash);
      expect(inWorker.payload.outputsHash).toBe(inProcess.payload.outputsHash);
      expect(inWorker.included.map((c) => c.hash)).toEqual(inProcess.included.map((c) => c.hash));
      expect(inWorker.included).toHaveLength(3);
      expect(inWorker.dropped.map((d) => [d.command.hash, d.error.code])).toEqual(
        inProcess.dropped.map((d) => [d.command.hash, d.error.code]),
      );
      expect(inWorker.dropped.map((d) => d.error.code)).toEqual(["CMD_BUY_GAS_FAILED"]);

      // The node's own path: /send, then mining through the worker-built payloads.
      const commands = new CommandService({
        executor: x.executor,
        blocks: x.blocks,
        execution: host,
      });
      const mining = new MiningService({ chain: x.blocks, payloadProvider: commands.payloadFor });
      try {
        const transfer = signedCommand({
          code: '(coin.transfer "sender03" "sender04" 3.0)',
          sender: "sender03",
          signers: [{ key: 3, caps: transferCaps("sender03", "sender04", "3.0") }],
        });
        const [key] = commands.send(0, [transfer]);
        let mined: BlockHeader | undefined;
        for (let i = 0; i < 50 && mined === undefined; i++) {
          const work = await mining.work(MINER, 0);
          const solved = mining.submit(work.bytes.subarray(36)).header;
          if (solved.chainId === 0) mined = solved;
        }
        expect(mined).toBeDefined();
        const polled = JSON.parse(commands.poll(0, [key as string], 0));
        expect(polled[key as string].result.status).toBe("success");
        expect(commands.mempool.size(0)).toBe(0);
      } finally {
        mining.close();
        commands.close();
      }
    } finally {
      await host.close();
    }
  });

  it("keeps the hostile-command rules in the worker: the time limit, dropped commands, /local's gas limit", async () => {
    const logged: Logged[] = [];
    // Workers whose wall-clock limit is 0 ms: any command that runs a while passes it.
    const host = hostOn(x, {
      log: recordingLog(logged),
      spawn: (settings) => spawnExecWorker({ ...settings, commandTimeLimitMs: 0 }),
    });
    const LOOP = "(fold (lambda (a x) (+ a x)) 0 (enumerate 1 5000))";
    try {
      const parent = x.executor.bestHead(0);
      const slow = ready(signedCommand({ code: LOOP, gasLimit: 100_000 }));
      const quick = ready(signedCommand({ code: "(+ 1 2)" }));
      const timeS = Math.floor(Date.now() / 1000);
      const built = await host.buildPayload(parent, MINER, [slow, quick], timeS);
      expect(built.included.map((c) => c.hash)).toEqual([quick.command.hash]);
      expect(built.dropped.map((d) => [d.command.hash, d.error.code])).toEqual([
        [slow.command.hash, "CMD_UNEXECUTABLE"],
      ]);
      expect(built.dropped[0]?.error.message).toMatch(/time limit of 0 ms/);
      const warned = logged.filter((l) => l.level === "warn" && l.message.includes("dropped"));
      expect(warned.map((l) => l.fields?.requestKey)).toEqual([slow.command.hash]);

      // /local answers the limit as the command's failure.
      const local = await host.local(0, signedCommand({ code: LOOP, gasLimit: 100_000 }), PLAIN);
      const result = resultOf(local) as { status: string; error?: { message: string } };
      expect(result.status).toBe("failure");
      expect(result.error?.message).toMatch(/time limit of 0 ms/);

      // Without preflight, no gas limit above the block's.
      const tooMuch = await host
        .local(0, signedCommand({ code: "(+ 1 2)", gasLimit: 9_007_199_254_740_991 }), PLAIN)
        .then(() => undefined)
        .catch((e: unknown) => e);
      expect((tooMuch as { code?: string }).code).toBe("CMD_GAS_LIMIT");
      expect((tooMuch as Error).message).toMatch(/exceeds the block gas limit/);
    } finally {
      await host.close();
    }
  });

  it("runs a /local of a small gas limit on the calling thread, a larger one in a worker", async () => {
    let spawned = 0;
    const host = hostOn(x, {
      inlineLocalGasLimit: undefined,
      spawn: (settings) => {
        spawned++;
        return spawnExecWorker(settings);
      },
    });
    try {
      const small = await host.local(0, signedCommand({ code: "(+ 2 3)", gasLimit: 2_500 }), PLAIN);
      expect(resultOf(small)).toEqual({ status: "success", data: 5 });
      expect(spawned).toBe(0);
      const large = await host.local(0, signedCommand({ code: "(+ 2 3)", gasLimit: 2_501 }), PLAIN);
      expect(resultOf(large)).toEqual({ status: "success", data: 5 });
      expect(spawned).toBe(1);
      // A malformed command is refused before either path, as the worker would.
      await expect(host.local(0, { cmd: "{}" }, PLAIN)).rejects.toThrow(/hash/);
    } finally {
      await host.close();
    }
  });

  it("replaces a worker that stops, sends its request once more, and logs why", async () => {
    const logged: Logged[] = [];
    let spawned = 0;
    const host = hostOn(x, {
      log: recordingLog(logged),
      spawn: (settings) => {
        spawned++;
        if (spawned === 1) return new Worker("process.exit(3)", { eval: true });
        return spawnExecWorker(settings);
      },
    });
    try {
      const answer = await host.local(0, signedCommand({ code: "(+ 2 3)" }), PLAIN);
      expect(resultOf(answer)).toEqual({ status: "success", data: 5 });
      expect(spawned).toBe(2);
      const stopped = logged.find((l) => l.message.includes("worker stopped"));
      expect(stopped?.fields?.reason).toBe("exited with code 3");
      expect(host.inProcessOnly).toBe(false);
    } finally {
      await host.close();
    }
  });

  it("fails a request whose worker stops twice with EXEC_WORKER_FAILED; later ones run", async () => {
    let spawned = 0;
    const crashOnRequest = `
      const { parentPort } = require("node:worker_threads");
      parentPort.postMessage({ kind: "ready" });
      parentPort.on("message", () => process.exit(7));
    `;
    const host = hostOn(x, {
      workers: 1,
      spawn: (settings) => {
        spawned++;
        if (spawned <= 2) return new Worker(crashOnRequest, { eval: true });
        return spawnExecWorker(settings);
      },
    });
    try {
      const failed = await host
        .local(0, signedCommand({ code: "(+ 2 3)" }), PLAIN)
        .then(() => undefined)
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(ExecError);
      expect((failed as ExecError).code).toBe(ExecErrorCode.WorkerFailed);
      const next = await host.local(0, signedCommand({ code: "(+ 3 4)" }), PLAIN);
      expect(resultOf(next)).toEqual({ status: "success", data: 7 });
      expect(host.inProcessOnly).toBe(false);
    } finally {
      await host.close();
    }
  });

  it("runs in process, with an error logged, when workers cannot start", async () => {
    const logged: Logged[] = [];
    const host = hostOn(x, {
      log: recordingLog(logged),
      spawn: () => new Worker("throw new Error('no threads here')", { eval: true }),
    });
    try {
      const answer = await host.local(0, signedCommand({ code: "(+ 4 5)" }), PLAIN);
      expect(resultOf(answer)).toEqual({ status: "success", data: 9 });
      expect(host.inProcessOnly).toBe(true);
      expect(logged.some((l) => l.level === "error" && l.message.includes("cannot start"))).toBe(
        true,
      );
    } finally {
      await host.close();
    }
  });

  it("runs in process when no thread can be created at all", async () => {
    const host = hostOn(x, {
      spawn: () => {
        throw new Error("ERR_WORKER_INIT_FAILED");
      },
    });
    try {
      const answer = await host.local(0, signedCommand({ code: "(+ 5 5)" }), PLAIN);
      expect(resultOf(answer)).toEqual({ status: "success", data: 10 });
      expect(host.inProcessOnly).toBe(true);
    } finally {
      await host.close();
    }
  });

  it("rejects requests still running when it closes", async () => {
    const host = hostOn(x, {});
    const pending = host.local(0, signedCommand({ code: "(+ 1 1)" }), PLAIN).catch((e) => e);
    await host.close();
    const e = await pending;
    expect((e as ExecError).code).toBe(ExecErrorCode.ShuttingDown);
  });

  it("bounds each worker's heap, so that one runaway request stops its worker, not the node", async () => {
    const worker = spawnExecWorker({
      network: "test-singleton",
      statePath: join(x.dir, "state.sqlite"),
      blocksPath: join(x.dir, "blocks.sqlite"),
      nativeBinding: undefined,
      spvProofDepth: 20_000,
      commandTimeLimitMs: 10_000,
    });
    try {
      expect(worker.resourceLimits?.maxOldGenerationSizeMb).toBe(EXEC_WORKER_HEAP_MB);
    } finally {
      await worker.terminate();
    }
  });

  it("answers stale when the state does not hold the parent (snapshot executor)", () => {
    const state = StateDb.openReader({ path: join(x.dir, "state.sqlite") });
    const blocks = BlockStore.openReader(join(x.dir, "blocks.sqlite"));
    try {
      const snap = new SnapshotExecutor({ version: x.version, state, blocks, spvProofDepth: 10 });
      const head = x.executor.bestHead(0);
      const held = snap.local(head, signedCommand({ code: "(+ 1 2)" }), {
        preflight: false,
        signatureVerification: false,
      });
      expect(held).not.toBe(STALE);
      const elsewhere = { ...head, hash: x.executor.bestHead(1).hash };
      expect(
        snap.local(elsewhere, signedCommand({ code: "(+ 1 2)" }), {
          preflight: false,
          signatureVerification: false,
        }),
      ).toBe(STALE);
    } finally {
      state.close();
      blocks.close();
    }
  });

  it("in process, gives what the worker gives", async () => {
    const host = new InProcessExecution(x.executor);
    const answer = await host.local(0, signedCommand({ code: "(+ 20 22)" }), PLAIN);
    expect(resultOf(answer)).toEqual({ status: "success", data: 42 });
  });
});

describe("[store] marks of a storage that persists nothing", () => {
  it("restore takes back rows, tables and transaction ids committed after the mark", () => {
    const state = StateDb.open({ path: ":memory:" });
    try {
      const s = state.storage(0, {
        readLimit: NO_TXID_LIMIT,
        writeHeight: 1,
        nextTxId: 10,
        persist: false,
      });
      s.beginTx();
      s.writeRow("t", "a", { kind: "object", fields: new Map() } as never);
      s.commitTx();
      const mark = s.mark();
      s.beginTx();
      s.createUserTable("u", "m");
      s.writeRow("t", "b", { kind: "object", fields: new Map() } as never);
      s.writeRow("t", "a", { kind: "object", fields: new Map() } as never);
      s.commitTx();
      expect(s.keys("t")).toEqual(["a", "b"]);
      expect(s.userTableModule("u")).toBe("m");
      expect(s.txids("t", 0)).toEqual([10, 11]);
      s.restore(mark);
      expect(s.nextTxId).toBe(11);
      expect(s.keys("t")).toEqual(["a"]);
      expect(s.userTableModule("u")).toBeNull();
      expect(s.txids("t", 0)).toEqual([10]);
    } finally {
      state.close();
    }
  });
});
