/**
 * The wall-clock limit (exec/timeLimit.ts): a step meter that aborts an
 * evaluation past its time with EXEC_TIME_LIMIT, which the contract
 * language's boundary passes through untouched (it is no contract failure,
 * so no block can hold it) and after which nothing of the run stays.
 */
import { describe, expect, it } from "vitest";
import { defaultChainData } from "../../src-node/contract/eval/runtimeContext.ts";
import { runContractCommand } from "../../src-node/contract/execute.ts";
import { createMemoryStorage } from "../../src-node/contract/storage/memoryStorage.ts";
import { makeObject } from "../../src-node/contract/values/value.ts";
import { ExecErrorCode } from "../../src-node/exec/errors.ts";
import { isTimeLimit, TimedStepMeter } from "../../src-node/exec/timeLimit.ts";

const LOOP = "(fold (lambda (a x) (+ a x)) 0 (enumerate 1 100000))";

function run(code: string, meter?: TimedStepMeter) {
  const storage = createMemoryStorage();
  const out = () =>
    runContractCommand({
      payload: { kind: "exec", code },
      data: makeObject([]),
      signers: [],
      chainData: defaultChainData,
      txHash: "tx",
      storage,
      gasLimit: 1_000_000,
      namespacePolicy: { kind: "simple" },
      meter,
    });
  return { storage, out };
}

describe("[exec] the wall-clock limit of a command", () => {
  it("aborts a run past its time with EXEC_TIME_LIMIT, rolling the storage transaction back", () => {
    const { storage, out } = run(LOOP, new TimedStepMeter(0));
    let thrown: unknown;
    try {
      out();
    } catch (e) {
      thrown = e;
    }
    expect(isTimeLimit(thrown)).toBe(true);
    expect((thrown as { code: string }).code).toBe(ExecErrorCode.TimeLimit);
    expect((thrown as Error).message).toMatch(/time limit of 0 ms/);
    // The transaction was rolled back: a new one can begin.
    expect(() => storage.beginTx()).not.toThrow();
  });

  it("changes nothing for a run within its time", () => {
    const timed = run(LOOP, new TimedStepMeter(600_000)).out();
    const plain = run(LOOP).out();
    expect(timed.result).toEqual(plain.result);
    expect(timed.gasUsed).toBe(plain.gasUsed);
  });
});
