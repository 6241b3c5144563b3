/**
 * POST …/pact/api/v1/spv and …/pact/spv on a test-singleton node (inject):
 * the proof as a JSON string on both paths, waiting for the target chain,
 * the timeout, the end of a wait when the node closes, and the 400 texts
 * for malformed and unknown request keys and bad target chains.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeSpvProof, runSpvProof } from "../../src-node/chain/spvProof.ts";
import type { Command } from "../../src-node/command/commandTypes.ts";
import { crossChainTransfer } from "../support/crossChain.ts";
import { mineOn } from "../support/nodeMining.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const RECEIVER_KEY = "c".repeat(64);

function step0(targetChain: number): Command {
  return crossChainTransfer({
    from: 0,
    receiver: `k:${RECEIVER_KEY}`,
    receiverKeys: [RECEIVER_KEY],
    amount: "1.0",
    sourceChain: 0,
    targetChain,
  });
}

describe("[api] /spv", () => {
  let t: TestNode;
  let key: string;
  let height: number;
  const spv = (body: unknown, path = "pact/api/v1/spv", chain = 0) =>
    t.request("POST", `${t.base}/chain/${chain}/${path}`, { body });

  beforeAll(async () => {
    // The wait's bound from the node's options (`spv.timeout`, `--spv-timeout`).
    t = await openTestNode({ spv: { timeout: 1 } });
    const cmd = step0(1);
    key = cmd.hash;
    const sent = await t.request("POST", `${t.base}/chain/0/pact/api/v1/send`, {
      body: { cmds: [cmd] },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    height = (await mineOn(t.node, 0)).height;
    expect(t.node.state.result(0, key)?.height).toBe(height);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("answers a target chain that is high enough at once, on both paths", async () => {
    // Chain 0 itself: the block is the root.
    const a = await spv({ requestKey: key, targetChainId: "0" });
    expect(a.statusCode, a.body).toBe(200);
    expect(a.headers["content-type"]).toBe("application/json; charset=utf-8");
    const text = JSON.parse(a.body) as string;
    expect(typeof text).toBe("string");
    const proof = decodeSpvProof(text);
    expect(proof.chain).toBe(0);
    expect(runSpvProof(proof)).toBe(t.node.state.result(0, key)?.blockHash);
    const b = await spv({ requestKey: key, targetChainId: 0 }, "pact/spv");
    expect(b.statusCode, b.body).toBe(200);
    expect(b.body).toBe(a.body);
  });

  it("waits until the target chain reaches the height the proof needs", async () => {
    expect(t.node.executor.bestHead(1).height).toBeLessThan(height + 2);
    let answered = false;
    const asked = spv({ requestKey: key, targetChainId: "1" }).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    while (t.node.executor.bestHead(1).height < height + 2) await mineOn(t.node, 1);
    const r = await asked;
    expect(r.statusCode, r.body).toBe(200);
    const proof = decodeSpvProof(JSON.parse(r.body) as string);
    expect(proof.chain).toBe(1);
    const root = t.node.blocks.header(runSpvProof(proof));
    expect(root?.chainId).toBe(1);
    expect(root?.height).toBe(height + 2);
  });

  it("gives up after the node's SPV timeout", async () => {
    expect(t.node.options.spv.timeout).toBe(1);
    const far = step0(9); // 0 → 5 → 9 (or 0 → 2 → 4 → 9): height + 2 at least
    await t.request("POST", `${t.base}/chain/0/pact/api/v1/send`, { body: { cmds: [far] } });
    const h = (await mineOn(t.node, 0)).height;
    expect(t.node.executor.bestHead(9).height).toBeLessThan(h + 2);
    const started = Date.now();
    const r = await spv({ requestKey: far.hash, targetChainId: "9" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(r.statusCode).toBe(400);
    expect(r.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(r.body).toMatch(
      /^SPV target not reachable: target chain not reachable\. Chainweb instance is too young \(chain 9 is at height \d+; the proof needs height \d+; waited 1 s/,
    );
  });

  it("refuses malformed and unknown request keys", async () => {
    const short = await spv({ requestKey: "abc", targetChainId: "1" });
    expect(short.statusCode).toBe(400);
    expect(short.body).toBe("Request Key abc has incorrect hash of length 2\n");
    const junk = await spv({ requestKey: "not base64!", targetChainId: "1" });
    expect(junk.statusCode).toBe(400);
    expect(junk.body).toBe('Request Key "not base64!" is not unpadded base64url\n');
    const number = await spv({ requestKey: 7, targetChainId: "1" });
    expect(number.statusCode).toBe(400);
    expect(number.body).toContain("requestKey: expected a request key (a string), got 7");
    const unknown = "A".repeat(43);
    const missing = await spv({ requestKey: unknown, targetChainId: "1" });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toMatch(new RegExp(`^Transaction hash not found: ${unknown} `));
    // The command ran on chain 0: /spv on chain 1 does not find it.
    const wrongSource = await spv({ requestKey: key, targetChainId: "0" }, "pact/spv", 1);
    expect(wrongSource.statusCode).toBe(400);
    expect(wrongSource.body).toMatch(/^Transaction hash not found: /);
  });

  it("refuses bad target chains and incomplete bodies", async () => {
    for (const target of ["x", "10", 10, -1, "01", null, 1.5]) {
      const r = await spv({ requestKey: key, targetChainId: target });
      expect(r.statusCode, String(target)).toBe(400);
      expect(r.body).toMatch(/^targetChainId: /);
      expect(r.body).toContain("the chains of test-singleton are 0 … 9");
    }
    const noTarget = await spv({ requestKey: key });
    expect(noTarget.statusCode).toBe(400);
    expect(noTarget.body).toContain("targetChainId: missing");
    const noKey = await spv({ targetChainId: "1" });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.body).toContain("requestKey: missing");
    const notObject = await t.request("POST", `${t.base}/chain/0/pact/spv`, {
      rawBody: "[1]",
      headers: { "content-type": "application/json" },
    });
    expect(notObject.statusCode).toBe(400);
    const badSource = await spv({ requestKey: key, targetChainId: "1" }, "pact/spv", 10);
    expect(badSource.statusCode).toBe(404);
  });
});

describe("[api] /spv while the node closes", () => {
  it("ends a waiting request with 503", async () => {
    const t = await openTestNode({});
    try {
      const cmd = step0(1);
      await t.request("POST", `${t.base}/chain/0/pact/api/v1/send`, { body: { cmds: [cmd] } });
      await mineOn(t.node, 0);
      const asked = t.request("POST", `${t.base}/chain/0/pact/spv`, {
        body: { requestKey: cmd.hash, targetChainId: "1" },
      });
      await new Promise((r) => setTimeout(r, 50));
      await t.node.close();
      const r = await asked;
      expect(r.statusCode).toBe(503);
      expect(r.body).toContain("the node is shutting down");
    } finally {
      await t.cleanup();
    }
  });
});
