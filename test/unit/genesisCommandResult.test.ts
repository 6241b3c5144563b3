/**
 * The command result JSON (src-node/exec/commandResult.ts) that genesis
 * outputs and block outputs carry: the reference's key order, the
 * reference's "no coinbase" output reproduced byte for byte, lenient
 * top-level integers, failures, events, defpact state and the logs hash.
 */
import { describe, expect, it } from "vitest";
import { NO_COINBASE_OUTPUT } from "../../src-node/chain/genesisPayload.ts";
import { developmentVersion } from "../../src-node/chain/versions.ts";
import type { PactError } from "../../src-node/contract/errors.ts";
import { runContractCommand } from "../../src-node/contract/execute.ts";
import { createMemoryStorage } from "../../src-node/contract/storage/memoryStorage.ts";
import { makeObject, pString } from "../../src-node/contract/values/value.ts";
import { blake2b256 } from "../../src-node/crypto/blake2.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import {
  type CommandResultParts,
  commandResultOf,
  commandResultText,
  logsHashOf,
  readCommandResult,
  resultJsonText,
  writeCommandResult,
} from "../../src-node/exec/commandResult.ts";
import { genesisChainData } from "../../src-node/genesis/runGenesis.ts";

const base: CommandResultParts = {
  reqKey: "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g",
  gas: 0,
  result: { ok: true, value: pString("NO_COINBASE") },
  logs: null,
  events: [],
  metaData: null,
  continuation: null,
  txId: null,
};

/** Runs `code` as a command on development's chain 0 at genesis. */
function runAtGenesis(
  code: string,
  storage = createMemoryStorage(),
): ReturnType<typeof runContractCommand> {
  return runContractCommand({
    payload: { kind: "exec", code },
    data: makeObject([]),
    signers: [],
    chainData: genesisChainData(developmentVersion, 0),
    txHash: "pact-id-0000000000000000000000000000000000",
    gasLimit: 1_000_000,
    gasModel: { kind: "fixed", rate: 0 },
    namespacePolicy: { kind: "simple" },
    storage,
  });
}

describe("[exec] command result JSON", () => {
  it("reproduces the reference's no-coinbase output byte for byte", () => {
    expect(commandResultText(base)).toBe(NO_COINBASE_OUTPUT);
  });

  it("shows a top-level integer as a decimal, nested integers as {int}", () => {
    expect(resultJsonText({ ok: true, value: { kind: "integer", value: 3n } })).toBe(
      '{"status":"success","data":3}',
    );
    expect(
      resultJsonText({
        ok: true,
        value: { kind: "list", items: [{ kind: "integer", value: 3n }] },
      }),
    ).toBe('{"status":"success","data":[{"int":3}]}');
  });

  it("writes failures as {callStack, type, message, info}", () => {
    const error: PactError = {
      kind: "TxFailure",
      message: 'coin: "x"',
      span: { file: "tx", line: 2, column: 4, offset: 10, end: 12 },
      callStack: ["tx:1:0: coin.transfer"],
    };
    expect(resultJsonText({ ok: false, error })).toBe(
      '{"status":"failure","error":{"callStack":["tx:1:0: coin.transfer"],"type":"TxFailure","message":"coin: \\"x\\"","info":"tx:2:4"}}',
    );
  });

  it("carries events, logs, the defpact state and the txId of a real run", () => {
    const code =
      '(module m G (defcap G () true) (defcap E (n:integer) @event true) (defschema s v:integer) (deftable t:{s}) (defun f () (with-capability (E 1) (write t "k" {"v": 1}))) (defpact p () (step (yield {"a": 1})) (step (resume {"a" := a} a)))) (create-table t) (f) (p)';
    const storage = createMemoryStorage();
    const out = runAtGenesis(code, storage);
    expect(out.result.ok).toBe(true);
    const parts = commandResultOf("req", out);
    const json = JSON.parse(commandResultText(parts)) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual([
      "gas",
      "result",
      "reqKey",
      "logs",
      "events",
      "metaData",
      "continuation",
      "txId",
    ]);
    expect(json.events).toEqual([
      {
        params: [{ int: 1 }],
        name: "E",
        module: { namespace: null, name: "m" },
        moduleHash: (storage.readSys("modules", "m") as { hash: string }).hash,
      },
    ]);
    expect(json.logs).toBe(logsHashOf(out.logs));
    expect(json.txId).toBe(out.txId);
    expect(json.continuation).toMatchObject({
      step: 0,
      stepCount: 2,
      yield: { data: { a: { int: 1 } } },
    });
  });

  it("hashes the write log's JSON for logs, and shows null when nothing was committed", () => {
    const writes = [{ table: "t", key: "k", value: '{"v":{"int":1}}' }];
    expect(logsHashOf(writes)).toBe(
      base64UrlEncode(blake2b256('[{"table":"t","key":"k","value":{"v":{"int":1}}}]')),
    );
    expect(JSON.parse(commandResultText({ ...base, logs: writes })).logs).toBe(logsHashOf(writes));
    expect(commandResultText(base)).toContain('"logs":null');
  });

  it("leaves events out when there are none and writes metaData", () => {
    expect(commandResultText({ ...base, metaData: { blockHeight: 1 } })).toContain(
      '"logs":null,"metaData":{"blockHeight":1},',
    );
    expect(commandResultText(base)).not.toContain("events");
  });

  it("reads a written result back part by part, to the same text (what /poll adds metaData to)", () => {
    const code =
      '(module m G (defcap G () true) (defcap E (s:string) @event true) (defschema s v:integer) (deftable t:{s}) (defun f () (with-capability (E "a\\"b") (write t "k" {"v": 1}))) (defpact p () (step (yield {"a": 1.50})) (step (resume {"a" := a} a)))) (create-table t) (f) (p)';
    const out = runAtGenesis(code);
    expect(out.result.ok).toBe(true);
    const real = commandResultOf("req", out);
    expect(real.events.length).toBe(1);
    for (const parts of [base, real, { ...base, logs: [] }]) {
      const text = commandResultText(parts);
      expect(writeCommandResult(readCommandResult(text))).toBe(text);
    }
    const polled = writeCommandResult({
      ...readCommandResult(commandResultText(real)),
      metaData: { blockHeight: 7, blockHash: "x" },
    });
    expect(JSON.parse(polled)).toEqual({
      ...JSON.parse(commandResultText(real)),
      metaData: { blockHeight: 7, blockHash: "x" },
    });
    expect(polled).toContain('"metaData":{"blockHeight":7,"blockHash":"x"},"continuation":{');
    expect(() => readCommandResult('{"gas":1}')).toThrow(
      expect.objectContaining({ code: "EXEC_INVARIANT" }),
    );
    expect(() => readCommandResult("[1]")).toThrow(
      expect.objectContaining({ code: "EXEC_INVARIANT" }),
    );
  });
});
