/**
 * A `/private` round trip (docs/private.md): two nodes in this process on
 * loopback (so they share one event loop), `alice` with `bob` as its peer,
 * each pinning the other's entity key. `round_trip_ms`: the median time from
 * `POST …/private` on alice (a command addressed to bob) to its answer, which
 * comes once bob opened, checked and ran it and alice ran it too; over
 * WEFT_BENCH_ROUNDS (default 200) commands after 20 untimed ones.
 * `round_trip_p90_ms`: the 90th percentile of the same.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNode, type WeftNode } from "../../src-node/node.ts";
import { privateCommand } from "../support/privateCommand.ts";

const rounds = Math.max(5, Number(process.env.WEFT_BENCH_ROUNDS ?? "200"));
const WARM_UP = 20;

function report(metric: string, value: number, unit: string): void {
  console.log(`BENCH private ${metric}=${value.toFixed(2)} ${unit}`);
}

const dir = mkdtempSync(join(tmpdir(), "weft-bench-private-"));
const common = { network: "test-singleton", host: "127.0.0.1", port: 0, executionWorkers: 0 };

function publicKeyOf(node: WeftNode): string {
  return node.private.announced().publicKey;
}

async function start(
  name: string,
  peers: string[],
  trusted: Record<string, string>,
): Promise<WeftNode> {
  return createNode({
    ...common,
    dataDir: join(dir, name),
    p2p: {
      entity: name,
      peers,
      trustedEntities: Object.entries(trusted).map(([n, k]) => `${n}=${k}`),
    },
  });
}

async function connected(alice: WeftNode, bob: WeftNode): Promise<void> {
  const address = new URL(bob.origin).host;
  for (let i = 0; i < 600; i++) {
    if (alice.p2p.peerAddresses().some((a) => `${a.hostname}:${a.port}` === address)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("alice did not connect to bob");
}

try {
  // First starts make the key pairs; the second ones pin each other's key.
  let bob = await start("bob", [], {});
  let alice = await start("alice", [], {});
  const keys = { alice: publicKeyOf(alice), bob: publicKeyOf(bob) };
  await Promise.all([alice.close(), bob.close()]);
  bob = await start("bob", [], { alice: keys.alice });
  alice = await start("alice", [new URL(bob.origin).host], { bob: keys.bob });
  try {
    await connected(alice, bob);
    const url = `${alice.baseUrl}/chain/0/pact/api/v1/private`;
    const times: number[] = [];
    for (let i = 0; i < WARM_UP + rounds; i++) {
      const command = privateCommand({
        code: `(+ ${i} 1)`,
        from: "alice",
        to: ["bob"],
        nonce: `bench-private-${i}`,
      });
      const body = JSON.stringify(command);
      const t0 = performance.now();
      const r = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const text = await r.text();
      const ms = performance.now() - t0;
      if (r.status !== 200) throw new Error(`/private answered ${r.status}: ${text}`);
      if (i >= WARM_UP) times.push(ms);
    }
    times.sort((a, b) => a - b);
    report("round_trip_ms", times[Math.floor(times.length / 2)] as number, "ms");
    report("round_trip_p90_ms", times[Math.floor(times.length * 0.9)] as number, "ms");
  } finally {
    await Promise.all([alice.close(), bob.close()]);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
