/**
 * Gas payers (src-node/exec/gasPayer.ts, `gasPayer` of runContractCommand):
 * a signer's GAS_PAYER capability acquired around buying gas, with the
 * enriched message data and the transaction's gas limit and price in chain
 * data. The shipped gas station pays for a cross-chain continuation (a proof
 * present; the SPV verifier is a mock here) and refuses everything else; the
 * payload itself still sees its own data; a GAS_PAYER of a module that does
 * not implement gas-payer-v1 is ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  Capability,
  CommandPayload,
  PayloadMessage,
} from "../../src-node/command/commandTypes.ts";
import { JsonNumber } from "../../src-node/command/exactJson.ts";
import type { SpvSupport } from "../../src-node/contract/eval/runtimeContext.ts";
import { type PactExec, pactExecFromJson } from "../../src-node/contract/storage/pactExec.ts";
import { parseJsonExact } from "../../src-node/contract/values/json.ts";
import { generateKeyPair } from "../../src-node/crypto/ed25519.ts";
import {
  type AppliedCommand,
  applyCommand,
  localCommand,
} from "../../src-node/exec/applyCommand.ts";
import { type BlockEnv, CHAIN_NAMESPACE_POLICY } from "../../src-node/exec/blockEnv.ts";
import { contractInputOf } from "../../src-node/exec/contractInput.ts";
import { gasPayerCapOf, gasPayerData } from "../../src-node/exec/gasPayer.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { NO_TXID_LIMIT } from "../../src-node/store/stateDb.ts";
import { type ExecChain, MINER, openExecChain, signedCommand } from "../support/execChain.ts";

const { buildCommand, parseCommand, signCommand } = nodeCommands;

const STATION = "xchain-gas";

type Result = {
  gas: number;
  result: { status: string; data?: unknown; error?: { message: string } };
  events?: { name: string; params: unknown[] }[];
  continuation: unknown;
};

function stationCap(limit = 1000, price = "0.00000001"): Capability {
  return {
    name: "gas-station.GAS_PAYER",
    args: ["receiver", { int: limit }, JsonNumber.of(price) as JsonNumber],
  };
}

/** A command signed by a fresh key (which owns no coins) with `caps`. */
function payerCommand(options: {
  payload: PayloadMessage;
  chainId: number;
  sender: string;
  caps: readonly Capability[];
  gasLimit?: number;
  gasPrice?: string;
}) {
  const key = generateKeyPair();
  const payload: CommandPayload = {
    payload: options.payload,
    meta: {
      chainId: String(options.chainId),
      sender: options.sender,
      gasLimit: options.gasLimit ?? 850,
      gasPrice: options.gasPrice ?? "0.00000001",
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 60,
    },
    signers: [{ pubKey: key.publicKey, clist: options.caps }],
    networkId: "test-singleton",
    nonce: `gas-payer-${Math.random()}`,
  };
  const unsigned = buildCommand(payload);
  const signed = signCommand(unsigned, payload.signers, [key]);
  return parseCommand(JSON.parse(JSON.stringify(signed)));
}

describe("[exec] gas payers", () => {
  let x: ExecChain;
  let sent: PactExec;
  let pactId: string;
  const receiver = `k:${generateKeyPair().publicKey}`;
  const receiverKeys = { keys: [receiver.slice(2)], pred: "keys-all" };

  /** Runs `f` on chain `chainId`'s best state with an SPV verifier that proves `sent`, then rolls back. */
  function onChain<T>(chainId: number, f: (env: BlockEnv) => T): T {
    const parent = x.executor.bestHead(chainId);
    return x.state.rolledBack(() => {
      const head = x.state.head(chainId);
      if (head === undefined) throw new Error("no state");
      const storage = x.state.storage(chainId, {
        readLimit: NO_TXID_LIMIT,
        writeHeight: parent.height + 1,
        nextTxId: head.endTxId,
      });
      const spv: SpvSupport = {
        verify: () => ({ ok: false, error: "unused" }),
        verifyContinuation: (proof) =>
          proof === "mock-proof" ? { ok: true, value: sent } : { ok: false, error: "bad proof" },
      };
      return f({
        version: x.version,
        chainId,
        parent,
        storage,
        namespacePolicy: CHAIN_NAMESPACE_POLICY,
        spv,
      });
    });
  }

  function read(env: BlockEnv, code: string): unknown {
    const cmd = parseCommand(JSON.parse(JSON.stringify(signedCommand({ code, chainId: 1 }))));
    const out = localCommand(env, cmd, contractInputOf(cmd), { preflight: false, miner: MINER });
    return (JSON.parse(out) as Result).result.data;
  }

  const cont = (proof: string | null, rollback = false): PayloadMessage => ({
    cont: { pactId, step: 1, rollback, data: null, proof },
  });

  beforeAll(async () => {
    x = openExecChain();
    const xfer = signedCommand({
      code: `(coin.transfer-crosschain "sender00" "${receiver}" (read-keyset "ks") "1" 5.0)`,
      data: { ks: receiverKeys },
      signers: [
        {
          key: 0,
          caps: [
            {
              name: "coin.TRANSFER_XCHAIN",
              args: ["sender00", receiver, JsonNumber.of("5.0") as JsonNumber, "1"],
            },
            { name: "coin.GAS", args: [] },
          ],
        },
      ],
    });
    x.commands.send(0, [xfer]);
    await x.mine(0);
    const polled = JSON.parse(x.commands.poll(0, [xfer.hash], 0)) as Record<string, Result>;
    const r = polled[xfer.hash] as Result;
    expect(r.result.status).toBe("success");
    const pe = pactExecFromJson(parseJsonExact(JSON.stringify(r.continuation)));
    if (pe === null) throw new Error("no continuation");
    sent = pe;
    pactId = xfer.hash;
  });
  afterAll(() => x.close());

  it("the gas station pays for a cross-chain continuation with a proof", () => {
    const cmd = payerCommand({
      payload: cont("mock-proof"),
      chainId: 1,
      sender: STATION,
      caps: [stationCap()],
    });
    onChain(1, (env) => {
      const before = read(env, `(coin.get-balance "${STATION}")`) as number;
      const r = applyCommand(env, cmd, contractInputOf(cmd), MINER);
      expect(r.kind, r.kind === "rejected" ? r.error.message : "").toBe("applied");
      const out = JSON.parse((r as AppliedCommand).output) as Result;
      expect(out.result).toEqual({ status: "success", data: "Write succeeded" });
      const fee = out.gas * 1e-8;
      // The fee is paid from the station to the miner; the receiver gets the coins.
      expect(out.events?.map((e) => [e.name, e.params[0], e.params[1]])).toEqual([
        ["TRANSFER", STATION, MINER.account],
        ["TRANSFER", "", receiver],
        ["TRANSFER_XCHAIN_RECD", "", receiver],
        ["X_RESUME", "0", "coin.transfer-crosschain"],
      ]);
      expect(out.events?.[0]?.params[2]).toBeCloseTo(fee, 12);
      expect(read(env, `(coin.get-balance "${receiver}")`)).toBe(5);
      expect(read(env, `(coin.get-balance "${STATION}")`) as number).toBeCloseTo(before - fee, 10);
    });
  });

  it("the gas station refuses other transactions", () => {
    const refusal = (cmd: ReturnType<typeof payerCommand>): string =>
      onChain(1, (env) => {
        const r = applyCommand(env, cmd, contractInputOf(cmd), MINER);
        return r.kind === "rejected" ? `${r.error.code}: ${r.error.message}` : "applied";
      });
    const base = { chainId: 1, sender: STATION, caps: [stationCap()] };
    expect(refusal(payerCommand({ ...base, payload: cont(null) }))).toMatch(
      /^CMD_BUY_GAS_FAILED: .*gas-station: only cross-chain continuations \(with a proof\) are paid for/,
    );
    expect(refusal(payerCommand({ ...base, payload: cont("mock-proof", true) }))).toContain(
      "gas-station: rollbacks are not paid for",
    );
    expect(
      refusal(payerCommand({ ...base, payload: cont("mock-proof"), gasLimit: 1001 })),
    ).toContain("gas-station: the gas limit must be at most 1000");
    expect(
      refusal(payerCommand({ ...base, payload: cont("mock-proof"), gasPrice: "0.00000002" })),
    ).toContain("gas-station: the gas price must be at most 0.00000001");
    const exec = { exec: { code: '(coin.get-balance "xchain-gas")', data: null } };
    expect(refusal(payerCommand({ ...base, payload: exec }))).toContain(
      "gas-station: only continuations are paid for",
    );
    // Without the GAS_PAYER signature the station's guard refuses.
    expect(refusal(payerCommand({ ...base, caps: [], payload: cont("mock-proof") }))).toContain(
      "require-capability: not granted: (gas-station.ALLOW_GAS)",
    );
  });

  it("/send refuses a command the station does not pay for (CMD_BUY_GAS_FAILED)", () => {
    const cmd = payerCommand({
      payload: { exec: { code: "(+ 1 2)", data: null } },
      chainId: 0,
      sender: STATION,
      caps: [stationCap()],
    });
    const r = x.executor.checkSubmission(0, cmd, Math.floor(Date.now() / 1000));
    expect(r.ok).toBe(false);
    const errors = r.ok ? [] : r.error;
    expect(errors.map((e) => e.code)).toEqual(["CMD_BUY_GAS_FAILED"]);
    expect(errors[0]?.message).toContain("gas-station: only continuations are paid for");
  });

  it("ignores a GAS_PAYER of a module that does not implement gas-payer-v1", () => {
    const cmd = parseCommand(
      JSON.parse(
        JSON.stringify(
          signedCommand({
            code: "(+ 1 2)",
            signers: [
              {
                key: 0,
                caps: [
                  { name: "coin.GAS", args: [] },
                  { name: "coin.GAS_PAYER", args: [] },
                  { name: "free.nothing-here.GAS_PAYER", args: [] },
                ],
              },
            ],
          }),
        ),
      ),
    );
    onChain(0, (env) => {
      const r = applyCommand(env, cmd, contractInputOf(cmd), MINER);
      expect(r.kind).toBe("applied");
      const out = JSON.parse((r as AppliedCommand).output) as Result;
      expect(out.result).toEqual({ status: "success", data: 3 });
      expect(out.events?.[0]?.params[0]).toBe("sender00");
    });
  });

  it("enriched data: compact exec code, user data, continuation fields", () => {
    const exec = parseCommand(
      JSON.parse(
        JSON.stringify(
          signedCommand({
            code: '(free.p.hello  "a" ; comment\n  1.50 [1, 2] {"k": 007})\n(+ 1 2)',
            data: { n: 1 },
            signers: [{ key: 0, caps: [stationCap()] }],
          }),
        ),
      ),
    );
    const input = contractInputOf(exec);
    expect(gasPayerCapOf(input.signers)?.name).toBe("gas-station.GAS_PAYER");
    const d = gasPayerData(input);
    expect(d.kind === "object" && [...d.fields.keys()].sort()).toEqual([
      "exec-code",
      "exec-user-data",
      "tx-type",
    ]);
    const fields = d.kind === "object" ? d.fields : new Map();
    expect(fields.get("exec-code")).toEqual({
      kind: "list",
      items: [
        { kind: "string", value: '(free.p.hello "a" 1.50 [1 , 2] {"k" : 7})' },
        { kind: "string", value: "(+ 1 2)" },
      ],
    });
    expect(fields.get("exec-user-data")).toEqual(input.data);
    const c = payerCommand({ payload: cont("p"), chainId: 1, sender: STATION, caps: [] });
    const cd = gasPayerData(contractInputOf(c));
    const cf = cd.kind === "object" ? cd.fields : new Map();
    expect([...cf.keys()].sort()).toEqual([
      "cont-has-proof",
      "cont-is-rollback",
      "cont-pact-id",
      "cont-step",
      "cont-user-data",
      "tx-type",
    ]);
    expect(cf.get("cont-step")).toEqual({ kind: "integer", value: 1n });
    expect(cf.get("cont-has-proof")).toEqual({ kind: "bool", value: true });
    expect(cf.get("cont-user-data")).toEqual({ kind: "object", fields: new Map() });
  });

  it("takes the first GAS_PAYER by signer key, then module name", () => {
    const cap = (name: string) => ({ name, args: [] });
    const signer = (pubKey: string, names: string[]) => ({
      pubKey,
      scheme: "ED25519" as const,
      caps: names.map(cap),
    });
    expect(
      gasPayerCapOf([
        signer("bb", ["coin.GAS", "a.GAS_PAYER"]),
        signer("aa", ["coin.TRANSFER", "z.GAS_PAYER", "ns.m.GAS_PAYER", "m.GAS_PAYER"]),
      ])?.name,
    ).toBe("m.GAS_PAYER");
    expect(gasPayerCapOf([signer("aa", ["coin.GAS", "GAS_PAYER", "a.b.c.GAS_PAYER"])])).toBeNull();
  });
});
