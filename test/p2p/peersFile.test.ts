/**
 * `peers.json` read back at start (docs/p2p.md "What a peer can and cannot
 * make this node do"): learnt peers naming local addresses this node may
 * not be pointed at (a file from before the address policy) are dropped
 * before any request, and the node's identity key is made once and kept.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createNode } from "../../src-node/node.ts";

const dir = mkdtempSync(join(tmpdir(), "weft-peers-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("[p2p] peers.json at start", () => {
  it("drops learnt local addresses the policy refuses, and keeps the node key", async () => {
    const network = join(dir, "test-singleton");
    mkdirSync(network, { recursive: true });
    writeFileSync(
      join(network, "peers.json"),
      JSON.stringify({
        peers: [
          { address: "10.0.0.1:1848", source: "learned" },
          { address: "169.254.169.254:80", source: "inbound" },
          { address: "127.0.0.1:9", source: "learned" },
        ],
        bans: [],
      }),
    );
    const options = {
      network: "test-singleton",
      dataDir: dir,
      port: 0,
      executionWorkers: 0,
      // Loopback only: a test never sends a packet to any other address.
      p2p: { peers: ["127.0.0.1:7"] },
      peerPollIntervalMs: 60_000,
    } as const;
    const node = await createNode(options);
    const id = node.p2p.identity.nodeId;
    const listed = node.p2p.peers().map((p) => p.address);
    await node.close();
    // The node publishes a loopback address: loopback peers stay, other local ones go.
    expect(listed).toContain("127.0.0.1:9");
    expect(listed).not.toContain("10.0.0.1:1848");
    expect(listed).not.toContain("169.254.169.254:80");
    expect(listed).toContain("127.0.0.1:7");
    expect(readFileSync(join(network, "node-key.pem"), "utf8")).toContain("PRIVATE KEY");
    const again = await createNode(options);
    expect(again.p2p.identity.nodeId).toBe(id);
    await again.close();
  }, 60_000);
});
