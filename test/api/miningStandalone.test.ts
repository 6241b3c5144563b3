/**
 * End to end: the stand-alone miner (`weft mine`'s engine, HTTP only, worker
 * threads) mines at least 100 blocks against a test-singleton node listening
 * on 127.0.0.1 with the mining API enabled. Every cut the node moves to must
 * be braided, every chain must grow, and everything stops cleanly.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cutHeight } from "../../src-node/chain/cut.ts";
import { cutBraidingProblems } from "../../src-node/chain/cutBraiding.ts";
import { main } from "../../src-node/cli/main.ts";
import { minerInfoOf } from "../../src-node/mining/minerInfo.ts";
import { runStandaloneMiner } from "../../src-node/mining/standaloneMiner.ts";
import { signedCommand } from "../support/execChain.ts";
import { openTestNode, type TestNode } from "../support/testNode.ts";

const KEY = "c".repeat(64);

let node: TestNode | undefined;
afterEach(async () => {
  await node?.cleanup();
  node = undefined;
});

async function listeningNode(): Promise<TestNode> {
  node = await openTestNode({ mining: { apiEnabled: true }, port: 0 });
  await node.node.start();
  return node;
}

function bufferIo() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
      readStdin: async () => "",
      now: () => new Date(),
    },
  };
}

describe("[mining] stand-alone miner against a node on loopback", () => {
  it("mines 100+ blocks across all chains, and every cut stays braided", async () => {
    const t = await listeningNode();
    const db = t.node.blocks;
    const problems: string[] = [];
    let cuts = 0;
    db.onCutChange(({ cut }) => {
      cuts++;
      problems.push(...cutBraidingProblems(cut, db.version));
    });
    const lines: string[] = [];
    const started = Date.now();
    const result = await runStandaloneMiner({
      node: `${t.node.origin}/`,
      minerInfo: minerInfoOf(`k:${KEY}`),
      threads: 1,
      maxBlocks: 110,
      log: (l) => lines.push(l),
    });
    const elapsed = Date.now() - started;
    expect(result.accepted).toBeGreaterThanOrEqual(110);
    expect(problems).toEqual([]);
    expect(cuts).toBeGreaterThanOrEqual(100);
    const cut = db.cut();
    expect(cutBraidingProblems(cut, db.version)).toEqual([]);
    expect(cutHeight(cut)).toBeGreaterThanOrEqual(100);
    for (const [chainId, head] of cut) expect(head.height, `chain ${chainId}`).toBeGreaterThan(0);
    // Each block pays the miner in its miner data.
    const head = cut.get(0);
    const payload = head === undefined ? undefined : db.payload(head.payloadHash);
    expect(new TextDecoder().decode(payload?.minerData)).toContain(`"account":"k:${KEY}"`);
    expect(elapsed).toBeLessThan(40_000);
  }, 60_000);

  it("runs as `weft mine` with a base URL and stops after --blocks", async () => {
    const t = await listeningNode();
    const { io, out, err } = bufferIo();
    const code = await main(
      ["mine", "--node", t.node.baseUrl, "--account", `k:${KEY}`, "--blocks", "5", "--threads=1"],
      io,
    );
    expect(err.join("")).toContain("block accepted");
    expect(code).toBe(0);
    // Solutions already in flight when the fifth is accepted may add a few.
    const m = /^accepted (\d+) refused \d+\n$/.exec(out.join(""));
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(5);
    expect(cutHeight(t.node.blocks.cut())).toBeGreaterThanOrEqual(5);
  }, 30_000);

  it("asks for new work on its chain when commands arrive there (Refreshed Block)", async () => {
    const t = await listeningNode();
    const work: Uint8Array[] = [];
    const asked: (number | undefined)[] = [];
    const service = t.node.mining;
    const original = service.work.bind(service);
    service.work = (info, chain) => {
      asked.push(chain);
      return original(info, chain);
    };
    const abort = new AbortController();
    // Threads that never find anything: the miner keeps its work until told otherwise.
    const running = runStandaloneMiner({
      node: `${t.node.origin}/`,
      minerInfo: minerInfoOf(`k:${KEY}`),
      signal: abort.signal,
      createPool: () => ({
        start: async () => undefined,
        stop: () => undefined,
        setWork: (_id: string, bytes: Uint8Array) => {
          work.push(bytes);
        },
        close: async () => undefined,
      }),
    });
    // Opening a chain's update stream refetches once (work may be stale); wait until it settles.
    let seen = -1;
    for (let i = 0; i < 100 && seen !== work.length; i++) {
      seen = work.length;
      await new Promise((r) => setTimeout(r, 300));
    }
    const chainOf = (w: Uint8Array | undefined) => Buffer.from(w ?? []).readUInt32LE(0);
    const chain = chainOf(work.at(-1));
    const before = work.length;
    t.node.commands.send(chain, [signedCommand({ code: "(+ 1 2)", chainId: chain })]);
    const end = Date.now() + 5000;
    while (work.length === before && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(work.length).toBe(before + 1);
    expect(chainOf(work.at(-1))).toBe(chain);
    expect(asked.at(-1)).toBe(chain);
    abort.abort();
    await running;
  }, 30_000);

  it("explains usage errors and an unreachable node", async () => {
    const cases: [string[], RegExp, number][] = [
      [["mine", "--account", `k:${KEY}`], /--node: required/, 2],
      [["mine", "--node", "http://127.0.0.1:1"], /--account: required/, 2],
      [["mine", "--node", "http://127.0.0.1:1", "--account", "alice"], /public-keys/, 2],
      [["mine", "--node", "x", "--account", `k:${KEY}`, "--threads", "0"], /--threads/, 2],
      [["mine", "--bogus"], /unknown flag/, 2],
      [["mine", "--node", "http://127.0.0.1:1", "--account", `k:${KEY}`], /127\.0\.0\.1:1/, 1],
    ];
    for (const [args, message, exit] of cases) {
      const { io, err } = bufferIo();
      expect(await main(args, io), args.join(" ")).toBe(exit);
      expect(err.join("")).toMatch(message);
    }
    const { io, out } = bufferIo();
    expect(await main(["mine", "--help"], io)).toBe(0);
    expect(out.join("")).toContain("Usage: weft mine");
  });
});
