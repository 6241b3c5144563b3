/**
 * GET /health-check, GET /info (root and {base_url}) and GET {base_url}/cut.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeInfo } from "../../src-node/api/nodeInfo.ts";
import { cutHeight, cutId, cutWeight } from "../../src-node/chain/cut.ts";
import {
  runnableVersions,
  testSingletonVersion,
  testTransitionVersion,
} from "../../src-node/chain/versions.ts";
import { NODE_SERVICE_DATE } from "../../src-node/config/nodeParams.ts";
import { base64UrlEncode } from "../../src-node/encoding/base64url.ts";
import { u256ToBytes } from "../../src-node/encoding/littleEndian.ts";
import { type ApiFixture, json, openForkedNode } from "../support/apiFixture.ts";
import { openTestNode } from "../support/testNode.ts";

/** `2027-06-30T00:00:00Z`: date, time and zone. */
const ISO_8601_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let t: ApiFixture;
beforeAll(async () => {
  t = await openForkedNode();
});
afterAll(async () => {
  await t.cleanup();
});

describe("[api] health check", () => {
  for (const path of ["/health-check", "/ledger/0.0/test-singleton/health-check"]) {
    it(`GET ${path} answers 200 text/plain`, async () => {
      const r = await t.request("GET", path);
      expect(r.statusCode).toBe(200);
      expect(r.headers["content-type"]).toMatch(/^text\/plain/);
      expect(r.body).toBe("Health check OK.\n");
    });
  }
});

describe("[api] info", () => {
  for (const path of ["/info", "/ledger/0.0/test-singleton/info"]) {
    it(`GET ${path} answers every node information field`, async () => {
      const r = await t.request("GET", path);
      expect(r.statusCode).toBe(200);
      expect(r.headers["content-type"]).toMatch(/^application\/json/);
      const info = json(r) as Record<string, unknown>;
      expect(Object.keys(info).sort()).toEqual(
        [
          "nodeApiVersion",
          "nodeBlockDelay",
          "nodeChains",
          "nodeGenesisHeights",
          "nodeGraphHistory",
          "nodeHistoricalChains",
          "nodeLatestBehaviorHeight",
          "nodeNumberOfChains",
          "nodePackageVersion",
          "nodeServiceDate",
          "nodeVersion",
        ].sort(),
      );
      expect(info).toMatchObject({
        nodeVersion: "test-singleton",
        nodeApiVersion: "0.0",
        nodeChains: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
        nodeNumberOfChains: 10,
        nodeBlockDelay: 30,
        nodeLatestBehaviorHeight: 0,
        nodeGenesisHeights: Array.from({ length: 10 }, (_, c) => [String(c), 0]),
      });
      expect(info.nodePackageVersion).toMatch(/^\d+\.\d+\.\d+/);
      expect(r.headers["x-ledger-node-version"]).toBe(info.nodePackageVersion);
      // Spec "Node information": an ISO 8601 timestamp.
      expect(info.nodeServiceDate).toMatch(ISO_8601_TIMESTAMP);
      expect(Number.isNaN(Date.parse(String(info.nodeServiceDate)))).toBe(false);
      const history = info.nodeGraphHistory as [number, [number, number[]][]][];
      expect(history).toHaveLength(1);
      expect(history[0]![0]).toBe(0);
      expect(history[0]![1][0]).toEqual([0, [2, 3, 5]]);
      expect(info.nodeHistoricalChains).toEqual(info.nodeGraphHistory);
    });
  }

  it("keeps the spec's types and bounds on every network the node runs", () => {
    for (const version of runnableVersions) {
      const info = nodeInfo(version, "1.2.3", NODE_SERVICE_DATE);
      const name = version.name;
      expect(Number.isInteger(info.nodeBlockDelay) && info.nodeBlockDelay >= 0, name).toBe(true);
      expect(info.nodeNumberOfChains, name).toBeGreaterThanOrEqual(10);
      expect(info.nodeChains, name).toHaveLength(info.nodeNumberOfChains);
      expect(
        info.nodeChains.every((c) => /^(0|[1-9][0-9]*)$/.test(c)),
        name,
      ).toBe(true);
      for (const [chain, height] of info.nodeGenesisHeights) {
        expect(typeof chain, name).toBe("string");
        expect(Number.isInteger(height) && height >= 0, name).toBe(true);
      }
      expect(Number.isInteger(info.nodeLatestBehaviorHeight), name).toBe(true);
      expect(info.nodeHistoricalChains, name).toEqual(info.nodeGraphHistory);
      expect(info.nodeServiceDate, name).toMatch(ISO_8601_TIMESTAMP);
      expect(info.nodeVersion, name).toBe(name);
    }
  });

  it("describes a graph change: history descending, 20 chains, genesis heights, behaviour height", async () => {
    const n = await openTestNode({ network: "test-transition" });
    try {
      const info = json(await n.request("GET", "/info")) as Record<string, unknown>;
      expect(info.nodeVersion).toBe("test-transition");
      expect(info.nodeNumberOfChains).toBe(20);
      expect(info.nodeLatestBehaviorHeight).toBe(10);
      const history = info.nodeGraphHistory as [number, unknown[]][];
      expect(history.map(([h, g]) => [h, g.length])).toEqual([
        [10, 20],
        [0, 10],
      ]);
      expect((info.nodeGenesisHeights as [string, number][]).find(([c]) => c === "15")).toEqual([
        "15",
        10,
      ]);
      expect(testTransitionVersion.name).toBe("test-transition");
    } finally {
      await n.cleanup();
    }
  });
});

describe("[api] cut", () => {
  const path = "/ledger/0.0/test-singleton/cut";

  it("GET /cut answers the best cut: hashes, origin, weight, height, instance, id", async () => {
    const r = await t.request("GET", path);
    expect(r.statusCode).toBe(200);
    const cut = t.node.blocks.cut();
    const body = json(r) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["hashes", "origin", "weight", "height", "instance", "id"]);
    expect(body).toEqual({
      hashes: Object.fromEntries(
        [...cut.values()].map((h) => [String(h.chainId), { height: h.height, hash: h.hash }]),
      ),
      origin: null,
      weight: base64UrlEncode(u256ToBytes(cutWeight(cut), "weight")),
      height: cutHeight(cut),
      instance: "test-singleton",
      id: cutId(cut),
    });
    expect(body.height).toBe(80);
    expect((body.hashes as Record<string, { hash: string }>)["0"]!.hash).toBe(
      t.chain.main.cut.get(0)!.hash,
    );
  });

  it("limits the cut to a cut height with maxheight", async () => {
    const body = json(await t.request("GET", `${path}?maxheight=45`)) as {
      height: number;
      hashes: Record<string, { height: number; hash: string }>;
    };
    expect(body.height).toBe(40);
    for (let c = 0; c < 10; c++)
      expect(body.hashes[String(c)]).toEqual({ height: 4, hash: t.chain.mainAt(c, 4).hash });
    const all = json(await t.request("GET", `${path}?maxheight=1000`)) as { height: number };
    expect(all.height).toBe(80);
    const zero = json(await t.request("GET", `${path}?maxheight=0`)) as { height: number };
    expect(zero.height).toBe(0);
  });

  it("answers 400 for a malformed maxheight", async () => {
    for (const v of ["x", "-1", "1.5", "", "99999999999999999999"]) {
      const r = await t.request("GET", `${path}?maxheight=${v}`);
      expect(r.statusCode, v).toBe(400);
      expect(r.body).toMatch(/^maxheight: /);
    }
  });

  it("serves the version's genesis cut on a new node", async () => {
    const n = await openTestNode();
    try {
      const body = json(await n.request("GET", `${n.base}/cut`)) as {
        height: number;
        instance: string;
      };
      expect(body).toMatchObject({ height: 0, instance: testSingletonVersion.name });
    } finally {
      await n.cleanup();
    }
  });
});
