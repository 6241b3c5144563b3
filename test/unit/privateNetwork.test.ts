/**
 * `/private` between `PrivateService`s wired to each other in this process
 * (test/support/privateNetwork.ts): a command reaches the pinned entity and
 * its signed receipt comes back; a peer announcing a pinned entity with
 * another key gets nothing and is penalised once; a peer announcing the
 * right key but not holding it gets an envelope it cannot open, and no
 * receipt means no delivery (and a penalty); two senders' commands that
 * cross split the parties' histories, and the running digests show it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { newEntityKeys } from "../../src-node/p2p/private/entityKeys.ts";
import type { PrivateService } from "../../src-node/p2p/private/privateService.ts";
import { openEnvelope, parseEnvelope } from "../../src-node/p2p/private/sealedEnvelope.ts";
import { privateCommand } from "../support/privateCommand.ts";
import { type PrivateNetwork, privateNetwork } from "../support/privateNetwork.ts";

let net: PrivateNetwork | undefined;
afterEach(() => {
  net?.close();
  net = undefined;
});

function node(n: PrivateNetwork, name: string): PrivateService {
  return n.services.get(name) as PrivateService;
}

function checksOf(s: PrivateService): [string, string, string][] {
  return s.partyChains().checks.map((c) => [c.parties, c.entity, c.result]);
}

describe("[private] delivery between pinned entities", () => {
  it("delivers to the pinned entity and checks its signed receipt", async () => {
    net = privateNetwork(["alice", "bob", "carol"]);
    const command = privateCommand({ code: "(+ 40 2)", from: "alice", to: ["bob"] });
    expect(await node(net, "alice").send(0, command)).toEqual({ requestKeys: [command.hash] });
    expect(node(net, "bob").poll(0, [command.hash]).size).toBe(1);
    expect(node(net, "carol").poll(0, [command.hash]).size).toBe(0);
    expect(checksOf(node(net, "alice"))).toEqual([["alice,bob", "bob", "in-step"]]);
    expect(checksOf(node(net, "bob"))).toEqual([["alice,bob", "alice", "in-step"]]);
    expect(net.penalties).toEqual([]);
  });

  it("gives nothing to a peer announcing a pinned entity with its own key, and penalises it once", async () => {
    net = privateNetwork(["alice", "bob"]);
    const received: unknown[] = [];
    const fakeKey = base64UrlEncode(newEntityKeys().publicKey);
    net.fake("fake", (path, body) => {
      if (path.endsWith("/entity"))
        return { status: 200, body: { entity: "bob", publicKey: fakeKey } };
      received.push(body);
      return { status: 200, body: { requestKey: "x" } };
    });
    for (let i = 0; i < 3; i++) {
      const command = privateCommand({ code: `(+ ${i} 1)`, from: "alice", to: ["bob"] });
      expect(await node(net, "alice").send(0, command)).toEqual({ requestKeys: [command.hash] });
    }
    expect(received).toEqual([]);
    expect(net.penalties).toHaveLength(1);
    expect(net.penalties[0]?.slice(0, 2)).toEqual(["alice", "fake"]);
    expect(net.penalties[0]?.[2]).toContain('announces entity "bob" with key');
  });

  it("names the peers announcing another key when no peer has the pinned one", async () => {
    net = privateNetwork(["alice", "bob"], {
      trust: (self, other) => self === "alice" || other !== "alice",
    });
    const fakeKey = base64UrlEncode(newEntityKeys().publicKey);
    net.fake("fake", () => ({ status: 200, body: { entity: "dave", publicKey: fakeKey } }));
    const alice = node(net, "alice");
    const dave = base64UrlEncode(newEntityKeys().publicKey);
    alice.trust.add("dave", dave);
    const command = privateCommand({ code: "1", from: "alice", to: ["dave"] });
    await expect(alice.send(0, command)).rejects.toMatchObject({
      code: "PRIVATE_UNKNOWN_ENTITY",
      message: expect.stringContaining("announced with another key by fake.test:1 (dave)"),
    });
    // Refused before running: nothing ran on alice either.
    expect(alice.poll(0, [command.hash]).size).toBe(0);
  });

  it("counts no delivery without the entity's receipt: a peer with the right key but not the entity", async () => {
    net = privateNetwork(["alice", "bob"]);
    const bobKey = base64UrlEncode((net.keys.get("bob") as { publicKey: Uint8Array }).publicKey);
    const captured: unknown[] = [];
    net.fake("fake", (path, body) => {
      if (path.endsWith("/entity"))
        return { status: 200, body: { entity: "bob", publicKey: bobKey } };
      captured.push(body);
      return { status: 200, body: { requestKey: "A".repeat(43) } };
    });
    const marker = "private-marker-xyz";
    const command = privateCommand({
      code: `(let ((n "${marker}")) 1)`,
      from: "alice",
      to: ["bob"],
    });
    // Bob itself took it with a receipt: delivered.
    expect(await node(net, "alice").send(0, command)).toEqual({ requestKeys: [command.hash] });
    expect(captured).toHaveLength(1);
    expect(JSON.stringify(captured)).not.toContain(marker);
    // The fake cannot open what it got.
    const fakeKeys = newEntityKeys();
    expect(() => openEnvelope(parseEnvelope(captured[0]), fakeKeys)).toThrow(
      expect.objectContaining({ code: "PRIVATE_UNDECRYPTABLE" }),
    );
    expect(net.penalties.map((p) => p.slice(0, 2))).toEqual([["alice", "fake"]]);
    expect(net.penalties[0]?.[2]).toContain("without its receipt");
  });

  it("answers 502 when the only peer announcing the entity's key gives no receipt", async () => {
    net = privateNetwork(["alice"]);
    const bob = base64UrlEncode(newEntityKeys().publicKey);
    net.fake("fake", (path) =>
      path.endsWith("/entity")
        ? { status: 200, body: { entity: "bob", publicKey: bob } }
        : { status: 200, body: { requestKey: "A".repeat(43) } },
    );
    const alice = node(net, "alice");
    alice.trust.add("bob", bob);
    const command = privateCommand({ code: "2", from: "alice", to: ["bob"] });
    await expect(alice.send(0, command)).rejects.toMatchObject({
      code: "PRIVATE_DELIVERY_FAILED",
      message: expect.stringContaining("receipt"),
    });
    expect(net.penalties.map((p) => p.slice(0, 2))).toEqual([["alice", "fake"]]);
  });

  it("shows when two senders' commands crossed and the parties' histories split", async () => {
    net = privateNetwork(["alice", "bob", "carol"]);
    const [alice, bob, carol] = ["alice", "bob", "carol"].map((n) =>
      node(net as PrivateNetwork, n),
    ) as [PrivateService, PrivateService, PrivateService];
    // alice's C1 reaches bob at once, carol only after carol's own C2 went out.
    const release = net.hold("alice", "carol");
    const c1 = privateCommand({ code: "1", from: "alice", to: ["bob", "carol"] });
    const c2 = privateCommand({ code: "2", from: "carol", to: ["alice", "bob"] });
    const sent1 = alice.send(0, c1);
    while (bob.poll(0, [c1.hash]).size === 0) await new Promise((r) => setTimeout(r, 5));
    await carol.send(0, c2);
    release();
    await sent1;
    // Orders: alice C1,C2; bob C1,C2; carol C2,C1. Carol's receipt for C1 shows alice the split.
    expect(checksOf(alice)).toContainEqual(["alice,bob,carol", "carol", "diverged"]);
    expect(checksOf(alice)).toContainEqual(["alice,bob,carol", "bob", "in-step"]);
    // The next command from bob shows carol the split, and alice that bob agrees.
    await bob.send(0, privateCommand({ code: "3", from: "bob", to: ["alice", "carol"] }));
    expect(checksOf(carol)).toContainEqual(["alice,bob,carol", "bob", "diverged"]);
    expect(checksOf(alice)).toContainEqual(["alice,bob,carol", "bob", "in-step"]);
    const heads = (s: PrivateService) => s.partyChains().heads.map((h) => h.digest);
    expect(heads(alice)).toEqual(heads(bob));
    expect(heads(carol)).not.toEqual(heads(alice));
  });
});
