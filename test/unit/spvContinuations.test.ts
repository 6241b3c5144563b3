/**
 * Continuations through /send, blocks and /local on a test-singleton chain
 * database with real execution: a cross-chain transfer finished on chain 1
 * with the proof from the SPV service (balances, events, /local preflight),
 * its replay failing as completed, the proof refused on another chain; and
 * same-chain defpacts continued without a proof (a step, a rollback, a
 * replay).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { continuation, crossChainTransfer } from "../support/crossChain.ts";
import { type ExecChain, openExecChain, signedCommand } from "../support/execChain.ts";

const RECEIVER_KEY = "b".repeat(64);
const RECEIVER = `k:${RECEIVER_KEY}`;

type Result = {
  result: { status: string; data?: unknown; error?: { message: string } };
  gas: number;
  events?: { name: string; params: unknown[]; module: { name: string } }[];
  continuation: { step: number; pactId: string } | null;
};

describe("[spv] continuations on a chain database", () => {
  let x: ExecChain;
  beforeAll(() => {
    x = openExecChain();
  });
  afterAll(() => x.close());

  const local = async (chainId: number, code: string): Promise<unknown> => {
    const out = await x.commands.local(chainId, signedCommand({ code, chainId }), {
      preflight: false,
      signatureVerification: true,
      rewindDepth: 0,
    });
    return (JSON.parse(out) as Result).result.data;
  };
  const result = (chainId: number, key: string): Result => {
    const found = x.executor.poll(chainId, [key], 0).get(key);
    if (found === undefined) throw new Error(`no result for ${key} on chain ${chainId}`);
    return JSON.parse(found) as Result;
  };
  const mineWith = async (chainId: number, key: string): Promise<Result> => {
    for (let i = 0; i < 5 && !x.state.hasResult(chainId, key); i++) await x.mine(chainId);
    return result(chainId, key);
  };

  it("finishes a cross-chain transfer on chain 1 with the /spv proof; a replay fails", async () => {
    const step0 = crossChainTransfer({
      from: 0,
      receiver: RECEIVER,
      receiverKeys: [RECEIVER_KEY],
      amount: "2.5",
      sourceChain: 0,
      targetChain: 1,
    });
    const before0 = Number(await local(0, '(coin.get-balance "sender00")'));
    x.commands.send(0, [step0]);
    const r0 = await mineWith(0, step0.hash);
    expect(r0.result.status).toBe("success");
    expect(r0.events?.map((e) => e.name)).toEqual([
      "TRANSFER",
      "TRANSFER_XCHAIN",
      "TRANSFER",
      "X_YIELD",
    ]);
    expect(Number(await local(0, '(coin.get-balance "sender00")'))).toBeCloseTo(
      before0 - 2.5 - r0.gas * 1e-8,
      10,
    );

    const proofAsked = x.commands.spv.proof(0, step0.hash, "1");
    for (let i = 0; i < 10 && !(await settledWithin(proofAsked, 0)); i++) await x.mine(1);
    const proof = await proofAsked;

    const cont = continuation({ pactId: step0.hash, step: 1, proof, chainId: 1 });
    // /local?preflight runs the continuation (proof checked against chain 1's head).
    const pre = JSON.parse(
      await x.commands.local(1, cont, {
        preflight: true,
        signatureVerification: true,
        rewindDepth: 0,
      }),
    ).preflightResult as Result;
    expect(pre.result).toEqual({ status: "success", data: "Write succeeded" });

    const payerBefore = Number(await local(1, '(coin.get-balance "sender01")'));
    x.commands.send(1, [cont]);
    const r1 = await mineWith(1, cont.hash);
    expect(r1.result).toEqual({ status: "success", data: "Write succeeded" });
    expect(r1.continuation?.step).toBe(1);
    expect(r1.continuation?.pactId).toBe(step0.hash);
    expect(r1.events?.map((e) => [e.module.name, e.name])).toEqual([
      ["coin", "TRANSFER"], // the fee
      ["coin", "TRANSFER"],
      ["coin", "TRANSFER_XCHAIN_RECD"],
      ["pact", "X_RESUME"],
    ]);
    expect(r1.events?.[1]?.params).toEqual(["", RECEIVER, 2.5]);
    expect(r1.events?.[2]?.params).toEqual(["", RECEIVER, 2.5, "0"]);
    expect(Number(await local(1, `(coin.get-balance "${RECEIVER}")`))).toBe(2.5);
    expect(Number(await local(1, '(coin.get-balance "sender01")'))).toBeCloseTo(
      payerBefore - r1.gas * 1e-8,
      10,
    );

    // The same proof again (another command): the defpact is completed on chain 1.
    const replay = continuation({ pactId: step0.hash, step: 1, proof, chainId: 1 });
    x.commands.send(1, [replay]);
    const again = await mineWith(1, replay.hash);
    expect(again.result.status).toBe("failure");
    expect(again.result.error?.message).toContain(`pact completed: ${step0.hash}`);
    expect(Number(await local(1, `(coin.get-balance "${RECEIVER}")`))).toBe(2.5);

    // On another chain the proof is refused before the defpact is looked at.
    const elsewhere = continuation({ pactId: step0.hash, step: 1, proof, chainId: 2 });
    const out = JSON.parse(
      await x.commands.local(2, elsewhere, {
        preflight: false,
        signatureVerification: true,
        rewindDepth: 0,
      }),
    ) as Result;
    expect(out.result.error?.message).toContain(
      "SPV verification failed: cannot redeem continuation proof on wrong target chain",
    );
  });

  it("continues same-chain defpacts without a proof: a step, a rollback, a replay", async () => {
    const deploy = signedCommand({
      code: `(namespace 'free)
        (module spv-pacts GOV
          (defcap GOV () true)
          (defpact two (n:integer)
            (step (yield {"n": (+ n 1)}))
            (step (resume {"n" := m} (* m 10))))
          (defpact undoable (n:integer)
            (step-with-rollback (+ n 1) "rolled back")
            (step "done")))`,
      gasLimit: 100_000,
    });
    x.commands.send(0, [deploy]);
    expect((await mineWith(0, deploy.hash)).result.status).toBe("success");

    const start = signedCommand({ code: "(free.spv-pacts.two 4)" });
    const undo = signedCommand({ code: "(free.spv-pacts.undoable 4)" });
    x.commands.send(0, [start, undo]);
    const started = await mineWith(0, start.hash);
    expect(started.result.data).toEqual({ n: { int: 5 } });
    expect(started.continuation?.step).toBe(0);
    expect(result(0, undo.hash).result.data).toBe(5); // a top-level integer is shown as a number

    const step1 = continuation({ pactId: start.hash, step: 1, chainId: 0 });
    const rollback = continuation({ pactId: undo.hash, step: 0, rollback: true, chainId: 0 });
    x.commands.send(0, [step1, rollback]);
    const done = await mineWith(0, step1.hash);
    expect(done.result).toEqual({ status: "success", data: 50 });
    expect(result(0, rollback.hash).result).toEqual({ status: "success", data: "rolled back" });

    const replay = continuation({ pactId: start.hash, step: 1, chainId: 0 });
    const afterRollback = continuation({ pactId: undo.hash, step: 1, chainId: 0 });
    x.commands.send(0, [replay, afterRollback]);
    const r = await mineWith(0, replay.hash);
    expect(r.result.error?.message).toContain(`pact completed: ${start.hash}`);
    expect(result(0, afterRollback.hash).result.error?.message).toContain(
      `pact completed: ${undo.hash}`,
    );
  });
});

/** True when `p` settles within `ms` (it keeps running otherwise). */
async function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  p.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await new Promise((r) => setTimeout(r, ms));
  return settled;
}
