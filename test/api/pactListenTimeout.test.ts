/**
 * `/listen`'s timeout from the node's options (`commands.listen-timeout` in
 * the YAML file, `--listen-timeout`): a node started with 1 second answers
 * 504 after about that long for a request key no block has.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestNode, type TestNode } from "../support/testNode.ts";

describe("[api] /listen timeout from the node's options", () => {
  let t: TestNode;
  beforeAll(async () => {
    t = await openTestNode({ commands: { listenTimeout: 1 } });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("answers 504 after commands.listenTimeout seconds", async () => {
    expect(t.node.options.commands.listenTimeout).toBe(1);
    const started = Date.now();
    const r = await t.request("POST", `${t.base}/chain/0/pact/api/v1/listen`, {
      body: { listen: "C".repeat(43) },
    });
    const waited = Date.now() - started;
    expect(r.statusCode, r.body).toBe(504);
    expect(r.body).toContain("after 1 s");
    expect(waited).toBeGreaterThanOrEqual(900);
  });
});
