/**
 * The peer options: `--peer` repeatable, `--p2p-port`, `--max-peers`,
 * `--entity`, `--trust-entity` repeatable, `--p2p-tls`, `--p2p-allow-private-addresses`
 * and the YAML `p2p` section, checked with errors naming the key; the node's peer network
 * runs with them (node.ts passes the p2p options whole).
 */
import { describe, expect, it } from "vitest";
import { parseConfigText } from "../../src-node/config/loadConfigFile.ts";
import { mergeNodeOptions, resolveNodeOptions } from "../../src-node/config/nodeOptions.ts";
import { parseNodeFlags } from "../../src-node/config/parseNodeFlags.ts";
import { openTestNode } from "../support/testNode.ts";

describe("[config] p2p options", () => {
  it("collects repeated --peer flags and defaults max-peers to 16", () => {
    const flags = parseNodeFlags(["--peer", "127.0.0.1:1849", "--peer=node.example:1848"]);
    const o = resolveNodeOptions({ ...flags.options, dataDir: "/tmp/x" });
    expect(o.p2p).toEqual({
      peers: ["127.0.0.1:1849", "node.example:1848"],
      port: undefined,
      maxPeers: 16,
      entity: undefined,
      trustedEntities: [],
      tls: false,
      allowPrivateAddresses: false,
    });
    expect(resolveNodeOptions({ dataDir: "/tmp/x" }).p2p.peers).toEqual([]);
  });

  it("reads the YAML section; flags win", () => {
    const file = parseConfigText(
      "p2p:\n  peers: ['[::1]:1849']\n  port: 1790\n  max-peers: 4\n  entity: alice\n  allow-private-addresses: true\n",
      "node.yaml",
    );
    const o = resolveNodeOptions({ ...file, dataDir: "/tmp/x" });
    expect(o.p2p).toEqual({
      peers: ["[::1]:1849"],
      port: 1790,
      maxPeers: 4,
      entity: "alice",
      trustedEntities: [],
      tls: false,
      allowPrivateAddresses: true,
    });
    const merged = resolveNodeOptions({
      ...mergeNodeOptions(file, parseNodeFlags(["--max-peers", "8"]).options),
      dataDir: "/tmp/x",
    });
    expect(merged.p2p.maxPeers).toBe(8);
    expect(merged.p2p.peers).toEqual(["[::1]:1849"]);
    expect(() => parseConfigText("p2p:\n  peer: []\n", "node.yaml")).toThrow(
      /unknown key p2p.peer/,
    );
  });

  it("pins entities from --trust-entity NAME=KEY (repeatable) or the YAML map; flags win", () => {
    const [k1, k2] = ["A".repeat(43), "B".repeat(43)];
    const flags = parseNodeFlags(["--trust-entity", `bob=${k1}`, `--trust-entity=carol=${k2}`]);
    expect(resolveNodeOptions({ ...flags.options, dataDir: "/tmp/x" }).p2p.trustedEntities).toEqual(
      [
        { name: "bob", publicKey: k1 },
        { name: "carol", publicKey: k2 },
      ],
    );
    const file = parseConfigText(
      `p2p:\n  trusted-entities:\n    dave: ${k2}\n    erin: ${k1}\n`,
      "node.yaml",
    );
    expect(resolveNodeOptions({ ...file, dataDir: "/tmp/x" }).p2p.trustedEntities).toEqual([
      { name: "dave", publicKey: k2 },
      { name: "erin", publicKey: k1 },
    ]);
    const merged = resolveNodeOptions({
      ...mergeNodeOptions(file, flags.options),
      dataDir: "/tmp/x",
    });
    expect(merged.p2p.trustedEntities.map((t) => t.name)).toEqual(["bob", "carol"]);
    const bad = (trustedEntities: unknown) => () =>
      resolveNodeOptions({ dataDir: "/tmp/x", p2p: { trustedEntities } });
    expect(bad(["bob"])).toThrow(/^p2p\.trusted-entities\[0\]: expected NAME=KEY/);
    expect(bad([`a b=${k1}`])).toThrow(/^p2p\.trusted-entities\[0\]: expected letters/);
    expect(bad(["bob=short"])).toThrow(
      /^p2p\.trusted-entities\[0\]: expected the entity's public key/,
    );
    expect(bad([`bob=${k1}`, `bob=${k2}`])).toThrow(
      /^p2p\.trusted-entities\[1\]: bob is pinned twice/,
    );
    expect(bad({ bob: 42 })).toThrow(/^p2p\.trusted-entities\.bob: /);
    expect(bad("bob")).toThrow(/^p2p\.trusted-entities: expected a map/);
  });

  it("names the key of a bad value", () => {
    const bad = (p2p: Record<string, unknown>) => () =>
      resolveNodeOptions({ dataDir: "/tmp/x", p2p });
    expect(bad({ peers: ["nohost"] })).toThrow(/^p2p\.peers\[0\]: expected HOST:PORT/);
    expect(bad({ peers: ["h:0"] })).toThrow(/^p2p\.peers\[0\]/);
    expect(bad({ maxPeers: 0 })).toThrow(/^p2p\.max-peers: /);
    expect(bad({ port: "x" })).toThrow(/^p2p\.port: /);
    expect(bad({ entity: "a b" })).toThrow(/^p2p\.entity: /);
    expect(bad({ tls: "yes", port: 1790 })).toThrow(/^p2p\.tls: expected true or false/);
    expect(bad({ tls: true })).toThrow(/^p2p\.tls: needs p2p\.port/);
    expect(bad({ allowPrivateAddresses: "yes" })).toThrow(/^p2p\.allow-private-addresses: /);
    const flag = parseNodeFlags(["--p2p-allow-private-addresses"]).options;
    expect(resolveNodeOptions({ ...flag, dataDir: "/tmp/x" }).p2p.allowPrivateAddresses).toBe(true);
  });

  it("reads TLS on the peer port and FINGERPRINT@HOST:PORT peers", () => {
    const fp = "A".repeat(43);
    const flags = parseNodeFlags([
      "--p2p-tls",
      "--p2p-port",
      "0",
      "--peer",
      `${fp}@127.0.0.1:1849`,
    ]);
    const o = resolveNodeOptions({ ...flags.options, dataDir: "/tmp/x" });
    expect(o.p2p).toMatchObject({ tls: true, port: 0, peers: [`${fp}@127.0.0.1:1849`] });
    const file = parseConfigText("p2p:\n  tls: true\n  port: 1790\n", "node.yaml");
    expect(resolveNodeOptions({ ...file, dataDir: "/tmp/x" }).p2p.tls).toBe(true);
    expect(() =>
      resolveNodeOptions({ dataDir: "/tmp/x", p2p: { peers: ["short@127.0.0.1:1849"] } }),
    ).toThrow(/^p2p\.peers\[0\]: expected HOST:PORT or FINGERPRINT@HOST:PORT/);
  });

  it("reach the node's peer network: its peers and their bound", async () => {
    const n = await openTestNode({ p2p: { peers: ["127.0.0.1:1849"], maxPeers: 3 } });
    try {
      expect(n.node.p2p.book.maxPeers).toBe(3);
      expect(n.node.p2p.book.all().map((p) => [p.key, p.source])).toEqual([
        ["127.0.0.1:1849", "configured"],
      ]);
    } finally {
      await n.cleanup();
    }
  });
});
