/**
 * createNode: the composition root. It listens by default (the desktop's
 * contract: baseUrl, appUrl, close), can be built without listening for
 * inject() tests, keeps each network's blocks under dataDir/<network>/,
 * reports a busy port as API_LISTEN_FAILED, and a restarted node gives the
 * same cut and the same answers.
 */
import { existsSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isNodeError } from "../../src-node/errors/nodeError.ts";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { buildForkedChain } from "../support/forkedChain.ts";
import { openTestNode, tempDir } from "../support/testNode.ts";

const dirs: string[] = [];
const nodes: WeftNode[] = [];
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dir(): string {
  const d = tempDir();
  dirs.push(d);
  return d;
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isNodeError(e)) return e.code;
    throw e;
  }
  return "no error";
}

describe("[node] createNode", () => {
  it("listens on loopback by default and resolves to the desktop's HostedNode shape", async () => {
    const d = dir();
    const node = await createNode({ network: "test-singleton", dataDir: d, port: 0 });
    nodes.push(node);
    expect(node.listening).toBe(true);
    expect(node.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ledger\/0\.0\/test-singleton$/);
    expect(node.appUrl).toBe(`${node.origin}/app/`);
    expect(typeof node.close).toBe("function");
    const res = await fetch(`${node.baseUrl}/health-check`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("Health check OK.\n");
    expect(existsSync(join(d, "test-singleton", "blocks.sqlite"))).toBe(true);
    await node.close();
    await node.close();
    await expect(fetch(`${node.baseUrl}/health-check`)).rejects.toThrow();
  });

  it("builds without listening when asked, and start() listens once", async () => {
    const node = await createNode({
      network: "test-singleton",
      dataDir: dir(),
      port: 0,
      listen: false,
    });
    nodes.push(node);
    expect(node.listening).toBe(false);
    expect(() => node.baseUrl).toThrow(/not listening/);
    const r = await node.server.inject({ method: "GET", url: `${node.basePath}/cut` });
    expect(r.statusCode).toBe(200);
    const url = await node.start();
    expect(await node.start()).toBe(url);
    expect(node.baseUrl).toBe(url);
  });

  it("keeps networks apart under one data directory", async () => {
    const d = dir();
    const a = await createNode({ network: "test-singleton", dataDir: d, listen: false });
    nodes.push(a);
    const b = await createNode({ network: "test-transition", dataDir: d, listen: false });
    nodes.push(b);
    expect(existsSync(join(d, "test-singleton", "blocks.sqlite"))).toBe(true);
    expect(existsSync(join(d, "test-transition", "blocks.sqlite"))).toBe(true);
    expect(b.blocks.genesis.size).toBe(20);
  });

  it("fails with API_LISTEN_FAILED on a busy port and closes what it opened", async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const address = busy.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const d = dir();
      expect(await codeOf(createNode({ network: "test-singleton", dataDir: d, port }))).toBe(
        "API_LISTEN_FAILED",
      );
      // The databases were closed: the same directory opens again.
      const again = await createNode({ network: "test-singleton", dataDir: d, port: 0 });
      nodes.push(again);
      expect(again.listening).toBe(true);
    } finally {
      busy.close();
    }
  });

  it("refuses bad options naming the key", async () => {
    expect(await codeOf(createNode({ network: "nonet", dataDir: dir() }))).toBe("CONFIG_BAD_VALUE");
    expect(
      await codeOf(createNode({ network: "test-singleton", dataDir: dir(), port: 99999 })),
    ).toBe("CONFIG_BAD_VALUE");
  });

  it("hands spv.proofDepth to block execution (default 20,000)", async () => {
    const d = await createNode({ network: "test-singleton", dataDir: dir(), listen: false });
    nodes.push(d);
    expect(d.executor.spvProofDepth).toBe(20_000);
    const n = await createNode({
      network: "test-singleton",
      dataDir: dir(),
      listen: false,
      spv: { proofDepth: 7 },
    });
    nodes.push(n);
    expect(n.executor.spvProofDepth).toBe(7);
  });
});

describe("[node] restart", () => {
  it("gives the same cut and the same answers after close and reopen", async () => {
    const d = dir();
    const first = await openTestNode({ dir: d });
    const chain = buildForkedChain(first.node.blocks);
    const b = first.base;
    const head = chain.main.cut.get(0)!.hash;
    const requests: [method: "GET" | "POST", url: string, body?: unknown][] = [
      ["GET", `${b}/cut`],
      ["GET", `${b}/cut?maxheight=33`],
      ["GET", `${b}/chain/0/hash`],
      ["GET", `${b}/chain/0/hash?limit=3&minheight=5`],
      ["GET", `${b}/chain/4/header`],
      ["GET", `${b}/chain/0/header/${chain.orphans.get(0)!.hash}`],
      ["GET", `${b}/chain/9/block?minheight=6`],
      ["POST", `${b}/chain/0/hash/branch`, { upper: [head, chain.orphans.get(0)!.hash] }],
      ["POST", `${b}/chain/0/header/branch?limit=4`, { upper: [head] }],
    ];
    const answer = async (t: typeof first) =>
      Promise.all(
        requests.map(async ([m, url, body]) => {
          const r = await t.request(m, url, body === undefined ? {} : { body });
          return `${r.statusCode} ${r.body}`;
        }),
      );
    const before = await answer(first);
    await first.cleanup();

    const second = await openTestNode({ dir: d });
    try {
      expect(await answer(second)).toEqual(before);
      expect([...second.node.blocks.cut().values()]).toEqual([...chain.main.cut.values()]);
      // And it keeps going from there.
      for (const x of chain.main.round())
        expect(second.node.blocks.insertBlock(x).cutChanged).toBe(true);
    } finally {
      await second.cleanup();
    }
  });
});
