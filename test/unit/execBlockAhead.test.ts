/**
 * Blocks executed ahead of their insert in an execution worker
 * (exec/insertExecutedAhead.ts, `WorkerExecution.prepareBlock`,
 * `SnapshotExecutor.executeBlock`, `ChainExecutor.offerPrepared`): the insert
 * writes exactly the rows, results and end id that executing the block in
 * place writes, rejects an invalid block with the same error, executes the
 * block itself when the state moved since, and leaves the event loop free
 * meanwhile.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { cutExtension } from "../../src-node/chain/cutExtension.ts";
import { newBlockHeader } from "../../src-node/chain/newBlockHeader.ts";
import { buildPayloadWithOutputs } from "../../src-node/chain/payloadWithOutputs.ts";
import type { ReadyCommand } from "../../src-node/exec/chainExecutor.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { insertExecutedAhead } from "../../src-node/exec/insertExecutedAhead.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { WorkerExecution } from "../../src-node/exec/workerExecution.ts";
import type { Block } from "../../src-node/store/blockDb.ts";
import { sql } from "../../src-node/store/sql.ts";
import {
  type ExecChain,
  openExecChain,
  signedCommand,
  transferCaps,
} from "../support/execChain.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

function ready(cmd: ReturnType<typeof signedCommand>): ReadyCommand {
  const command = nodeCommands.parseCommand(JSON.parse(JSON.stringify(cmd)));
  return { command, input: contractInputOf(command) };
}

function transfer(from: number, to: number, amount: string): ReadyCommand {
  const a = `sender0${from}`;
  const b = `sender0${to}`;
  return ready(
    signedCommand({
      code: `(coin.transfer "${a}" "${b}" ${amount})`,
      sender: a,
      signers: [{ key: from, caps: transferCaps(a, b, amount) }],
    }),
  );
}

/** Every row, table, result and block the state of `chainId` holds. */
function stateOf(x: ExecChain, chainId: number) {
  const rows = x.state.chainRows(chainId);
  const head = x.state.head(chainId);
  // Read from the table itself, so that the comparison misses nothing.
  const results = x.state.db.all(
    sql`SELECT request_key, height, block_hash, position, output FROM results
        WHERE chain_id = ${chainId} ORDER BY height, position`,
    (r) => r,
  );
  return { rows, head, results };
}

describe("[exec] blocks executed ahead in a worker", () => {
  let a: ExecChain;
  let b: ExecChain;
  let host: WorkerExecution;
  beforeAll(() => {
    a = openExecChain();
    b = openExecChain();
    host = new WorkerExecution({
      executor: a.executor,
      statePath: join(a.dir, "state.sqlite"),
      blocksPath: join(a.dir, "blocks.sqlite"),
      workers: 1,
    });
  });
  afterAll(async () => {
    await host.close();
    a.close();
    b.close();
  });
  const parts = () => ({ blocks: a.blocks, executor: a.executor, execution: host });
  /** The next block on chain 0, after empty blocks on the chains braiding needs first (inserted on both). */
  const nextOn0 = async (candidates: readonly ReadyCommand[]): Promise<Block> => {
    for (;;) {
      const ext = cutExtension(a.blocks.cut(), a.version, 0, (h) => a.blocks.header(h.parent));
      if (ext.status === "ready") return a.nextBlock(0, candidates);
      const other = a.nextBlock();
      await insertExecutedAhead(parts(), other);
      b.blocks.insertBlock(other);
    }
  };

  it("writes what executing the block in place writes: rows, tables, results, end id", async () => {
    const written = vi.spyOn(a.state, "insertChainRows");
    const module = ready(
      signedCommand({
        code: '(namespace "free") (module ahead G (defcap G () true) (defschema s v:integer) (deftable t:{s}) (defun put (k:string v:integer) (write t k {"v": v}))) (create-table t) (put "x" 1)',
        gasLimit: 100_000,
      }),
    );
    // Each block is built on the one before, once that one is inserted.
    const inserted: BlockHeader[] = [];
    for (const spec of [
      [transfer(0, 1, "1.5"), transfer(2, 3, "2.25"), module],
      // Fails and pays its gas: a failure's output, rows for the gas only.
      [ready(signedCommand({ code: '(+ 1 "a")' }))],
      [transfer(1, 0, "0.5"), ready(signedCommand({ code: '(free.ahead.put "y" 2)' }))],
    ]) {
      const block = await nextOn0(spec);
      const r = await insertExecutedAhead(parts(), block);
      expect(r.status).toBe("inserted");
      b.blocks.insertBlock(block);
      inserted.push(block.header);
    }
    // The rows came from the worker, not from executing the block here (other
    // chains' calls are the blocks braiding needed in between).
    expect(written.mock.calls.filter(([chainId]) => chainId === 0)).toHaveLength(3);
    // The genesis transactions' results come first.
    const results = (stateOf(a, 0).results as { output: string }[]).slice(-6);
    expect(results.map((r) => JSON.parse(r.output).result.status)).toEqual([
      "success",
      "success",
      "success",
      "failure",
      "success",
      "success",
    ]);
    expect(stateOf(a, 0)).toEqual(stateOf(b, 0));
    expect(stateOf(a, 0).rows.tables.map((t) => t.tbl)).toContain("free.ahead_t");
    expect(a.state.head(0)?.hash).toBe(inserted.at(-1)?.hash);
    written.mockRestore();
  });

  it("rejects a block whose output differs with the error executing it in place gives", async () => {
    const good = await nextOn0([transfer(3, 4, "1.0")]);
    const outputs = good.payload.transactions.map((t) => ({
      transaction: t.transaction,
      output: new TextEncoder().encode(
        new TextDecoder().decode(t.output).replace('"success"', '"failure"'),
      ),
    }));
    const payload = buildPayloadWithOutputs({ ...good.payload, transactions: outputs });
    const parent = a.blocks.header(good.header.parent) as BlockHeader;
    const header = newBlockHeader({
      version: a.version,
      parent,
      adjacentParents: good.header.adjacents.map((x) => a.blocks.header(x.hash) as BlockHeader),
      creationTime: good.header.creationTime,
      payloadHash: payload.payloadHash,
    });
    const forged = { header, payload };
    const before = stateOf(a, 0);
    const ahead = await insertExecutedAhead(parts(), forged).catch((e: unknown) => e);
    const inPlace = (() => {
      try {
        b.blocks.insertBlock(forged);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect((ahead as { code?: string }).code).toBe("EXEC_OUTPUT_MISMATCH");
    expect((ahead as Error).message).toBe((inPlace as Error).message);
    expect(a.blocks.header(header.hash)).toBeUndefined();
    expect(stateOf(a, 0)).toEqual(before);
  });

  it("executes the block itself when the state moved after the worker read it", async () => {
    const first = await nextOn0([transfer(5, 6, "1.0")]);
    const rival = a.nextBlock(0, [transfer(6, 5, "2.0")]);
    await host.prepareBlock(first);
    // The rival moves the state first; the prepared rows then no longer fit the state.
    expect((await insertExecutedAhead(parts(), rival)).status).toBe("inserted");
    b.blocks.insertBlock(rival);
    const written = vi.spyOn(a.state, "insertChainRows");
    expect(a.blocks.insertBlock(first).status).toBe("inserted");
    b.blocks.insertBlock(first);
    // first and rival share a parent: first is a fork block; the best cut
    // keeps one of them and the state follows the cut on both databases.
    expect(stateOf(a, 0)).toEqual(stateOf(b, 0));
    written.mockRestore();
  });
});

describe("[exec] a node inserting a block keeps its event loop free", () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await openTestNode({ executionWorkers: 1 });
  });
  afterAll(() => t.cleanup());

  it("answers /health-check while a block of many transfers executes", async () => {
    const node = t.node;
    const candidates = Array.from({ length: 120 }, (_, i) =>
      transfer(i % 9, (i % 9) + 1, `0.${String(i + 1).padStart(3, "0")}`),
    );
    const ext = cutExtension(node.blocks.cut(), node.version, 0, (h) =>
      node.blocks.header(h.parent),
    );
    if (ext.status !== "ready") throw new Error("chain 0 cannot be extended");
    const parent = ext.parent;
    const creationTime = Math.max(
      Date.now() * 1000,
      parent.creationTime + 1,
      ...ext.adjacentParents.map((x) => x.creationTime + 1),
    );
    const built = await node.execution.buildPayload(
      parent,
      { account: "miner", predicate: "keys-all", publicKeys: [] },
      candidates,
      Math.floor(creationTime / 1_000_000),
    );
    // As many as the block's gas limit takes.
    expect(built.included.length).toBeGreaterThan(50);
    const header = newBlockHeader({
      version: node.version,
      parent,
      adjacentParents: ext.adjacentParents,
      creationTime,
      payloadHash: built.payload.payloadHash,
    });
    const order: string[] = [];
    const inserting = node.insertBlock({ header, payload: built.payload }).then((r) => {
      order.push("insert");
      return r;
    });
    const health = await t.request("GET", "/health-check");
    order.push("health");
    expect(health.statusCode).toBe(200);
    expect((await inserting).status).toBe("inserted");
    expect(order).toEqual(["health", "insert"]);
    const key = built.included[0]?.hash as string;
    const polled = JSON.parse(node.commands.poll(0, [key], 0));
    expect(polled[key].result.status).toBe("success");
  });
});
