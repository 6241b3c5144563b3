/**
 * TLS between peers with real `weft node` processes on loopback
 * (docs/p2p.md "TLS"): bob mines and serves its peer port over TLS with its
 * self-signed certificate; alice, configured with bob's
 * `FINGERPRINT@HOST:PORT`, follows bob's blocks over TLS and delivers a
 * /private command to bob over it; carol, given a wrong fingerprint for
 * bob, never connects. The peer port does not speak plain HTTP.
 * Runs in `npm run test:all` (minutes of start-up and mining under load;
 * test/unit/p2pTls.test.ts covers the certificate and pinned requests in `npm test`).
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINER_A, type NodeProcess, startNode, waitFor } from "../support/nodeProcess.ts";
import { privateCommand } from "../support/privateCommand.ts";
import { entityFolder, trustFlags } from "../support/privateNodes.ts";

const nodes: NodeProcess[] = [];
let alice: NodeProcess;
let bob: NodeProcess;
let carol: NodeProcess;
let bobTls: string;
/** Bob's address with another fingerprint (carol is given it). */
let wrongBob: string;

type Peers = { peers: { address: string; network: string; lastError: string | null }[] };

async function peers(n: NodeProcess): Promise<Peers["peers"]> {
  return ((await (await n.app("peers")).json()) as Peers).peers;
}

beforeAll(async () => {
  const [a, b] = [entityFolder(), entityFolder()];
  bob = await startNode(
    [
      "--entity",
      "bob",
      ...trustFlags({ alice: a }),
      "--p2p-tls",
      "--p2p-port",
      "0",
      "--mine",
      "--miner-account",
      MINER_A,
    ],
    b.dataDir,
  );
  nodes.push(bob);
  bobTls = await waitFor("bob's TLS peer address in its log", async () => {
    return /peers reach this node over TLS at (\S+)/.exec(bob.stderr())?.[1];
  });
  const [fp, hostPort] = bobTls.split("@") as [string, string];
  wrongBob = `${fp.startsWith("A") ? "B" : "A"}${fp.slice(1)}@${hostPort}`;
  [alice, carol] = await Promise.all([
    startNode(
      [
        "--entity",
        "alice",
        ...trustFlags({ bob: b }),
        "--p2p-tls",
        "--p2p-port",
        "0",
        "--peer",
        bobTls,
      ],
      a.dataDir,
    ),
    startNode(["--peer", wrongBob]),
  ]);
  nodes.push(alice, carol);
}, 300_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  for (const n of nodes) rmSync(n.dataDir, { recursive: true, force: true });
}, 60_000);

describe("[p2p] TLS between peers", () => {
  it("names bob by its certificate's fingerprint and serves no plain HTTP there", async () => {
    expect(bobTls).toMatch(/^[A-Za-z0-9_-]{43}@127\.0\.0\.1:[0-9]+$/);
    const hostPort = bobTls.split("@")[1] as string;
    await expect(fetch(`http://${hostPort}/info`)).rejects.toThrow();
  }, 300_000);

  it("alice follows bob's blocks over TLS", async () => {
    await waitFor(
      "alice to follow bob over TLS",
      async () => ((await alice.cut()).height >= 30 ? true : undefined),
      280_000,
    );
    const head = ((await alice.cut()).hashes["0"] as { hash: string }).hash;
    expect((await fetch(`${bob.base}/chain/0/header/${head}`)).status).toBe(200);
    const p = await peers(alice);
    expect(p.find((x) => x.address === bobTls)?.network).toBe("ok");
    // Bob knows alice back by her fingerprint (she publishes her cut with it).
    await waitFor("bob to know alice's TLS address", async () =>
      (await peers(bob)).some(
        (x) => /^[A-Za-z0-9_-]{43}@127\.0\.0\.1:/.test(x.address) && x.network === "ok",
      )
        ? true
        : undefined,
    );
  }, 300_000);

  it("delivers /private over TLS", async () => {
    const command = privateCommand({ code: "(+ 20 22)", from: "alice", to: ["bob"] });
    const r = await fetch(`${alice.base}/chain/0/pact/api/v1/private`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(command),
    });
    expect(r.status, await r.clone().text()).toBe(200);
    const polled = await fetch(`${bob.base}/chain/0/pact/api/v1/poll`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ requestKeys: [command.hash] }),
    });
    expect(
      ((await polled.json()) as Record<string, { result: unknown }>)[command.hash]?.result,
    ).toEqual({
      status: "success",
      data: 42,
    });
  }, 300_000);

  it("a peer named with another fingerprint is never connected", async () => {
    const entry = await waitFor("carol to try bob", async () => {
      const e = (await peers(carol)).find((x) => x.address === wrongBob);
      return e?.lastError?.includes("fingerprint") ? e : undefined;
    });
    expect(entry.network).not.toBe("ok");
    expect((await carol.cut()).height).toBe(0);
  }, 300_000);
});
