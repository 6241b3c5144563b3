/**
 * The small parts of a node among strangers (docs/p2p.md "What a peer can
 * and cannot make this node do"):
 * - bounded reads: a body past its limit is refused while it streams (or at
 *   once when its declared length says so), without reading the rest;
 * - node identity: a proof holds for its key, network and challenge only,
 *   and the key is kept in its file;
 * - address policy: loopback, link-local and private addresses learnt from
 *   peers only when this node runs on such a network or it is allowed;
 * - the catch-up gate: a claim alone holds the miner for the grace at most,
 *   validated blocks above the floor hold it, a stall releases it.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveScopes, scopeAllowed, scopeOfHost } from "../../src-node/p2p/addressPolicy.ts";
import { BodyTooLarge, readBoundedText } from "../../src-node/p2p/boundedBody.ts";
import {
  CatchUpGate,
  GRACE_MS,
  MIN_BLOCKS_PER_S,
  STALL_MS,
} from "../../src-node/p2p/catchUpGate.ts";
import { NodeIdentity, newChallenge, verifyNodeProof } from "../../src-node/p2p/nodeIdentity.ts";

/** A body of `total` bytes in chunks of `chunk`, counting what was pulled. */
function streamed(total: number, chunk: number): { res: Response; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) {
        controller.close();
        return;
      }
      const n = Math.min(chunk, total - pulled);
      pulled += n;
      controller.enqueue(new Uint8Array(n).fill(0x20));
    },
  });
  return { res: new Response(body), pulled: () => pulled };
}

describe("p2p: bounded reads", () => {
  it("reads a body within its limit", async () => {
    expect(await readBoundedText(new Response('{"a":1}'), 64, "cut")).toBe('{"a":1}');
  });

  it("stops a body past its limit while it streams", async () => {
    const { res, pulled } = streamed(300 * 1024 * 1024, 64 * 1024);
    await expect(readBoundedText(res, 64 * 1024, "cut")).rejects.toBeInstanceOf(BodyTooLarge);
    // Not the 300 MB: a chunk or two past the limit.
    expect(pulled()).toBeLessThanOrEqual(4 * 64 * 1024);
  });

  it("refuses a declared length past the limit before reading", async () => {
    const { res, pulled } = streamed(1024 * 1024, 1024);
    const declared = new Response(res.body, { headers: { "content-length": String(1024 * 1024) } });
    await expect(readBoundedText(declared, 1000, "cut")).rejects.toThrow(/declared 1048576 bytes/);
    expect(pulled()).toBeLessThanOrEqual(2 * 1024);
  });
});

describe("p2p: node identity", () => {
  it("proves the identity over the network and the challenge only", () => {
    const id = NodeIdentity.ephemeral();
    const challenge = newChallenge();
    const { nodeId, nodeProof } = id.prove("test-singleton", challenge);
    expect(nodeId).toBe(id.nodeId);
    expect(verifyNodeProof("test-singleton", challenge, nodeId, nodeProof)).toBe(true);
    expect(verifyNodeProof("test-singleton", newChallenge(), nodeId, nodeProof)).toBe(false);
    expect(verifyNodeProof("development", challenge, nodeId, nodeProof)).toBe(false);
    const other = NodeIdentity.ephemeral();
    expect(verifyNodeProof("test-singleton", challenge, other.nodeId, nodeProof)).toBe(false);
    expect(verifyNodeProof("test-singleton", challenge, "junk", nodeProof)).toBe(false);
    expect(verifyNodeProof("test-singleton", challenge, nodeId, undefined)).toBe(false);
  });

  it("keeps its key in its file (0600)", () => {
    const dir = mkdtempSync(join(tmpdir(), "weft-id-"));
    try {
      const file = join(dir, "node-key.pem");
      const first = NodeIdentity.loadOrCreate(file);
      expect(NodeIdentity.loadOrCreate(file).nodeId).toBe(first.nodeId);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("p2p: which learnt addresses are taken", () => {
  it("tells the scope of an address", async () => {
    expect(scopeOfHost("127.0.0.5")).toBe("loopback");
    expect(scopeOfHost("::1")).toBe("loopback");
    expect(scopeOfHost("localhost")).toBe("loopback");
    expect(scopeOfHost("10.1.2.3")).toBe("private");
    expect(scopeOfHost("172.20.0.1")).toBe("private");
    expect(scopeOfHost("192.168.1.1")).toBe("private");
    expect(scopeOfHost("100.64.0.1")).toBe("private");
    expect(scopeOfHost("fd00::1")).toBe("private");
    expect(scopeOfHost("169.254.169.254")).toBe("link-local");
    expect(scopeOfHost("fe80::1")).toBe("link-local");
    expect(scopeOfHost("::ffff:10.0.0.1")).toBe("private");
    expect(scopeOfHost("0.0.0.0")).toBe("unusable");
    expect(scopeOfHost("224.0.0.1")).toBe("unusable");
    expect(scopeOfHost("8.8.8.8")).toBe("public");
    expect(scopeOfHost("2001:db8::1")).toBe("public");
    expect(scopeOfHost("node.example")).toBeUndefined();
    expect(await resolveScopes("127.0.0.1")).toEqual(["loopback"]);
  });

  it("takes local addresses only on a network of their kind, or when allowed", () => {
    const onLoopback = { allowPrivate: false, selfScope: "loopback" } as const;
    const onPublic = { allowPrivate: false, selfScope: "public" } as const;
    expect(scopeAllowed("loopback", onLoopback)).toBe(true);
    expect(scopeAllowed("private", onLoopback)).toBe(false);
    expect(scopeAllowed("link-local", onLoopback)).toBe(false);
    expect(scopeAllowed("loopback", onPublic)).toBe(false);
    expect(scopeAllowed("private", onPublic)).toBe(false);
    expect(scopeAllowed("public", onPublic)).toBe(true);
    expect(scopeAllowed("private", { allowPrivate: true, selfScope: "public" })).toBe(true);
    expect(scopeAllowed("unusable", { allowPrivate: true, selfScope: "public" })).toBe(false);
  });
});

describe("p2p: the catch-up gate", () => {
  it("holds for a claim alone no longer than the grace, however long it is repeated", () => {
    const gate = new CatchUpGate();
    expect(gate.catchingUp(0, true)).toBe(true);
    expect(gate.catchingUp(GRACE_MS - 1, true)).toBe(true);
    for (let t = GRACE_MS; t < 10 * GRACE_MS; t += 1000)
      expect(gate.catchingUp(t, true)).toBe(false);
  });

  it("holds while validated blocks arrive above the floor, and lets go when they stall", () => {
    const gate = new CatchUpGate();
    let t = 0;
    gate.catchingUp(t, true);
    for (; t < 60_000; t += 1000) {
      gate.validated(t, 10 * MIN_BLOCKS_PER_S);
      expect(gate.catchingUp(t, true)).toBe(true);
    }
    // A trickle under the floor: let go once the grace is over.
    gate.validated(t, 1);
    expect(gate.catchingUp(t + 11_000, true)).toBe(false);
    // Nothing at all: let go after the stall.
    const stalled = new CatchUpGate();
    stalled.catchingUp(0, true);
    stalled.validated(1000, 1000);
    expect(stalled.catchingUp(1000 + STALL_MS + 1, true)).toBe(false);
    // Caught up: not catching up.
    expect(gate.catchingUp(t, false)).toBe(false);
  });
});
