/**
 * The mempool kept on disk (store/mempoolStore.ts, mempool/mempool.ts with a
 * store, CommandService.restorePending): accepted commands are written before
 * `add` returns, in arrival order, removals delete them, and a new service
 * over the same file takes back the valid ones and drops the expired, the
 * already mined and the unreadable.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ReadyCommand } from "../../src-node/exec/chainExecutor.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { CommandService } from "../../src-node/mempool/commandService.ts";
import { commandWireJson, Mempool } from "../../src-node/mempool/mempool.ts";
import { MempoolStore } from "../../src-node/store/mempoolStore.ts";
import { type ExecChain, openExecChain, signedCommand } from "../support/execChain.ts";
import { tempDir } from "../support/testNode.ts";

const { parseCommand } = nodeCommands;

function ready(gasPrice: string, nonce: string): ReadyCommand {
  const command = parseCommand(
    JSON.parse(JSON.stringify(signedCommand({ code: "1", gasPrice, nonce }))),
  );
  return { command, input: contractInputOf(command) };
}

const open: { close(): void }[] = [];
afterEach(() => {
  for (const o of open.splice(0).reverse()) o.close();
});

function store(path: string): MempoolStore {
  const s = MempoolStore.open({ path });
  open.push(s);
  return s;
}

describe("[mempool] the pending commands on disk", () => {
  it("writes each add before it returns, in arrival order, and deletes what leaves", () => {
    const path = join(tempDir("weft-mempool-"), "mempool.sqlite");
    const s = store(path);
    const m = new Mempool({ store: s });
    const a = ready("0.00000001", "a");
    const b = ready("0.00000002", "b");
    const c = ready("0.00000001", "c");
    m.add(0, [a, b]);
    m.add(0, [a]);
    m.add(1, [c]);
    // A second connection sees the rows: they are committed, not buffered.
    const other = store(path);
    expect(other.all()).toEqual([
      { chainId: 0, requestKey: a.command.hash, command: commandWireJson(a.command) },
      { chainId: 0, requestKey: b.command.hash, command: commandWireJson(b.command) },
      { chainId: 1, requestKey: c.command.hash, command: commandWireJson(c.command) },
    ]);
    // The stored text is a command /send takes.
    expect(parseCommand(JSON.parse(commandWireJson(b.command))).hash).toBe(b.command.hash);
    m.remove(0, [a.command.hash, "unknown"]);
    expect(other.all().map((r) => r.requestKey)).toEqual([b.command.hash, c.command.hash]);
    // A refused batch (full) writes nothing.
    const small = new Mempool({ store: s, limitPerChain: 1 });
    small.add(2, [ready("0.00000001", "d")]);
    expect(() => small.add(2, [ready("0.00000001", "e")])).toThrow(/full/);
    expect(other.count()).toBe(3);
  });
});

describe("[mempool] restoring the pending commands at start", () => {
  let chain: ExecChain | undefined;
  afterEach(() => {
    chain?.close();
    chain = undefined;
  });

  it("takes back the valid ones in arrival order; drops the expired, the mined and the unreadable", async () => {
    chain = openExecChain();
    const path = join(chain.dir, "mempool.sqlite");
    const s1 = store(path);
    const nowUs = Date.now() * 1000;
    const first = new CommandService({
      executor: chain.executor,
      blocks: chain.blocks,
      mempool: new Mempool({ store: s1 }),
      now: () => nowUs,
    });
    const nowS = Math.floor(nowUs / 1_000_000);
    const keep1 = signedCommand({ code: "(+ 1 1)", gasPrice: "0.00000001" });
    const expiring = signedCommand({ code: "(+ 1 2)", creationTime: nowS - 60, ttl: 120 });
    const mined = signedCommand({ code: "(+ 1 3)" });
    const keep2 = signedCommand({ code: "(+ 1 4)", gasPrice: "0.00000002" });
    const keys = first.send(
      0,
      [keep1, expiring, mined, keep2].map((c) => JSON.parse(JSON.stringify(c))),
    );
    expect(s1.count()).toBe(4);
    // The first service stops (as a killed node would) before it sees the block.
    first.close();
    const minedReady = first.mempool.candidates(0).find((r) => r.command.hash === keys[2]);
    if (minedReady === undefined) throw new Error("mined command not pending");
    const block = chain.nextBlock(0, [minedReady]);
    chain.blocks.insertBlock(block);
    expect(chain.executor.poll(0, [keys[2] ?? ""], 0).size).toBe(1);
    s1.add(0, [{ requestKey: "x".repeat(43), command: "{not json" }]);
    expect(s1.count()).toBe(5);

    // Two minutes later: `expiring` is past its ttl.
    const later = nowUs + 120_000_000;
    const s2 = store(path);
    const second = new CommandService({
      executor: chain.executor,
      blocks: chain.blocks,
      mempool: new Mempool({ store: s2 }),
      now: () => later,
    });
    open.push(second);
    expect(second.restorePending(s2)).toEqual({ restored: 2, dropped: 3 });
    expect(second.mempool.candidates(0).map((r) => r.command.hash)).toEqual([keys[3], keys[0]]);
    expect(s2.all().map((r) => r.requestKey)).toEqual([keys[0], keys[3]]);
    // Restoring again changes nothing (idempotent adds keep their rows).
    expect(second.restorePending(s2)).toEqual({ restored: 2, dropped: 0 });
    expect(s2.all().map((r) => r.requestKey)).toEqual([keys[0], keys[3]]);
    // A block of the best chain holding them removes them from disk too.
    chain.commands.mempool.add(0, second.mempool.candidates(0));
    await chain.mine(0);
    expect(second.mempool.size(0)).toBe(0);
    expect(s2.count()).toBe(0);
  });
});
