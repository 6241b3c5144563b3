/**
 * Block execution (src-node/exec/chainExecutor.ts) on test-singleton with the
 * real genesis: coinbase to the miner, transfers with TRANSFER-scoped
 * signatures, gas bought and redeemed (fee to the miner), failed payloads
 * charged in full, results by request key, /send's checks, blocks rejected
 * when their commands or outputs are wrong, /local at an earlier height,
 * /poll confirmation depth, and state kept consistent over restarts.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlockHeader } from "../../src-node/chain/blockHeader.ts";
import { newBlockHeader } from "../../src-node/chain/newBlockHeader.ts";
import { buildPayloadWithOutputs } from "../../src-node/chain/payloadWithOutputs.ts";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { logsHashOf } from "../../src-node/exec/commandResult.ts";
import type { Block } from "../../src-node/store/blockDb.ts";
import {
  devKey,
  type ExecChain,
  MINER,
  openExecChain,
  signedCommand,
  transferCaps,
} from "../support/execChain.ts";
import { tempDir } from "../support/testNode.ts";

const NO_CHECKS = { preflight: false, signatureVerification: false, rewindDepth: 0 };

/** /local's execution, on this thread (the service's host is async). */
function local(x: ExecChain, code: string, chainId = 0, rewindDepth = 0): unknown {
  const command = parseCommand(JSON.parse(JSON.stringify(signedCommand({ code, chainId }))));
  const answer = x.executor.local(chainId, command, { ...NO_CHECKS, rewindDepth });
  if (answer.kind !== "result") throw new Error("preflight failures without preflight");
  return (JSON.parse(answer.output) as { result: { data?: unknown; status: string } }).result;
}

function balance(x: ExecChain, account: string, chainId = 0, rewindDepth = 0): number {
  const r = local(x, `(coin.get-balance "${account}")`, chainId, rewindDepth) as {
    status: string;
    data: number;
  };
  return r.status === "success" ? r.data : Number.NaN;
}

type Result = {
  gas: number;
  result: { status: string; data?: unknown; error?: { message: string } };
  events?: { name: string; params: unknown[] }[];
  metaData: Record<string, unknown> | null;
  txId: number | null;
  logs: string | null;
};

function poll(x: ExecChain, keys: string[], depth = 0, chainId = 0): Record<string, Result> {
  return JSON.parse(x.commands.poll(chainId, keys, depth)) as Record<string, Result>;
}

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isNodeError(e)) {
      const failures = (e.type as { failures?: { error: { code: string } }[] }).failures;
      return failures?.[0]?.error.code ?? e.code;
    }
    throw e;
  }
  return "no error";
}

describe("[exec] block execution", () => {
  let x: ExecChain;
  beforeAll(() => {
    x = openExecChain();
  });
  afterAll(() => x.close());

  it("starts from the genesis state: funded test accounts", () => {
    expect(balance(x, "sender00")).toBe(1000000);
    expect(balance(x, devKey(3).kAccount, 5)).toBe(1000000);
  });

  it("executes a transfer: gas bought and redeemed, fee and reward to the miner", async () => {
    const miner = MINER.account;
    const before = { s0: balance(x, "sender00"), s1: balance(x, "sender01"), m: balance(x, miner) };
    const cmd = signedCommand({
      code: '(coin.transfer "sender00" "sender01" 1.0)',
      signers: [{ key: 0, caps: transferCaps("sender00", "sender01", "1.0") }],
    });
    expect(x.commands.send(0, [cmd])).toEqual([cmd.hash]);
    const h = await x.mine(0);
    const r = poll(x, [cmd.hash])[cmd.hash] as Result;
    expect(r.result).toEqual({ status: "success", data: "Write succeeded" });
    expect(r.gas).toBeGreaterThan(0);
    expect(r.txId).toBeTypeOf("number");
    expect(r.logs).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.metaData).toEqual({
      blockHeight: h.height,
      blockTime: h.creationTime,
      blockHash: h.hash,
      prevBlockHash: h.parent,
    });
    // The fee transfer comes first, then the payload's own event.
    expect(r.events?.map((e) => [e.name, e.params[0], e.params[1]])).toEqual([
      ["TRANSFER", "sender00", miner],
      ["TRANSFER", "sender00", "sender01"],
    ]);
    const fee = r.gas * 1e-8;
    expect(r.events?.[0]?.params[2]).toBeCloseTo(fee, 12);
    expect(balance(x, "sender01")).toBe(before.s1 + 1);
    expect(balance(x, "sender00")).toBeCloseTo(before.s0 - 1 - fee, 8);
    // Reward of test-singleton at height 1..: 24 / 10 chains, plus the fee.
    expect(balance(x, miner)).toBeCloseTo(before.m + 2.4 + fee, 8);
    // The mempool no longer holds it; sending it again is refused.
    expect(x.commands.mempool.size(0)).toBe(0);
    expect(codeOf(() => x.commands.send(0, [cmd]))).toBe("CMD_DUPLICATE");
  });

  it("charges the whole gas limit of a failed payload and keeps its writes out", async () => {
    const before = balance(x, "sender02");
    const cmd = signedCommand({
      code: '(coin.transfer "sender02" "sender03" 5.0) (enforce false "no")',
      sender: "sender02",
      gasLimit: 1000,
      signers: [{ key: 2 }],
    });
    x.commands.send(0, [cmd]);
    await x.mine(0);
    const r = poll(x, [cmd.hash])[cmd.hash] as Result;
    expect(r.result.status).toBe("failure");
    expect(r.result.error?.message).toContain("no");
    expect(r.gas).toBe(1000);
    expect(r.txId).toBeNull();
    // No write of the payload is kept: the hash of the empty write log (spec: logs is a string).
    expect(r.logs).toBe(logsHashOf([]));
    expect(balance(x, "sender02")).toBeCloseTo(before - 1000 * 1e-8, 8);
  });

  it("polls at a confirmation depth and runs /local some blocks back", async () => {
    const cmd = signedCommand({
      code: '(coin.transfer "sender04" "sender05" 2.0)',
      sender: "sender04",
      signers: [{ key: 4, caps: transferCaps("sender04", "sender05", "2.0") }],
    });
    const before = balance(x, "sender05", 1);
    x.commands.send(1, [signedCommand({ ...specOf(cmd), chainId: 1 })]);
    const chainOneCmd = x.commands.mempool.candidates(1)[0]?.command;
    expect(chainOneCmd).toBeDefined();
    const key = chainOneCmd?.hash as string;
    await x.mine(1);
    expect(Object.keys(poll(x, [key], 0, 1))).toEqual([key]);
    expect(poll(x, [key], 1, 1)).toEqual({});
    expect(balance(x, "sender05", 1)).toBe(before + 2);
    expect(balance(x, "sender05", 1, 1)).toBe(before);
    // Enough depth for the genesis state; deeper clamps at genesis.
    expect(balance(x, "sender05", 1, 1000)).toBe(1000000);
    await x.mine(1);
    expect(Object.keys(poll(x, [key], 1, 1))).toEqual([key]);
    expect(poll(x, [key, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"], 0, 1)).toHaveProperty(key);
  });

  it("refuses a batch with any bad command, naming its index, key and rule", () => {
    const good = signedCommand({ code: "(+ 1 2)" });
    const cases: [string, ReturnType<typeof signedCommand>][] = [
      ["CMD_WRONG_NETWORK", signedCommand({ code: "1", network: "development" })],
      ["CMD_WRONG_NETWORK", signedCommand({ code: "1", network: null })],
      ["CMD_WRONG_CHAIN", signedCommand({ code: "1", chainId: 1 })],
      ["CMD_GAS_LIMIT", signedCommand({ code: "1", gasLimit: 150001 })],
      ["CMD_GAS_PRICE_TOO_LOW", signedCommand({ code: "1", gasPrice: "0.000000001" })],
      ["CMD_GAS_PRICE_PRECISION", signedCommand({ code: "1", gasPrice: "0.0000000100001" })],
      ["CMD_BAD_TTL", signedCommand({ code: "1", ttl: 0 })],
      ["CMD_BAD_TTL", signedCommand({ code: "1", ttl: 172801 })],
      ["CMD_EXPIRED", signedCommand({ code: "1", creationTime: 1000, ttl: 600 })],
      [
        "CMD_FUTURE_CREATION_TIME",
        signedCommand({ code: "1", creationTime: Math.floor(Date.now() / 1000) + 3600 }),
      ],
      ["CMD_BUY_GAS_FAILED", signedCommand({ code: "1", sender: "nobody-here" })],
      ["CMD_BUY_GAS_FAILED", signedCommand({ code: "1", signers: [{ key: 1 }] })],
    ];
    for (const [code, bad] of cases) {
      let message = "";
      const got = codeOf(() => {
        try {
          x.commands.send(0, [good, bad]);
        } catch (e) {
          message = e instanceof Error ? e.message : "";
          throw e;
        }
      });
      expect(got, code).toBe(code);
      expect(message).toContain(`cmds[1] (request key "${bad.hash}")`);
      expect(message).not.toContain("cmds[0]");
    }
    // Nothing of a refused batch was taken.
    expect(x.commands.mempool.has(0, good.hash)).toBe(false);
    // A bad signature, a wrong hash, an unsigned slot.
    const sigs = [{ sig: "00".repeat(64) }];
    expect(codeOf(() => x.commands.send(0, [{ ...good, sigs }]))).toBe("CMD_BAD_SIGNATURE");
    expect(codeOf(() => x.commands.send(0, [{ ...good, hash: "A".repeat(43) }]))).toBe(
      "CMD_HASH_MISMATCH",
    );
    expect(codeOf(() => x.commands.send(0, [{ ...good, sigs: [] }]))).toBe("CMD_SIG_COUNT");
    // Pending duplicates are taken again without change.
    expect(x.commands.send(0, [good, good])).toEqual([good.hash, good.hash]);
    expect(x.commands.send(0, [good])).toEqual([good.hash]);
    expect(x.commands.mempool.size(0)).toBe(1);
    x.commands.mempool.remove(0, [good.hash]);
  });

  it("rejects blocks whose commands break a rule or whose outputs differ", async () => {
    const ready = x.nextBlock().header.chainId;
    const cmd = signedCommand({ code: "(+ 1 2)", chainId: ready });
    const parsed = parseCommand(JSON.parse(JSON.stringify(cmd)));
    const honest = x.nextBlock(undefined, [{ command: parsed, input: contractInput(parsed) }]);
    const chainId = honest.header.chainId;
    const built = { payload: honest.payload };
    expect(honest.payload.transactions.length).toBe(1);
    const blockOf = (payload: typeof built.payload): Block => ({
      header: newBlockHeader({
        version: x.version,
        parent: x.blocks.header(honest.header.parent) as BlockHeader,
        adjacentParents: honest.header.adjacents.map((a) => x.blocks.header(a.hash) as BlockHeader),
        creationTime: honest.header.creationTime,
        payloadHash: payload.payloadHash,
      }),
      payload,
    });
    const head = x.state.head(chainId);
    const tamper = (
      f: (p: typeof built.payload) => Parameters<typeof buildPayloadWithOutputs>[0],
    ) => blockOf(buildPayloadWithOutputs(f(built.payload)));
    const enc = new TextEncoder();
    const wrongOutput = tamper((p) => ({
      ...p,
      transactions: p.transactions.map((t) => ({ ...t, output: enc.encode("{}") })),
    }));
    expect(codeOf(() => x.blocks.insertBlock(wrongOutput))).toBe("EXEC_OUTPUT_MISMATCH");
    const wrongCoinbase = tamper((p) => ({ ...p, coinbase: enc.encode("{}") }));
    expect(codeOf(() => x.blocks.insertBlock(wrongCoinbase))).toBe("EXEC_OUTPUT_MISMATCH");
    const badSig = tamper((p) => ({
      ...p,
      transactions: p.transactions.map((t) => ({
        ...t,
        transaction: enc.encode(JSON.stringify({ ...cmd, sigs: [{ sig: "11".repeat(64) }] })),
      })),
    }));
    expect(codeOf(() => x.blocks.insertBlock(badSig))).toBe("EXEC_BLOCK_INVALID");
    const twice = tamper((p) => ({
      ...p,
      transactions: [...p.transactions, ...p.transactions],
    }));
    expect(codeOf(() => x.blocks.insertBlock(twice))).toBe("EXEC_BLOCK_INVALID");
    const notJson = tamper((p) => ({
      ...p,
      transactions: [{ transaction: enc.encode("nope"), output: enc.encode("{}") }],
    }));
    expect(codeOf(() => x.blocks.insertBlock(notJson))).toBe("EXEC_BLOCK_INVALID");
    // Nothing changed; the honest block is accepted.
    expect(x.state.head(chainId)).toEqual(head);
    expect(x.blocks.insertBlock(honest).status).toBe("inserted");
    expect(Object.keys(poll(x, [cmd.hash], 0, chainId))).toEqual([cmd.hash]);
  });
});

describe("[exec] state across restarts", () => {
  it("keeps state, re-executes a deleted state.sqlite and drops state ahead of the blocks", async () => {
    const dir = tempDir("weft-exec-restart-");
    try {
      let x = openExecChain({ dir });
      const cmd = signedCommand({
        code: '(coin.transfer "sender06" "sender07" 3.0)',
        sender: "sender06",
        signers: [{ key: 6, caps: transferCaps("sender06", "sender07", "3.0") }],
      });
      x.commands.send(0, [cmd]);
      await x.mine(0);
      await x.mine(0);
      const expected = balance(x, "sender07");
      expect(expected).toBe(1000003);
      x.close(true);

      x = openExecChain({ dir });
      expect(balance(x, "sender07")).toBe(expected);
      x.close(true);

      rmSync(join(dir, "state.sqlite"));
      rmSync(join(dir, "state.sqlite-wal"), { force: true });
      rmSync(join(dir, "state.sqlite-shm"), { force: true });
      x = openExecChain({ dir });
      expect(balance(x, "sender07")).toBe(expected);
      expect(Object.keys(poll(x, [cmd.hash]))).toEqual([cmd.hash]);

      // A block the state executed but blocks.sqlite never stored (a crash in between).
      const ahead = x.nextBlock();
      const c = ahead.header.chainId;
      const parentHash = ahead.header.parent;
      x.executor.executeBlock(ahead);
      expect(x.state.head(c)?.hash).toBe(ahead.header.hash);
      x.close(true);
      x = openExecChain({ dir });
      expect(x.state.head(c)?.hash).toBe(parentHash);
      expect(balance(x, "sender07")).toBe(expected);
      x.close(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import type { Command } from "../../src-node/command/commandTypes.ts";
import { contractInputOf as contractInput } from "../../src-node/exec/contractInput.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";

const { parseCommand } = nodeCommands;

/** The spec of a signed test command (to re-sign it for another chain). */
function specOf(cmd: Command): Parameters<typeof signedCommand>[0] {
  const p = parseCommand(cmd).payload;
  const code = "exec" in p.payload ? p.payload.exec.code : "";
  return {
    code,
    sender: p.meta.sender,
    gasLimit: p.meta.gasLimit,
    signers: [{ key: 4, caps: transferCaps("sender04", "sender05", "2.0") }],
  };
}
