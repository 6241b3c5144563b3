/**
 * The wallet's cross-chain transfers (docs/wallet.md "Cross-chain transfers"): the pending
 * transfer's state machine on every path (success, step 1 failed, not a cross-chain step,
 * proof refused, continuation finished elsewhere, expired proof, refused, duplicate send,
 * Retry), the driver against a scripted node (each answer becomes the right state; a node
 * that does not answer changes nothing), the persisted file's parser, and the whole flow
 * against a real node (test-singleton through `inject()`): step 1 built by the transfer
 * command, driven to Done with the gas station paying, the receiver credited exactly; a
 * second continuation of the same transfer ends Done "already finished", never an error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClientResult } from "../../renderer/src/api/clientError.ts";
import type { CommandResultView } from "../../renderer/src/api/commandResult.ts";
import type { FetchLike } from "../../renderer/src/api/nodeClient.ts";
import { createNodeClient } from "../../renderer/src/api/nodeClient.ts";
import { createPactClient, type PactClient } from "../../renderer/src/api/pactClient.ts";
import { readAccounts } from "../../renderer/src/features/wallet/accounts/readAccounts.ts";
import {
  type AdvanceDeps,
  advanceWithNode,
  CONTINUATION_GAS_LIMIT,
  GAS_STATION_ACCOUNT,
} from "../../renderer/src/features/wallet/crosschain/advancePending.ts";
import {
  parsePendingAnswer,
  pendingFileOf,
} from "../../renderer/src/features/wallet/crosschain/pendingFile.ts";
import {
  advance,
  isActive,
  newPending,
  stateText,
} from "../../renderer/src/features/wallet/crosschain/pendingTransfer.ts";
import {
  transferCode,
  transferPayload,
} from "../../renderer/src/features/wallet/transfer/transferCommand.ts";
import { commandModel } from "../../src-node/command/commandModel.ts";
import { JsonNumber } from "../../src-node/command/exactJson.ts";
import { DEV_ACCOUNT_KEYS } from "../../src-node/genesis/devAccountKeys.ts";
import type { PendingTransfer } from "../../src-node/walletFiles/pendingFile.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const KEY = "A".repeat(43);
const CONT = { cmd: "{}", hash: "B".repeat(43), sigs: [{ sig: "ab".repeat(64) }] };

const fresh = (): PendingTransfer =>
  newPending({
    requestKey: KEY,
    sourceChain: 0,
    targetChain: 3,
    sender: "k:a",
    receiver: "k:b",
    amount: "1.5",
    createdAt: 1,
  });

describe("[renderer] the pending cross-chain transfer's state machine", () => {
  it("goes Sent on chain A → Waiting for the proof → Finishing on chain B → Done", () => {
    let p = fresh();
    expect(stateText(p)).toBe("Sent on chain 0");
    p = advance(p, { kind: "step1-pending" });
    expect(p.phase).toBe("sent");
    p = advance(p, { kind: "step1-succeeded" });
    expect(stateText(p)).toBe("Waiting for the proof");
    p = advance(p, { kind: "proof-waiting" });
    expect(p.phase).toBe("proof");
    p = advance(p, { kind: "proof", continuation: CONT });
    expect(stateText(p)).toBe("Finishing on chain 3");
    expect(p.continuation).toEqual(CONT);
    p = advance(p, { kind: "cont-sent" });
    expect(p.continuationSent).toBe(true);
    p = advance(p, { kind: "cont-pending" });
    p = advance(p, { kind: "cont-succeeded" });
    expect(stateText(p)).toBe("Done");
    expect(isActive(p)).toBe(false);
  });

  it("a failed step 1 needs attention with the node's message; Retry polls it again", () => {
    const p = advance(fresh(), { kind: "step1-failed", message: "Insufficient funds" });
    expect(p.phase).toBe("attention");
    expect(stateText(p)).toMatch(/^Needs attention: Step 1 failed on chain 0: Insufficient funds/);
    expect(advance(p, { kind: "retry" }).phase).toBe("sent");
  });

  it("a transaction that is not a cross-chain step 1 needs attention", () => {
    const p = advance(fresh(), { kind: "step1-not-crosschain" });
    expect(stateText(p)).toMatch(/not the first step of a cross-chain transfer/);
  });

  it("a refused proof needs attention; Retry asks for the proof again", () => {
    const p0 = advance(fresh(), { kind: "step1-succeeded" });
    const p = advance(p0, { kind: "proof-failed", message: "Transaction hash not found" });
    expect(stateText(p)).toMatch(/^Needs attention: The node could not give the proof/);
    expect(advance(p, { kind: "retry" }).phase).toBe("proof");
  });

  const finishing = () =>
    advance(advance(fresh(), { kind: "step1-succeeded" }), { kind: "proof", continuation: CONT });

  it("a continuation already finished (by anyone) is Done, not an error", () => {
    for (const kind of ["cont-failed", "cont-send-failed"] as const) {
      const p = advance(finishing(), { kind, message: "resumePact: pact completed: AAA" });
      expect(p.phase).toBe("done");
      expect(stateText(p)).toBe("Done (Already finished on chain 3 by another continuation.)");
    }
  });

  it("an expired proof needs attention; Retry asks for a new proof and drops the old command", () => {
    const p = advance(finishing(), {
      kind: "cont-failed",
      message:
        "SPV verification failed: target header is not in the chain or is out of bounds (…: the proof has expired)",
    });
    expect(stateText(p)).toBe(
      "Needs attention: The proof has expired on chain 3; Retry asks for a new one.",
    );
    const r = advance(p, { kind: "retry" });
    expect(r.phase).toBe("proof");
    expect(r.continuation).toBeNull();
    expect(r.reason).toBeNull();
  });

  it("a duplicate /send (already in a block) is polled, not an error", () => {
    const p = advance(finishing(), {
      kind: "cont-send-failed",
      message: "Validation failed: transaction already on chain",
    });
    expect(p.phase).toBe("finishing");
    expect(p.continuationSent).toBe(true);
  });

  it("another refusal of the continuation needs attention with the message; Retry resends it", () => {
    const p = advance(finishing(), { kind: "cont-send-failed", message: "gas-station: no" });
    expect(stateText(p)).toBe("Needs attention: Chain 3 refused the second step: gas-station: no");
    const r = advance(p, { kind: "retry" });
    expect(r.phase).toBe("finishing");
    expect(r.continuation).toEqual(CONT);
    // A continuation that failed in a block gets a new proof and command on Retry.
    const q = advance(finishing(), { kind: "cont-failed", message: "boom" });
    expect(advance(q, { kind: "retry" }).phase).toBe("proof");
  });

  it("ignores events that do not belong to the phase, and Retry outside attention", () => {
    const p = fresh();
    expect(advance(p, { kind: "cont-succeeded" })).toBe(p);
    expect(advance(p, { kind: "retry" })).toBe(p);
    const done = advance(finishing(), { kind: "cont-succeeded" });
    expect(advance(done, { kind: "step1-failed", message: "x" })).toBe(done);
  });
});

/** A scripted node: each method answers from the given function. */
function scripted(over: Partial<AdvanceDeps["pact"]>): AdvanceDeps {
  const unused = () => Promise.reject(new Error("not expected"));
  return {
    pact: { poll: unused, spv: unused, local: unused, send: unused, ...over },
    networkId: "test-singleton",
    nowSeconds: () => 1_800_000_000,
    randomSecret: () => "11".repeat(32),
  };
}

const result = (reqKey: string, ok: boolean, continuation: unknown = null): CommandResultView => ({
  reqKey,
  gas: 100,
  outcome: ok ? { ok: true, data: "Write succeeded" } : { ok: false, message: "nope", type: null },
  blockHeight: 5,
  blockHash: "h",
  continuation: continuation as CommandResultView["continuation"],
});
const ok = <T>(value: T): Promise<ClientResult<T>> => Promise.resolve({ ok: true, value });
const down = <T>(): Promise<ClientResult<T>> =>
  Promise.resolve({ ok: false, error: { code: "CLIENT_UNREACHABLE", url: "u", detail: "d" } });
const http = <T>(message: string): Promise<ClientResult<T>> =>
  Promise.resolve({
    ok: false,
    error: { code: "CLIENT_HTTP_STATUS", url: "u", status: 400, nodeCode: null, message },
  });
const yielding = (target: string) => ({ yield: { provenance: { targetChainId: target } } });

describe("[renderer] the pending transfer's driver against a scripted node", () => {
  it("step 1: pending, succeeded towards the target, towards another chain, failed, no answer", async () => {
    const at = (r: CommandResultView | null) =>
      scripted({ poll: () => ok(new Map(r === null ? [] : [[KEY, r]])) });
    expect((await advanceWithNode(fresh(), at(null))).phase).toBe("sent");
    expect((await advanceWithNode(fresh(), at(result(KEY, true, yielding("3"))))).phase).toBe(
      "proof",
    );
    expect(stateText(await advanceWithNode(fresh(), at(result(KEY, true, yielding("4")))))).toMatch(
      /not the first step/,
    );
    expect(stateText(await advanceWithNode(fresh(), at(result(KEY, false))))).toMatch(
      /Step 1 failed.*nope/,
    );
    const p = fresh();
    expect(await advanceWithNode(p, scripted({ poll: down }))).toBe(p);
  });

  it("proof: waits while the target chain is too young, builds the gas station's continuation", async () => {
    const p = advance(fresh(), { kind: "step1-succeeded" });
    const young = scripted({
      spv: () =>
        http(
          "SPV target not reachable: target chain not reachable. Chainweb instance is too young",
        ),
    });
    expect(await advanceWithNode(p, young)).toBe(p);
    expect(
      stateText(
        await advanceWithNode(p, scripted({ spv: () => http("Transaction hash not found") })),
      ),
    ).toMatch(/could not give the proof: Transaction hash not found/);

    const q = await advanceWithNode(p, scripted({ spv: () => ok("PROOF") }));
    expect(q.phase).toBe("finishing");
    const c = q.continuation;
    if (c === null) throw new Error("no continuation");
    expect(c.hash).toBe(commandModel.requestKeyOf(c.cmd));
    const parsed = commandModel.parseCommand({ ...c, sigs: c.sigs });
    commandModel.verifyCommandSignatures(parsed);
    const cmd = JSON.parse(c.cmd);
    expect(cmd.payload).toEqual({
      cont: { pactId: KEY, step: 1, rollback: false, data: {}, proof: "PROOF" },
    });
    expect(cmd.meta).toMatchObject({
      chainId: "3",
      sender: GAS_STATION_ACCOUNT,
      gasLimit: CONTINUATION_GAS_LIMIT,
      gasPrice: 1e-8,
    });
    expect(cmd.signers).toEqual([
      {
        pubKey: commandModel.publicKeyOf("11".repeat(32)),
        clist: [{ name: "gas-station.GAS_PAYER", args: ["k:b", { int: 850 }, 1e-8] }],
      },
    ]);
  });

  it("finishing: a dry run first; finished elsewhere → Done; sent once, then only polled", async () => {
    const p = advance(advance(fresh(), { kind: "step1-succeeded" }), {
      kind: "proof",
      continuation: CONT,
    });
    const none = () => ok(new Map<string, CommandResultView>());
    const finished = await advanceWithNode(
      p,
      scripted({
        poll: none,
        local: () =>
          ok({
            ...result(CONT.hash, false),
            outcome: { ok: false, message: "resumePact: pact completed: x", type: null },
          }),
      }),
    );
    expect(finished.phase).toBe("done");

    let sends = 0;
    const sending = scripted({
      poll: none,
      local: () => ok(result(CONT.hash, true)),
      send: () => {
        sends++;
        return ok([CONT.hash]);
      },
    });
    const sent = await advanceWithNode(p, sending);
    expect(sent.continuationSent).toBe(true);
    expect(await advanceWithNode(sent, sending)).toBe(sent);
    expect(sends).toBe(1);
    const done = await advanceWithNode(
      sent,
      scripted({ poll: () => ok(new Map([[CONT.hash, result(CONT.hash, true)]])) }),
    );
    expect(stateText(done)).toBe("Done");
    expect(await advanceWithNode(p, scripted({ poll: none, local: down }))).toBe(p);
  });
});

describe("[renderer] the pending transfers' file", () => {
  it("round-trips, answers none before the first save, and names what is wrong", () => {
    const file = pendingFileOf([fresh()]);
    const back = parsePendingAnswer(JSON.parse(JSON.stringify({ pending: file })));
    expect(back).toEqual({ ok: true, value: [fresh()] });
    expect(parsePendingAnswer({ pending: null })).toEqual({ ok: true, value: [] });
    const bad = parsePendingAnswer({
      pending: { ...file, transfers: [{ ...fresh(), phase: "lost" }] },
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain("pending.transfers[0].phase");
  });

  it("keeps every unfinished transfer and the newest finished ones, newest first", () => {
    const many = Array.from({ length: 250 }, (_, i) => ({
      ...fresh(),
      requestKey: String(i).padStart(43, "k"),
      createdAt: i,
      phase: i === 0 ? ("sent" as const) : ("done" as const),
    }));
    const kept = pendingFileOf(many).transfers;
    expect(kept).toHaveLength(200);
    expect(kept[0]?.createdAt).toBe(249);
    expect(kept.some((t) => t.createdAt === 0)).toBe(true);
  });
});

describe("[renderer] a cross-chain transfer against a real node", () => {
  const S0 = DEV_ACCOUNT_KEYS[0];
  if (S0 === undefined) throw new Error("no dev accounts");
  const K0 = `k:${S0.publicKey}`;
  const receiverSecret = "22".repeat(32);
  const receiverKey = commandModel.publicKeyOf(receiverSecret);
  const receiver = `k:${receiverKey}`;
  let t: TestNode;
  let pact: PactClient;

  function injectFetch(): FetchLike {
    return async (url, init) => {
      const u = new URL(url);
      const res = await t.node.server.inject({
        method: init.method,
        url: `${u.pathname}${u.search}`,
        headers: { host: "127.0.0.1:1848", ...(init.headers ?? {}) },
        ...(init.body === undefined ? {} : { payload: init.body }),
      });
      return {
        ok: res.statusCode >= 200 && res.statusCode < 300,
        status: res.statusCode,
        headers: { get: (name: string) => String(res.headers[name.toLowerCase()] ?? "") || null },
        text: () => Promise.resolve(res.body),
      };
    };
  }

  beforeAll(async () => {
    t = await openTestNode();
    pact = createPactClient(
      createNodeClient({ origin: "http://127.0.0.1:1848", basePath: t.base, fetch: injectFetch() }),
    );
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  const balance = async (chainId: number, account: string) => {
    const [a] = await readAccounts(pact, "test-singleton", chainId, [account]);
    return a?.exists ? a.balance : null;
  };

  it("step 1 on chain 0, driven to Done on chain 3 by the gas station; a second continuation is Done too", async () => {
    const plan = {
      networkId: "test-singleton",
      chainId: 0,
      targetChainId: 3,
      sender: K0,
      signerPublicKey: S0.publicKey,
      receiver,
      createGuard: { keys: [receiverKey], pred: "keys-all" },
      amount: 7n * 10n ** 12n + 25n * 10n ** 10n,
      gasLimit: 2500,
      gasPrice: 10_000n,
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 15,
      nonce: "xchain-test",
    };
    expect(transferCode(plan)).toBe(
      `(coin.transfer-crosschain "${K0}" "${receiver}" (read-keyset "receiver-guard") "3" 7.25)`,
    );
    const payload = transferPayload(plan);
    expect(payload.signers[0]?.clist).toEqual([
      { name: "coin.TRANSFER_XCHAIN", args: [K0, receiver, JsonNumber.of("7.25"), "3"] },
      { name: "coin.GAS", args: [] },
    ]);
    const unsigned = commandModel.buildCommand(payload);
    const { sig } = commandModel.signRequestKey(unsigned.hash, S0.secretKey);
    expect(await balance(3, receiver)).toBeNull();
    const stationBefore = await balance(3, GAS_STATION_ACCOUNT);
    const sent = await pact.send(0, [{ ...unsigned, sigs: [{ sig }] }]);
    expect(sent.ok).toBe(true);

    let secrets = 0;
    const deps: AdvanceDeps = {
      pact,
      networkId: "test-singleton",
      nowSeconds: () => Math.floor(Date.now() / 1000),
      randomSecret: () => String(++secrets).padStart(64, "0"),
    };
    let p = newPending({
      requestKey: unsigned.hash,
      sourceChain: 0,
      targetChain: 3,
      sender: K0,
      receiver,
      amount: "7.25",
      createdAt: Date.now(),
    });
    p = await advanceWithNode(p, deps);
    expect(stateText(p)).toBe("Sent on chain 0");
    await mineOn(t.node, 0);
    p = await advanceWithNode(p, deps);
    expect(stateText(p)).toBe("Waiting for the proof");
    // The target chain must reach the proof's height before /spv answers.
    for (let i = 0; i < 3; i++) await mineOn(t.node, 3);
    p = await advanceWithNode(p, deps);
    expect(stateText(p)).toBe("Finishing on chain 3");
    p = await advanceWithNode(p, deps);
    expect(p.continuationSent).toBe(true);
    await mineOn(t.node, 3);
    p = await advanceWithNode(p, deps);
    expect(stateText(p)).toBe("Done");

    // Exactly the amount arrived; the station paid the continuation's gas.
    expect(await balance(3, receiver)).toBe(plan.amount);
    const stationAfter = await balance(3, GAS_STATION_ACCOUNT);
    expect(stationBefore !== null && stationAfter !== null && stationAfter < stationBefore).toBe(
      true,
    );

    // The same transfer finished again (another wallet, a lost file): Done, not an error.
    let again = newPending({ ...p, createdAt: Date.now() });
    again = advance(advance(again, { kind: "step1-succeeded" }), { kind: "retry" });
    again = await advanceWithNode(again, deps);
    expect(again.phase).toBe("finishing");
    again = await advanceWithNode(again, deps);
    expect(stateText(again)).toBe("Done (Already finished on chain 3 by another continuation.)");
  });
});
