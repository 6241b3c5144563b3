/**
 * The contract command endpoints against the spec's tables, rule by rule
 * (spec "Command", "Command payload", "Command result", "Preflight result",
 * "Contract command endpoints", "Limits"): the common headers on every
 * answer of every endpoint, the command result's fields and their types on
 * /local, /local?preflight, /poll and /listen, /local persisting nothing,
 * `sigs` that may be empty, the printed signature object, network-less
 * commands, and the bounds of the query integers.
 */
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeCommands } from "../../src-node/exec/nodeCommands.ts";
import { devKey, signedCommand, transferCaps } from "../support/execChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const { requestKeyOf, signRequestKey } = nodeCommands;

let t: TestNode;
let api: string;

beforeAll(async () => {
  t = await openTestNode({ commands: { listenTimeout: 0.2 }, spv: { timeout: 0.2 } });
  api = `${t.base}/chain/0/pact/api/v1`;
});
afterAll(async () => {
  await t.cleanup();
});

function post(path: string, body: unknown): Promise<LightMyRequestResponse> {
  return t.node.server.inject({
    method: "POST",
    url: `${api}/${path}`,
    headers: { "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
}

function json(r: LightMyRequestResponse): Record<string, unknown> {
  expect(r.statusCode, r.body).toBe(200);
  expect(r.headers["content-type"]).toMatch(/^application\/json/);
  return JSON.parse(r.body) as Record<string, unknown>;
}

const recently = () => Math.floor(Date.now() / 1000) - 10;

/** The `cmd` text of an exec of `code` by sender00, written out by hand (not by the test helpers). */
function rawCmdText(p: {
  code: string;
  signers: readonly { pubKey: string }[];
  networkId: string | null;
  nonce: string;
}): string {
  return JSON.stringify({
    payload: { exec: { code: p.code, data: {} } },
    meta: {
      chainId: "0",
      sender: "sender00",
      gasLimit: 1000,
      gasPrice: 0.00000001,
      ttl: 3600,
      creationTime: recently(),
    },
    signers: p.signers,
    networkId: p.networkId,
    nonce: p.nonce,
  });
}
const REQUEST_KEY = /^[a-zA-Z0-9_-]{43}$/;

/**
 * Spec "Command result": required fields and the types of the optional ones.
 * `logs` is a string everywhere, a failed command's output in a block included.
 */
function expectCommandResult(r: unknown, reqKey: string): void {
  const o = r as Record<string, unknown>;
  expect(o.reqKey).toBe(reqKey);
  expect(o.reqKey).toMatch(REQUEST_KEY);
  expect(typeof o.result).toBe("object");
  expect(["success", "failure"]).toContain((o.result as { status: string }).status);
  expect(typeof o.logs, "logs is a string").toBe("string");
  expect(o).toHaveProperty("metaData");
  expect(o.metaData === null || typeof o.metaData === "object").toBe(true);
  expect(typeof o.gas).toBe("number");
  if (o.txId !== undefined && o.txId !== null) expect(typeof o.txId).toBe("number");
  if (o.events !== undefined) expect(Array.isArray(o.events)).toBe(true);
  if (o.continuation !== undefined && o.continuation !== null)
    expect(typeof o.continuation).toBe("object");
}

describe("[api] contract command endpoints: the spec's tables", () => {
  it("carry the common headers on every answer, success or error", async () => {
    const c = signedCommand({ code: "(+ 1 1)", sender: "sender01", signers: [{ key: 1 }] });
    const answers: [string, LightMyRequestResponse, number][] = [
      ["local", await post("local", c), 200],
      ["local bad", await post("local", { cmd: "{}" }), 400],
      ["send", await post("send", { cmds: [c] }), 200],
      ["send bad", await post("send", { cmds: [] }), 400],
      ["poll", await post("poll", { requestKeys: [c.hash] }), 200],
      ["poll bad", await post("poll", { requestKeys: ["x"] }), 400],
    ];
    await mineOn(t.node, 0);
    answers.push(
      ["listen", await post("listen", { listen: c.hash }), 200],
      ["listen timeout", await post("listen", { listen: "C".repeat(43) }), 504],
      ["private", await post("private", c), 400],
      ["spv", await post("spv", { requestKey: c.hash, targetChainId: "0" }), 200],
      ["spv bad", await post("spv", { requestKey: "D".repeat(43), targetChainId: "0" }), 400],
    );
    for (const [name, r, status] of answers) {
      expect(r.statusCode, `${name}: ${r.body}`).toBe(status);
      expect(r.headers["x-peer-addr"], name).toMatch(/^.+:\d+$/);
      expect(r.headers["x-server-timestamp"], name).toMatch(/^\d+$/);
      expect(r.headers["x-ledger-node-version"], name).toMatch(/^\d+\.\d+\.\d+/);
      expect(r.headers["content-type"], name).toMatch(
        status === 200 ? /^application\/json/ : /^text\/plain/,
      );
    }
  });

  it("answer command results with every required field; /local's logs always a string", async () => {
    const okCmd = signedCommand({ code: "(+ 1 2)", creationTime: recently() });
    const failCmd = signedCommand({ code: '(enforce false "no")', creationTime: recently() });
    const broke = signedCommand({ code: "1", sender: "no-such-account" });
    for (const c of [okCmd, failCmd]) {
      expectCommandResult(json(await post("local", c)), c.hash);
      const pf = json(await post("local?preflight=true", c));
      // Spec "Preflight result": both members required.
      expect(Object.keys(pf).sort()).toEqual(["preflightResult", "preflightWarnings"]);
      expect(Array.isArray(pf.preflightWarnings)).toBe(true);
      for (const w of pf.preflightWarnings as unknown[]) expect(typeof w).toBe("string");
      expectCommandResult(pf.preflightResult, c.hash);
    }
    // A purchase that fails is a failure result inside preflightResult, logs still a string.
    const pf = json(await post("local?preflight=true", broke));
    expectCommandResult(pf.preflightResult, broke.hash);
    // /poll and /listen: results of mined commands, a failed one included.
    const sent = [
      signedCommand({ code: "(+ 2 3)", sender: "sender02", signers: [{ key: 2 }] }),
      signedCommand({ code: '(enforce false "no")', sender: "sender03", signers: [{ key: 3 }] }),
    ];
    json(await post("send", { cmds: sent }));
    await mineOn(t.node, 0);
    const polled = json(await post("poll", { requestKeys: sent.map((c) => c.hash) }));
    for (const c of sent) {
      expectCommandResult(polled[c.hash], c.hash);
      expectCommandResult(json(await post("listen", { listen: c.hash })), c.hash);
    }
  });

  it("/local persists no write, gassed or not", async () => {
    const balance = async (account: string) =>
      json(await post("local", signedCommand({ code: `(coin.get-balance "${account}")` })))
        .result as { status: string; data?: unknown };
    const before = [await balance("sender04"), await balance("sender05")];
    const transfer = signedCommand({
      code: '(coin.transfer "sender04" "sender05" 3.0)',
      sender: "sender04",
      signers: [{ key: 4, caps: transferCaps("sender04", "sender05", "3.0") }],
      creationTime: recently(),
    });
    const pr = json(await post("local?preflight=true", transfer)).preflightResult as {
      result: unknown;
    };
    expect(pr.result).toEqual({ status: "success", data: "Write succeeded" });
    expect(json(await post("local", transfer)).result).toEqual({
      status: "success",
      data: "Write succeeded",
    });
    // Neither the transfer nor preflight's gas fee stayed.
    expect([await balance("sender04"), await balance("sender05")]).toEqual(before);
    const k = devKey(6);
    const create = signedCommand({
      code: '(coin.create-account "local-only" (read-keyset "ks"))',
      data: { ks: { keys: [k.publicKey], pred: "keys-all" } },
    });
    expect(json(await post("local", create)).result).toEqual({
      status: "success",
      data: "Write succeeded",
    });
    expect((await balance("local-only")).status).toBe("failure");
  });

  it("take commands whose sigs are empty (no signers) and the printed signature object", async () => {
    const cmd = rawCmdText({
      code: "(+ 1 2)",
      signers: [],
      networkId: "test-singleton",
      nonce: "no-signers",
    });
    const unsigned = { cmd, hash: requestKeyOf(cmd), sigs: [] };
    expect(json(await post("local", unsigned)).result).toEqual({ status: "success", data: 3 });
    // Accepted on the wire; /send then refuses it only because nobody signed for the gas.
    const r = await post("send", { cmds: [unsigned] });
    expect(r.statusCode).toBe(400);
    expect(r.body).toContain("buying gas");
    // The command-line tool's form {sig, scheme, pubKey, addr}.
    const k = devKey(7);
    const c = signedCommand({ code: "(+ 7 7)", sender: "sender07", signers: [{ key: 7 }] });
    const printed = {
      ...c,
      sigs: c.sigs.map((s) => ({
        sig: s.sig,
        scheme: "ED25519",
        pubKey: k.publicKey,
        addr: k.publicKey,
      })),
    };
    expect(json(await post("send", { cmds: [printed] }))).toEqual({ requestKeys: [c.hash] });
  });

  it("match sigs to signers one-to-one and in order (/send, /local)", async () => {
    const c = signedCommand({
      code: "(+ 8 8)",
      sender: "sender08",
      signers: [{ key: 8 }, { key: 9 }],
    });
    const swapped = { ...c, sigs: [c.sigs[1], c.sigs[0]] };
    const short = { ...c, sigs: [c.sigs[0]] };
    for (const [body, text] of [
      [swapped, "sigs[0].sig"],
      [short, "the number of signers and signatures differ"],
    ] as const) {
      const s = await post("send", { cmds: [body] });
      expect(s.statusCode, s.body).toBe(400);
      expect(s.body).toContain(text);
      const l = await post("local", body);
      expect(l.statusCode, l.body).toBe(400);
      expect(l.body).toContain(text);
    }
    expect(json(await post("local", c)).result).toEqual({ status: "success", data: 16 });
  });

  it("run a network-less command (networkId null) locally, and refuse it for a block", async () => {
    const k = devKey(0);
    const cmd = rawCmdText({
      code: "(+ 2 2)",
      signers: [{ pubKey: k.publicKey }],
      networkId: null,
      nonce: "network-less",
    });
    const hash = requestKeyOf(cmd);
    const body = { cmd, hash, sigs: [signRequestKey(hash, k.secretKey)] };
    expect(json(await post("local", body)).result).toEqual({ status: "success", data: 4 });
    for (const path of ["local?preflight=true", "send"]) {
      const r = await post(path, path === "send" ? { cmds: [body] } : body);
      expect(r.statusCode, path).toBe(400);
      expect(r.body).toContain("cmd.networkId");
      expect(r.body).toContain("network-less");
    }
  });

  it("take rewindDepth and confirmationDepth as integers >= 0 only", async () => {
    const c = signedCommand({ code: "(+ 1 1)" });
    expect(json(await post("local?rewindDepth=0", c)).result).toEqual({
      status: "success",
      data: 2,
    });
    expect(json(await post("poll?confirmationDepth=0", { requestKeys: [c.hash] }))).toEqual({});
    for (const bad of ["-1", "1.5", "1e3", "", "x"]) {
      const l = await post(`local?rewindDepth=${bad}`, c);
      expect(l.statusCode, bad).toBe(400);
      expect(l.body).toContain("rewindDepth");
      const p = await post(`poll?confirmationDepth=${bad}`, { requestKeys: [c.hash] });
      expect(p.statusCode, bad).toBe(400);
      expect(p.body).toContain("confirmationDepth");
    }
  });
});
