/**
 * The contract command endpoints over HTTP (inject), on test-singleton with
 * real signatures and real mining: /send (all or nothing, every rule, body
 * shapes), /poll (unknown keys left out, confirmation depth), /listen (wait,
 * timeout status), /local (legacy, preflight, signature switch, rewind
 * depth), /private (refused without an entity or a pinned entity for the
 * addressed one; docs/private.md), and /mining/solved executing
 * blocks before accepting them.
 */
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minerDataBytes } from "../../src-node/chain/minerData.ts";
import { buildPayloadWithOutputs } from "../../src-node/chain/payloadWithOutputs.ts";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { placeholderCoinbase } from "../../src-node/mining/payloadProvider.ts";
import { devKey, MINER, signedCommand, transferCaps } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const { requestKeyOf, signRequestKey } = nodeCommands;

let t: TestNode;
let api: string;

beforeAll(async () => {
  t = await openTestNode({ commands: { listenTimeout: 2 }, mining: { apiEnabled: true } });
  api = `${t.base}/chain/0/pact/api/v1`;
});
afterAll(async () => {
  await t.cleanup();
});

function post(path: string, body: unknown, raw = false): Promise<LightMyRequestResponse> {
  return t.node.server.inject({
    method: "POST",
    url: path.startsWith("/") ? path : `${api}/${path}`,
    headers: { "content-type": "application/json" },
    payload: raw ? (body as string) : JSON.stringify(body),
  });
}

function expectText(r: LightMyRequestResponse, status: number, ...parts: string[]): void {
  expect(r.statusCode, r.body).toBe(status);
  expect(r.headers["content-type"]).toMatch(/^text\/plain/);
  for (const p of parts) expect(r.body).toContain(p);
}

function json(r: LightMyRequestResponse): Record<string, unknown> {
  expect(r.statusCode, r.body).toBe(200);
  expect(r.headers["content-type"]).toMatch(/^application\/json/);
  return JSON.parse(r.body) as Record<string, unknown>;
}

/** A command whose `cmd` text is written by hand (numbers exactly as given). */
function handWritten(meta: string, code = "(+ 1 2)", key = 0) {
  const k = devKey(key);
  const cmd = `{"payload":{"exec":{"code":${JSON.stringify(code)},"data":{}}},"meta":${meta},"signers":[{"pubKey":"${k.publicKey}"}],"networkId":"test-singleton","nonce":"${Math.random()}"}`;
  const hash = requestKeyOf(cmd);
  const s = signRequestKey(hash, k.secretKey);
  return { cmd, hash, sigs: [{ sig: s.sig, pubKey: s.pubKey }] };
}

describe("[api] POST /send", () => {
  it("takes commands and answers their request keys; /poll finds them once mined", async () => {
    const a = signedCommand({
      code: '(coin.transfer "sender00" "sender01" 1.5)',
      signers: [{ key: 0, caps: transferCaps("sender00", "sender01", "1.5") }],
    });
    const b = signedCommand({ code: "(+ 1 2)", sender: "sender02", signers: [{ key: 2 }] });
    expect(json(await post("send", { cmds: [a, b] }))).toEqual({ requestKeys: [a.hash, b.hash] });
    // Pending: nothing to poll yet.
    expect(json(await post("poll", { requestKeys: [a.hash, b.hash] }))).toEqual({});
    const h = await mineOn(t.node, 0);
    const polled = json(await post("poll", { requestKeys: [a.hash, b.hash] }));
    expect(Object.keys(polled).sort()).toEqual([a.hash, b.hash].sort());
    const ra = polled[a.hash] as { result: unknown; reqKey: string; metaData: unknown };
    expect(ra.result).toEqual({ status: "success", data: "Write succeeded" });
    expect(ra.reqKey).toBe(a.hash);
    expect(ra.metaData).toEqual({
      blockHeight: h.height,
      blockTime: h.creationTime,
      blockHash: h.hash,
      prevBlockHash: h.parent,
    });
    expect((polled[b.hash] as { result: unknown }).result).toEqual({
      status: "success",
      data: 3,
    });
    // The block's payload carries both as [command, output] pairs.
    const block = t.node.blocks.payload(h.payloadHash);
    expect(block?.transactions.length).toBe(2);
    // Sending an included command again is refused.
    expectText(await post("send", { cmds: [a] }), 400, "already on chain", a.hash);
  });

  it("accepts what common clients send: 1e-8, numeric strings, an extra pubKey", async () => {
    const now = Math.floor(Date.now() / 1000) - 30;
    const c = handWritten(
      `{"chainId":"0","sender":"sender00","gasLimit":"2500","gasPrice":1e-8,"ttl":"28800","creationTime":${now}}`,
    );
    expect(json(await post("send", { cmds: [c] }))).toEqual({ requestKeys: [c.hash] });
    const d = handWritten(
      `{"chainId":"0","sender":"sender00","gasLimit":2500,"gasPrice":"0.00000001","ttl":28800,"creationTime":"${now}"}`,
    );
    expect(json(await post("send", { cmds: [d] }))).toEqual({ requestKeys: [d.hash] });
    await mineOn(t.node, 0);
    expect(Object.keys(json(await post("poll", { requestKeys: [c.hash, d.hash] }))).length).toBe(2);
  });

  it("refuses the whole batch, naming index, request key and rule (400 text/plain)", async () => {
    const good = signedCommand({ code: "(+ 1 2)" });
    const now = Math.floor(Date.now() / 1000);
    const cases: [ReturnType<typeof signedCommand>, string][] = [
      [signedCommand({ code: "1", network: "mainnet01" }), "this node runs test-singleton"],
      [signedCommand({ code: "1", chainId: 3 }), "it was sent to chain 0"],
      [signedCommand({ code: "1", gasLimit: 200000 }), "exceeds the block gas limit 150000"],
      [signedCommand({ code: "1", gasPrice: "0.000000001" }), "below the minimum gas price"],
      [signedCommand({ code: "1", gasPrice: "0.0000000100000001" }), "more than 12 decimal places"],
      [signedCommand({ code: "1", ttl: 200000 }), "time-to-live"],
      [signedCommand({ code: "1", creationTime: now - 7200, ttl: 3600 }), "expired"],
      [signedCommand({ code: "1", creationTime: now + 600 }), "too far in the future"],
      [signedCommand({ code: "1", sender: "no-such-account" }), "buying gas"],
    ];
    for (const [bad, text] of cases) {
      const r = await post("send", { cmds: [good, bad] });
      expectText(r, 400, `cmds[1] (request key "${bad.hash}")`, text);
      expect(r.body).not.toContain("cmds[0]");
    }
    const badSig = { ...good, sigs: [{ sig: "ab".repeat(64) }] };
    expectText(await post("send", { cmds: [badSig] }), 400, "cmds[0]", "signature");
    const wrongHash = { ...good, hash: requestKeyOf("other") };
    expectText(await post("send", { cmds: [wrongHash] }), 400, "does not match cmd");
    expectText(
      await post("send", { cmds: [{ cmd: "{", hash: good.hash, sigs: [] }] }),
      400,
      "not valid JSON",
    );
    // Nothing of the refused batches was taken.
    expect(t.node.commands.mempool.has(0, good.hash)).toBe(false);
  });

  it("answers 400 for bodies that are not {cmds: [...]} and 404/400 for bad chains", async () => {
    const c = signedCommand({ code: "1" });
    expectText(await post("send", { cmds: [] }), 400, "cmds: empty");
    expectText(await post("send", {}), 400, "cmds: missing");
    expectText(await post("send", { cmds: "x" }), 400, "cmds: expected an array");
    expectText(await post("send", [c]), 400, "body must be object");
    expectText(await post("send", "{nope", true), 400);
    expectText(await post("send", { cmds: [42] }), 400, "cmds[0]");
    expectText(await post(`${t.base}/chain/99/pact/api/v1/send`, { cmds: [c] }), 404, "chain 99");
    expectText(await post(`${t.base}/chain/x/pact/api/v1/send`, { cmds: [c] }), 400, "chain");
  });
});

describe("[api] POST /poll and /listen", () => {
  it("checks request keys and confirmation depth", async () => {
    expectText(await post("poll", { requestKeys: [] }), 400, "requestKeys: empty");
    expectText(await post("poll", {}), 400, "requestKeys: missing");
    expectText(
      await post("poll", { requestKeys: ["short"] }),
      400,
      "requestKeys[0]",
      "43 characters",
    );
    expectText(await post("poll", { requestKeys: [7] }), 400, "requestKeys[0]");
    expectText(
      await post("poll?confirmationDepth=-1", { requestKeys: ["A".repeat(43)] }),
      400,
      "confirmationDepth",
    );
    expect(json(await post("poll", { requestKeys: ["A".repeat(43)] }))).toEqual({});
  });

  it("reports a result only at the requested depth", async () => {
    const c = signedCommand({ code: "(+ 2 2)", sender: "sender03", signers: [{ key: 3 }] });
    json(await post("send", { cmds: [c] }));
    await mineOn(t.node, 0);
    expect(Object.keys(json(await post("poll", { requestKeys: [c.hash] })))).toEqual([c.hash]);
    expect(json(await post("poll?confirmationDepth=1", { requestKeys: [c.hash] }))).toEqual({});
    await mineOn(t.node, 0);
    expect(
      Object.keys(json(await post("poll?confirmationDepth=1", { requestKeys: [c.hash] }))),
    ).toEqual([c.hash]);
  });

  it("listens until the result exists, and times out with 504", async () => {
    const c = signedCommand({ code: "(+ 3 3)", sender: "sender04", signers: [{ key: 4 }] });
    json(await post("send", { cmds: [c] }));
    const waiting = post("listen", { listen: c.hash });
    await mineOn(t.node, 0);
    const r = json(await waiting);
    expect(r.reqKey).toBe(c.hash);
    expect(r.result).toEqual({ status: "success", data: 6 });
    // Known already: answered at once.
    expect(json(await post("listen", { listen: c.hash })).reqKey).toBe(c.hash);
    expectText(await post("listen", { listen: "B".repeat(43) }), 504, "after 2 s");
    expectText(await post("listen", {}), 400, "listen: missing");
    expectText(await post("listen", { listen: "bad" }), 400, "listen");
  });
});

const recently = () => Math.floor(Date.now() / 1000) - 10;

describe("[api] POST /local", () => {
  it("runs a command without persisting anything", async () => {
    const r = json(await post("local", signedCommand({ code: "(+ 1 2)" })));
    expect(r.result).toEqual({ status: "success", data: 3 });
    expect(r.txId).toBeNull();
    const meta = r.metaData as { blockHeight: number; publicMeta: { chainId: string } };
    expect(meta.publicMeta.chainId).toBe("0");
    expect(meta.blockHeight).toBe((t.node.blocks.cut().get(0)?.height ?? 0) + 1);
    const write = signedCommand({
      code: '(coin.transfer "sender05" "sender06" 10.0)',
      sender: "sender05",
      signers: [{ key: 5, caps: transferCaps("sender05", "sender06", "10.0") }],
    });
    expect(json(await post("local", write)).result).toEqual({
      status: "success",
      data: "Write succeeded",
    });
    const bal = json(await post("local", signedCommand({ code: '(coin.get-balance "sender06")' })));
    expect(bal.result).toEqual({ status: "success", data: 1000000 });
    // A contract failure is a failure result (200), not an HTTP error.
    const fail = json(await post("local", signedCommand({ code: '(enforce false "nope")' })));
    expect((fail.result as { status: string }).status).toBe("failure");
  });

  it("preflight: metadata rules (400 with the list) and a fully gassed run", async () => {
    const ok = signedCommand({ code: "(+ 1 2)", creationTime: recently() });
    const r = json(await post("local?preflight=true", ok));
    expect(Object.keys(r)).toEqual(["preflightResult", "preflightWarnings"]);
    expect(r.preflightWarnings).toEqual([]);
    const pr = r.preflightResult as { result: unknown; gas: number; events: unknown[] };
    expect(pr.result).toEqual({ status: "success", data: 3 });
    expect(pr.gas).toBeGreaterThan(0);
    expect(pr.events.length).toBe(1);
    const bad = signedCommand({ code: "1", chainId: 1, gasLimit: 999999 });
    const e = await post("local?preflight=true", bad);
    expectText(e, 400, "Metadata validation failed: [", "chain", "gas limit");
    // Without preflight no metadata is checked but the gas limit (issue 15, item 5).
    expectText(await post("local", bad), 400, "exceeds the block gas limit 150000");
    const otherChain = signedCommand({ code: "1", chainId: 1 });
    expect(json(await post("local", otherChain)).result).toEqual({ status: "success", data: 1 });
    // A sender that cannot pay: a failure result inside preflightResult.
    const broke = signedCommand({ code: "1", sender: "no-such-account" });
    const br = json(await post("local?preflight=true", broke)).preflightResult as {
      result: { status: string; error: { message: string } };
    };
    expect(br.result.status).toBe("failure");
    expect(br.result.error.message).toContain("buy gas");
  });

  it("verifies signatures unless told not to; the hash always", async () => {
    const c = signedCommand({ code: "(+ 4 4)" });
    const unsigned = { ...c, sigs: [{ sig: "" }] };
    expectText(await post("local", unsigned), 400, "has not signed");
    expect(json(await post("local?signatureVerification=false", unsigned)).result).toEqual({
      status: "success",
      data: 8,
    });
    expectText(
      await post("local?signatureVerification=false", { ...c, hash: requestKeyOf("x") }),
      400,
      "does not match cmd",
    );
    expectText(await post("local?signatureVerification=maybe", c), 400, "signatureVerification");
    expectText(await post("local", { cmd: "{}" }), 400, "hash: missing");
    expectText(await post("local", [1]), 400);
  });

  it("runs rewindDepth blocks back (clamped at genesis)", async () => {
    const before = json(
      await post("local", signedCommand({ code: '(coin.get-balance "sender07")' })),
    );
    const c = signedCommand({
      code: '(coin.transfer "sender07" "sender08" 7.0)',
      sender: "sender07",
      signers: [{ key: 7, caps: transferCaps("sender07", "sender08", "7.0") }],
    });
    json(await post("send", { cmds: [c] }));
    await mineOn(t.node, 0);
    const read = async (q: string) =>
      json(await post(`local${q}`, signedCommand({ code: '(coin.get-balance "sender08")' })))
        .result as { data: number };
    expect((await read("")).data).toBe(1000007);
    expect((await read("?rewindDepth=1")).data).toBe(1000000);
    expect((await read("?rewindDepth=100000")).data).toBe(1000000);
    expect(before.result).toBeDefined();
    expectText(await post("local?rewindDepth=x", c), 400, "rewindDepth");
  });
});

describe("[api] POST /private", () => {
  it("reads private metadata, then refuses: no entity, or an addressed entity it does not trust", async () => {
    const k = devKey(0);
    const cmd = JSON.stringify({
      payload: { exec: { code: "(+ 1 2)", data: {} } },
      meta: { address: { from: "alice-node", to: ["bob-node"] } },
      signers: [{ pubKey: k.publicKey }],
      networkId: "test-singleton",
      nonce: "p1",
    });
    const hash = requestKeyOf(cmd);
    const body = { cmd, hash, sigs: [signRequestKey(hash, k.secretKey)] };
    expectText(await post("private", body), 400, "needs an entity name", "--entity");
    const withEntity = await openTestNode({ p2p: { entity: "alice-node" } });
    try {
      const r = await withEntity.request("POST", `${withEntity.base}/chain/0/pact/api/v1/private`, {
        body,
      });
      expectText(r, 400, "cmd.meta.address.to", 'this node does not trust "bob-node"');
    } finally {
      await withEntity.cleanup();
    }
    const pub = signedCommand({ code: "1" });
    expectText(await post("private", pub), 400, "cmd.meta", "private metadata");
    expectText(
      await post("private", { ...body, hash: requestKeyOf("x") }),
      400,
      "does not match cmd",
    );
  });
});

describe("[api] mining executes blocks", () => {
  it("rejects a solved block whose payload does not execute to its outputs", async () => {
    const bad = await openTestNode({
      mining: { apiEnabled: true },
      payloadProvider: (_c, parent, miner) =>
        buildPayloadWithOutputs({
          transactions: [],
          minerData: minerDataBytes(miner),
          coinbase: placeholderCoinbase(parent),
        }),
    });
    try {
      const work = await bad.node.server.inject({
        method: "GET",
        url: `${bad.base}/mining/work`,
        headers: { "content-type": "application/json" },
        payload: JSON.stringify({
          account: MINER.account,
          predicate: MINER.predicate,
          "public-keys": MINER.publicKeys,
        }),
      });
      expect(work.statusCode).toBe(200);
      const solved = await bad.node.server.inject({
        method: "POST",
        url: `${bad.base}/mining/solved`,
        headers: { "content-type": "application/octet-stream" },
        payload: work.rawPayload.subarray(36),
      });
      expectText(solved, 400, "coinbase is not what executing the block gives");
      expect([...bad.node.blocks.cut().values()].every((h) => h.height === 0)).toBe(true);
    } finally {
      await bad.cleanup();
    }
  });
});
